import type { z } from "zod";
import type { Operation } from "@/lib/activity/activity";
import type { Permission } from "@/lib/auth/permissions";

type Schema = z.ZodType;

/** One operation of the HTTP API: the single source for its route, its validation and its OpenAPI entry. */
export interface Endpoint<
  Body extends Schema | undefined = Schema | undefined,
  Query extends Schema | undefined = Schema | undefined,
  Params extends Schema | undefined = Schema | undefined,
  Response extends Schema = Schema,
> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** OpenAPI path below /api/v1, e.g. `/namespaces/{id}`. */
  path: string;
  summary: string;
  tag: string;
  permission?: Permission;
  /**
   * What the operation does, when it reaches a whole namespace (every scope's memories or other keys'
   * access), e.g. "deleting a namespace": a key with scopes is refused it (403).
   */
  namespaceWide?: string;
  body?: Body;
  query?: Query;
  params?: Params;
  /** Schema of `data` (of one item, for a paginated list). */
  response: Response;
  paginated?: boolean;
  successStatus?: 200 | 201;
  /** A memory operation: every call is written to the activity log with its status and latency. */
  activity?: Operation;
  /** Error statuses worth listing in the OpenAPI document besides the ones every key-authenticated route has. */
  errors?: number[];
}

export function endpoint<
  Body extends Schema | undefined,
  Query extends Schema | undefined,
  Params extends Schema | undefined,
  Response extends Schema,
>(definition: Endpoint<Body, Query, Params, Response>) {
  return definition;
}

/** What the wrapper hands a handler for a schema of its endpoint (the optional property's `undefined` removed). */
export type Parsed<S> = [Exclude<S, undefined>] extends [never] ? undefined : z.infer<Exclude<S, undefined>>;
