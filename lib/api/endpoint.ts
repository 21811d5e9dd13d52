import type { Operation } from "@/lib/operations/operation";

/** An operation as the HTTP API serves it: the single source for its route and its OpenAPI entry. */
export interface Endpoint<O extends Operation = Operation> {
  operation: O;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** OpenAPI path below /api/v1, e.g. `/namespaces/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** Error statuses worth listing in the OpenAPI document besides the ones every key-authenticated route has. */
  errors?: number[];
  /**
   * Honours the `Idempotency-Key` header (lib/http/idempotency.ts): a retry of the same request within 24 hours
   * gets the first answer, the work done once.
   */
  idempotent?: boolean;
}

export function endpoint<O extends Operation>(operation: O, http: Omit<Endpoint<O>, "operation">): Endpoint<O> {
  return { operation, ...http };
}
