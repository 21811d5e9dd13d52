import { z } from "zod";
import { REFUSED_UNGRANTED, startActivity, type ActivityNote } from "@/lib/activity/activity";
import { missingPermissionMessage } from "@/lib/auth/api-keys/api-key-principal";
import { assertNamespaceWideAllowed, assertPermission, type Principal } from "@/lib/auth/principal";
import { getDatabase } from "@/lib/db";
import { ForbiddenError, InvalidError, invalidRequest, UngrantedNamespaceError } from "@/lib/errors";
import { errorStatus } from "@/lib/http/errors";
import { FileBody } from "@/lib/http/file-body";
import { ItemStream, NDJSON } from "@/lib/http/ndjson";
import { Page, type Pagination } from "@/lib/http/pagination";
import type { Operation, OperationContext, OperationData } from "./operation";

/**
 * What an operation is called with, before validation: over HTTP the path, query string and body; over
 * MCP a tool's arguments.
 */
export interface OperationInput {
  params?: Record<string, unknown>;
  /** A parameter given once is a string; repeated (`scope=a:1&scope=b:2`), the array of its values. */
  query?: Record<string, string | string[]>;
  /** Read only once the key is known to have the permission (HTTP bodies can be large). */
  body?: () => Promise<unknown>;
  /** The body of an operation with `ndjson.request`, unread (HTTP: after its content type is checked). */
  bodyStream?: () => AsyncIterable<Uint8Array>;
  /** Said in the activity row's details when not plain HTTP (the overview's "connect MCP" step reads it). */
  transport?: "mcp";
}

export interface OperationResult<Data = unknown> {
  status: number;
  /** The result through the operation's response schema (undefined for a streamed one: see `stream`). */
  data: Data;
  pagination?: Pagination;
  /** An operation with `ndjson.response`: the items to send one per line, each already through its schema. */
  stream?: { items: AsyncIterable<unknown>; filename?: string };
  /** An operation that answers with a file as it is (over HTTP; `data` is undefined). */
  file?: FileBody;
}

/**
 * One operation by an authenticated key or a console member, whatever the transport: checks the operation's permission
 * (ForbiddenError), parses path, query and body with its schemas (InvalidError with `details[].field`
 * like `body.memories.3.content`), runs its function, passes the result through the response schema (so
 * internal columns cannot leak) and, for memory operations, writes the activity row (refusals included,
 * with the status they are answered with), readable through activityWritten once it returns.
 */
export async function runOperation<O extends Operation>(
  operation: O,
  principal: Principal,
  input: OperationInput,
  started = performance.now(),
): Promise<OperationResult<OperationData<O>>> {
  const activity: ActivityNote = {};
  // The activity log is the API's and MCP's traffic per key; what people do in the console is audited.
  const logged =
    operation.activity && principal.kind === "api_key"
      ? { recorder: startActivity(), operation: operation.activity, apiKeyId: principal.keyId }
      : undefined;
  let status = 500;
  try {
    assertOperationAllowed(operation, principal);
    const params = parse(operation.params, input.params ?? {}, "path");
    const query = parse(operation.query, input.query ?? {}, "query");
    const body = operation.body ? parse(operation.body, await input.body?.(), "body") : undefined;
    const context: OperationContext = { org: { id: principal.orgId }, principal, body, query, params, activity };
    if (operation.ndjson?.request) context.bodyStream = streamedBody(input);
    const result = await operation.run(context);
    status = operation.successStatus ?? 200;
    if (result instanceof ItemStream) {
      const items = parsedItems(result.items, compiled(operation.response));
      // A streamed operation has no data: its callers read `stream` (lib/api), never `data`.
      return { status, data: undefined as OperationData<O>, stream: { items, filename: result.filename } };
    }
    // The schema's output is the operation's data by OperationData's definition; TypeScript cannot follow
    // a generic through `parse`.
    if (result instanceof FileBody) return { status, data: undefined as OperationData<O>, file: result };
    if (result instanceof Page) {
      const response = compiled(operation.response);
      const items = result.items.map((item) => response.parse(item));
      return { status, data: items as OperationData<O>, pagination: result.pagination };
    }
    return { status, data: compiled(operation.response).parse(result) as OperationData<O> };
  } catch (error) {
    status = errorStatus(error);
    if (error instanceof UngrantedNamespaceError) {
      activity.namespaceId = error.namespaceId;
      activity.details = { ...activity.details, refused: REFUSED_UNGRANTED };
    }
    throw error;
  } finally {
    if (logged) {
      // Once the answer is out, its activity row must be there for the console (or another instance) to
      // read. The embedded database runs statements in the order they are sent, and its readers first write
      // the rows held (activityWritten), so the answer does not wait for its row; a PostgreSQL pool gives no
      // such order, so there it waits. A failed write never fails the operation it records.
      const entry = {
        ...activity,
        ...(input.transport && { details: { ...activity.details, transport: input.transport } }),
        orgId: principal.orgId,
        apiKeyId: logged.apiKeyId,
        operation: logged.operation,
        status,
        latencyMs: performance.now() - started,
      };
      // A database given up fails the write below, which is logged; the row is recorded all the same.
      const answerWaits = await getDatabase().then(
        (database) => database.kind === "postgres",
        () => false,
      );
      const written = logged.recorder
        .record(entry, { hold: !answerWaits })
        .catch((error) => console.error("[memgw] activity log write failed:", error));
      if (answerWaits) await written;
    }
  }
}

/**
 * The operations' schemas as zod compiles them (`z.compile`): the same output and the same issues (on a failure,
 * zod parses again with the schema itself), from one generated function instead of a walk of the schema's nodes.
 * Interpreted, checking a recall's answer took 100–160 µs of the server's main thread (timed in the production
 * server, on SciFact); compiled, about 40% of the time (`node --import tsx bench/schema-parse.ts`). Compiled on
 * first use; the operation keeps its own schema, whose descriptions the OpenAPI document reads.
 */
const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

function compiled(schema: z.ZodType): z.ZodType {
  let fast = compiledSchemas.get(schema);
  if (!fast) compiledSchemas.set(schema, (fast = z.compile(schema)));
  return fast;
}

function streamedBody(input: OperationInput): AsyncIterable<Uint8Array> {
  if (!input.bodyStream) throw new InvalidError(`Send the body as NDJSON (${NDJSON}).`);
  return input.bodyStream();
}

/** A streamed result's items through the response schema, as they are produced (nothing else leaves either). */
async function* parsedItems(items: AsyncIterable<unknown>, schema: z.ZodType): AsyncGenerator<unknown> {
  for await (const item of items) yield schema.parse(item);
}

/** The operation's permission and, for a namespace-wide one, a key without scopes: ForbiddenError otherwise. */
export function assertOperationAllowed(operation: Operation, principal: Principal): void {
  const { permission } = operation;
  if (permission) {
    assertPermission(principal, permission, () =>
      principal.kind === "api_key" ? missingPermissionMessage(principal, permission) : "",
    );
  }
  if (operation.namespaceWide) assertNamespaceWideAllowed(principal, operation.namespaceWide);
}

/**
 * Whether the principal may run the operation (assertOperationAllowed's check, the one runOperation makes):
 * what a page offers or an MCP server lists.
 */
export function operationAllowed(operation: Operation, principal: Principal): boolean {
  try {
    assertOperationAllowed(operation, principal);
    return true;
  } catch (error) {
    if (error instanceof ForbiddenError) return false;
    throw error;
  }
}

/** Whether path, query and body pass the operation's schemas (runOperation answers anything else 400). */
export function inputPasses(operation: Operation, input: { params?: unknown; query?: unknown; body?: unknown }) {
  const checks: [z.ZodType | undefined, unknown][] = [
    [operation.params, input.params ?? {}],
    [operation.query, input.query ?? {}],
    [operation.body, input.body],
  ];
  return checks.every(([schema, value]) => !schema || compiled(schema).safeParse(value).success);
}

function parse(schema: z.ZodType | undefined, value: unknown, location: "body" | "query" | "path") {
  if (!schema) return undefined;
  const parsed = compiled(schema).safeParse(value);
  if (!parsed.success) {
    const issues = location === "query" ? repeatedParameterIssues(parsed.error.issues, value) : parsed.error.issues;
    throw invalidRequest(issues, location);
  }
  return parsed.data;
}

/**
 * A query parameter repeated where the operation expects it once (`page=1&page=2`) is refused by its
 * schema with a message about its type; say what is wrong instead.
 */
function repeatedParameterIssues(issues: readonly z.core.$ZodIssue[], query: unknown) {
  const given = (query ?? {}) as Record<string, unknown>;
  return issues.map((issue) => {
    const name = issue.path.length === 1 ? issue.path[0] : undefined;
    if (typeof name !== "string" || !Array.isArray(given[name])) return issue;
    return { ...issue, message: `give ${name} once (it was repeated)` };
  });
}
