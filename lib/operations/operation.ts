import type { z } from "zod";
import type { ActivityNote, Operation as ActivityOperation } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import type { Permission } from "@/lib/auth/permissions";
import type { UploadRules } from "@/lib/http/form-body";

type Schema = z.ZodType;

/** What an operation's function receives: who acts (a key or a console member), their organization, the input. */
export interface OperationContext<
  Body extends Schema | undefined = Schema | undefined,
  Query extends Schema | undefined = Schema | undefined,
  Params extends Schema | undefined = Schema | undefined,
> {
  org: { id: string };
  principal: Principal;
  body: Parsed<Body>;
  query: Parsed<Query>;
  params: Parsed<Params>;
  /** For memory operations: the function notes the namespace and identity for the activity log. */
  activity: ActivityNote;
  /** For an operation with `ndjson.request`: its body as it arrives, for the function to read (and limit). */
  bodyStream?: AsyncIterable<Uint8Array>;
}

/**
 * How the HTTP API serves an operation: lib/api builds its route's handler (withApiKey) and its OpenAPI entry
 * from this, and app/api/v1 mounts the handler on the path.
 */
export interface HttpBinding {
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

/**
 * One operation an API key (or a console member) can run, whatever the transport: the single source of its
 * HTTP binding, its permission, its validation and the domain function it calls, in a file of its own
 * (lib/operations/<area>/<operation>.ts). The HTTP API (its routes and OpenAPI document), the MCP tools and the
 * console are built from these.
 */
export interface Operation<
  Body extends Schema | undefined = Schema | undefined,
  Query extends Schema | undefined = Schema | undefined,
  Params extends Schema | undefined = Schema | undefined,
  Response extends Schema = Schema,
  Paginated extends Pagination = Pagination,
> {
  http: HttpBinding;
  permission?: Permission;
  /**
   * What the operation does, when it reaches a whole namespace (every scope's memories or other keys'
   * access), e.g. "deleting a namespace": a key with scopes is refused it.
   */
  namespaceWide?: string;
  /** The input's parts: what it names (over HTTP the path), how to list (the query string), the payload (the body). */
  params?: Params;
  query?: Query;
  body?: Body;
  /** Schema of the result (of one item, for a paginated list): nothing else leaves the operation. */
  response: Response;
  /** A list: `true` pages by number (`page`), `"cursor"` by an opaque cursor (`pagination.nextCursor`). */
  paginated?: Paginated;
  /**
   * 201 for an operation that creates what it returns, 202 for one that queues the work: its success's status,
   * over HTTP and in the activity log.
   */
  successStatus?: 200 | 201 | 202;
  /**
   * Takes a file: over HTTP its body may be multipart/form-data (a `file` part, the other fields beside it) or
   * JSON up to the file limit, instead of the 5 MiB JSON body.
   */
  upload?: UploadRules;
  /** Answers with a file as it is (the function returns a FileBody), not the envelope: `response` is unused. */
  download?: true;
  /**
   * NDJSON (one JSON value per line) instead of JSON, for what is too large to hold whole. `request`: the
   * schema of one line of the body, which the function reads itself as it arrives (`bodyStream`). `response`:
   * the function returns an ItemStream (lib/http/ndjson.ts), each item passed through `response` and sent
   * as one line instead of the envelope; errors before the first line are still answered in the envelope.
   */
  ndjson?: { request?: Schema; response?: boolean };
  /** A memory operation: every call is written to the activity log with its status and latency. */
  activity?: ActivityOperation;
  run(context: OperationContext<Body, Query, Params>): Promise<unknown>;
}

/**
 * An operation of the catalogue, its types kept: what it parses and what it returns stay precise, so the
 * callers of runOperation read its result without casting.
 */
export function operation<
  Body extends Schema | undefined,
  Query extends Schema | undefined,
  Params extends Schema | undefined,
  Response extends Schema,
  Paginated extends Pagination = undefined,
>(definition: Operation<Body, Query, Params, Response, Paginated>) {
  return definition;
}

/** How a list pages (see `Operation.paginated`); `undefined` for an operation that returns one result. */
type Pagination = boolean | "cursor" | undefined;

/**
 * What an operation answers once through its response schema: the schema's output, or a list of them for
 * a paginated operation.
 */
export type OperationData<O extends Operation> = [Exclude<O["paginated"], undefined | false>] extends [never]
  ? z.output<O["response"]>
  : z.output<O["response"]>[];

/** What the runner hands the function for a schema of its operation (the optional property's `undefined` removed). */
export type Parsed<S> = [Exclude<S, undefined>] extends [never] ? undefined : z.infer<Exclude<S, undefined>>;
