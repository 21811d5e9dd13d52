import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys/api-key-principal";
import { InvalidError } from "@/lib/errors";
import { bodyFieldName, describeError } from "@/lib/http/errors";
import { ForgetBody } from "@/lib/memory/forget/forget-body";
import { ENTITY_KINDS } from "@/lib/memory/common/entity-kinds";
import { EntitiesFilter } from "@/lib/memory/common/entity-ref";
import { EntityIdParams, getEntity } from "@/lib/memory/entities/get-entity";
import { ListEntitiesQuery } from "@/lib/memory/entities/list-entities";
import { AskBody, IdentityId, LIMITS, RecallBody, RememberBody } from "@/lib/memory/common/schemas";
import { IdentityProfileQuery } from "@/lib/memory/read/identity-profile";
import { CreateDocumentBody } from "@/lib/documents/schemas";
import { unknownFields } from "@/lib/validation/unknown-fields";
import { operations } from "@/lib/operations/catalogue";
import type { Operation } from "@/lib/operations/operation";
import { assertOperationAllowed, operationAllowed, runOperation } from "@/lib/operations/run";

export interface McpContext {
  key: ApiKeyPrincipal;
  namespace: { id: string; name: string; description: string | null };
  /** The client's `X-Identity-Id` header: the identity of calls that do not name one. */
  identityHeader?: string;
  /** The JSON-RPC method this server answers (the endpoint is stateless: one message per server). */
  method?: string;
}

/** The tool's arguments are the operation's body without the target: the endpoint's URL names the namespace. */
function withoutTarget<Shape extends { namespace_id: unknown; external_reference_id: unknown }>(shape: Shape) {
  const { namespace_id: _namespaceId, external_reference_id: _externalReferenceId, ...rest } = shape;
  return rest;
}

/**
 * A tool's arguments, with nothing else allowed: an argument the tool does not have (a misspelling, or
 * `all_namespaces` on forget) is refused rather than dropped, so a call never does less, or more, than it says.
 */
function toolArguments<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject(shape, { error: unknownFields(ENDPOINT_NAMES_THE_NAMESPACE) });
}

const ENDPOINT_NAMES_THE_NAMESPACE = Object.fromEntries(
  ["namespace_id", "external_reference_id", "namespace"].map((key) => [
    key,
    "this endpoint's URL names the namespace: leave it out",
  ]),
);

function instructions(namespace: McpContext["namespace"]): string {
  return [
    `This server is the long-term memory of the namespace "${namespace.name}"` +
      `${namespace.description ? ` (${namespace.description})` : ""}.`,
    "Before answering about the user, their preferences, earlier conversations or anything you may have been told " +
      "before, call `recall` with a short question, or `ask` for an answer that cites the memories it used.",
    "When you learn a durable fact worth keeping (a preference, a decision, a detail about a person or project), " +
      "call `remember` with one self-contained statement: it must make sense when read alone, months later. " +
      "To keep a conversation itself, call `remember` with its session_id and messages.",
    "Pass `identity_id` for the person a memory is about or for, so that recall and forget can be limited to them; " +
      "without one, the client's X-Identity-Id header applies.",
    "For what holds of a person now (their current facts, and what changed), call `get_profile`.",
    "To learn what the memories are about (people, places, organizations, works, events, dates), call " +
      "`list_entities`; for everything known about one of them, `recall_by_entity`.",
    "To keep a web page or document the user points to, call `add_document` with its URL.",
    "`forget` deletes for good: call it only when the user asks for something to be forgotten.",
  ].join("\n");
}

/**
 * An MCP server for one namespace, for one request (stateless): the tools run the catalogue's operations
 * with the caller's key. A failure is a tool error result: the error's code and message, as the API has them.
 */
export function memoryMcpServer(context: McpContext): McpServer {
  const server = new McpServer(
    { name: "memory-gateway", version: "0.1.0" },
    { instructions: instructions(context.namespace) },
  );

  /**
   * Runs a tool's operation: its arguments are the body, or for a read (`query` given) the query string, with
   * the path's `params`.
   */
  const run = async (
    operation: Operation,
    args: Record<string, unknown>,
    query?: Record<string, string>,
    params?: Record<string, string>,
  ): Promise<CallToolResult> => {
    const identityId = args.identity_id ?? context.identityHeader;
    const body = { ...args, namespace_id: context.namespace.id, identity_id: identityId };
    try {
      const input = query ? { query, params } : { body: async () => body };
      const { data, pagination } = await runOperation(operation, context.key, { ...input, transport: "mcp" });
      const result = pagination ? { data, pagination } : data;
      return { content: [{ type: "text", text: JSON.stringify(result, null, 2) }] };
    } catch (error) {
      return toolError(error);
    }
  };

  // The batch form is left out: an agent stores a statement, or the turns of a conversation.
  const { memories: _batch, ...rememberFields } = withoutTarget(RememberBody.shape);
  const rememberTool = server.registerTool(
    "remember",
    {
      title: "Remember",
      description:
        "Store one memory in this namespace: `content`, a self-contained statement " +
        `(at most ${LIMITS.contentChars.toLocaleString("en")} characters; long text is split into chunks); ` +
        "or a conversation: `session_id` and `messages` [{role, content, occurred_at?, metadata?}] " +
        `(1 to ${LIMITS.conversationMessages}), each message a memory at the next positions of that session ` +
        "(a later call with the same session_id appends). It can be recalled as soon as this returns. " +
        "occurred_at (ISO 8601) is when it happened (default: now); expires_at or ttl_seconds make it expire. " +
        `Optional metadata (flat, at most ${LIMITS.metadataKeys} keys), scopes and identity_id are stored with it ` +
        "and can filter recall and forget. Returns the stored memory, or the list of a conversation's memories.",
      inputSchema: toolArguments(rememberFields),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => run(operations.remember, args),
  );
  const conversationOptions =
    `context: n (0 to ${LIMITS.contextTurns}, default 0) returns beside each match of a conversation turn ` +
    "the n turns before and after it in its session; filter by session_id, or by when it happened with " +
    "occurred_after and occurred_before (ISO 8601).";
  const recallTool = server.registerTool(
    "recall",
    {
      title: "Recall",
      description:
        "Find the memories that match a query (words and meaning), best first, each with a score from 0 to 1 " +
        "and, for a conversation turn, its session_id, position, role and occurred_at. " +
        `top_k 1 to ${LIMITS.topK} (default 10); filter by identity_id, scopes or exact metadata values. ` +
        `${conversationOptions} Query at most ${LIMITS.queryChars.toLocaleString("en")} characters.`,
      inputSchema: toolArguments(withoutTarget(RecallBody.shape)),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => run(operations.recall, args),
  );
  // A tool of its own rather than only recall's `entities` argument: "what do we know about Caroline?" has no
  // query beyond the name, and an agent finds a tool named for it; it runs recall, with recall's permission.
  const {
    query: recallQuery,
    entities: _entities,
    min_score: _minScore,
    ...byEntityFields
  } = withoutTarget(RecallBody.shape);
  const recallByEntityTool = server.registerTool(
    "recall_by_entity",
    {
      title: "Recall by entity",
      description:
        "The memories that mention one entity (a person, organization, place, work, event or date), best first: " +
        '`entity` is its id (from list_entities) or its name as written ("Caroline", "Grand Canyon", ' +
        '"May 2023"), matched as memories are (case, possessives, short forms of a speaker\'s name). ' +
        "With `query`, the memories about that entity that match it; without, those most about the entity. " +
        `top_k 1 to ${LIMITS.topK} (default 10); filter by identity_id or scopes. ${conversationOptions}`,
      inputSchema: toolArguments({
        entity: EntitiesFilter.element.describe("the entity's id or name"),
        query: recallQuery.optional().describe("what to look for among the entity's memories"),
        ...byEntityFields,
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ entity, query, ...args }) =>
      run(operations.recall, {
        ...args,
        entities: [entity],
        // Without a query the entity's name is the query (an id says nothing of what its memories say), and
        // every memory naming it may be listed: the relevance floor would drop those that say "Mel" where the
        // name is "Melanie".
        query: query ?? (await nameOfEntity(entity)),
        ...(query === undefined ? { min_score: 0 } : {}),
      }),
  );
  /** The name of the entity of this namespace an id names, as the key may read it; anything else as it is. */
  const nameOfEntity = async (entity: string): Promise<string> => {
    if (!EntityIdParams.safeParse({ id: entity }).success) return entity;
    try {
      assertOperationAllowed(operations.getEntity, context.key);
      const found = await getEntity(context.key, entity);
      return found.namespace_id === context.namespace.id ? found.name : entity;
    } catch {
      return entity; // the recall that follows answers for an entity the key may not read
    }
  };
  const listEntitiesTool = server.registerTool(
    "list_entities",
    {
      title: "List entities",
      description:
        "The entities this namespace's memories mention (people, organizations, places, works, events, dates), " +
        "the most mentioned first, each with its id, kind, name, aliases, how many memories mention it and " +
        `its first and last mention. Filter by kind (${ENTITY_KINDS.join(", ")}) or by q, a part of the name. ` +
        "page_size 1 to 100 (default 20); pass pagination.nextCursor as cursor for the next page.",
      inputSchema: toolArguments({
        kind: ListEntitiesQuery.shape.kind,
        q: ListEntitiesQuery.shape.q,
        cursor: ListEntitiesQuery.shape.cursor,
        page_size: z
          .number({ error: "must be a whole number from 1 to 100" })
          .int("must be a whole number from 1 to 100")
          .min(1, "must be a whole number from 1 to 100")
          .max(100, "must be a whole number from 1 to 100")
          .optional(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      const query = Object.fromEntries(
        Object.entries({ ...args, namespace_id: context.namespace.id })
          .filter(([, value]) => value !== undefined)
          .map(([name, value]) => [name, String(value)]),
      );
      return run(operations.listEntities, {}, query);
    },
  );
  const profileTool = server.registerTool(
    "get_profile",
    {
      title: "Get a profile",
      description:
        "What holds of a person (identity_id, or the client's X-Identity-Id header): their current facts, one " +
        "per slot, each with since when (what replaced what is in `changes`), their most recent memories and " +
        "the entities they talk about most. as_of (ISO 8601) gives the profile as it was then.",
      inputSchema: toolArguments({
        identity_id: IdentityId.optional().describe("whose profile; default: the X-Identity-Id header"),
        as_of: IdentityProfileQuery.shape.as_of,
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ identity_id, as_of }) => {
      const id = identity_id ?? context.identityHeader;
      if (id === undefined) return toolError(new InvalidError("Name whose profile: identity_id, or X-Identity-Id."));
      const query = { namespace_id: context.namespace.id, ...(as_of === undefined ? {} : { as_of }) };
      return run(operations.identityProfile, {}, query, { id });
    },
  );
  const askTool = server.registerTool(
    "ask",
    {
      title: "Ask",
      description:
        "Answer a question from this namespace's memories, citing them as [1], [2] " +
        "(the numbers of the returned sources, each with the day it happened and who said it). " +
        "When nothing in memory answers it, says so and returns no sources. " +
        `top_k 1 to ${LIMITS.askTopK} memories (default 5). ${conversationOptions}`,
      inputSchema: toolArguments(withoutTarget(AskBody.shape)),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => run(operations.ask, args),
  );
  const { all_namespaces: _allNamespaces, ...forgetFields } = withoutTarget(ForgetBody.shape);
  const forgetTool = server.registerTool(
    "forget",
    {
      title: "Forget",
      description:
        "Delete memories for good (irreversible): those matching every selector given — " +
        `memory_ids (at most ${LIMITS.forgetIds.toLocaleString("en")}), identity_id, scopes, metadata — ` +
        "or all: true for the whole namespace. At least one selector is required. " +
        "Returns how many were deleted, their ids and the erasure receipt's id (erasure_id).",
      // One namespace's endpoint: forgetting across every namespace (all_namespaces) is the HTTP API's.
      inputSchema: toolArguments(forgetFields),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) => run(operations.forget, args),
  );
  // A URL only: an agent has links to hand, not files (those go through the API or the console).
  const { url, title, metadata, scopes, identity_id } = withoutTarget(CreateDocumentBody.shape);
  const addDocumentTool = server.registerTool(
    "add_document",
    {
      title: "Add a document",
      description:
        "Fetch a web page or file by its https URL (PDF, Word, HTML, Markdown, text, PNG/JPEG) and store its " +
        "passages as memories of this namespace, each with its page and section, so that recall and ask can " +
        "cite them. Processing runs in the background: the document is returned queued, with its id; it is " +
        "`ready` within seconds to minutes, or `failed` with its error. Optional title, metadata, scopes, identity_id.",
      inputSchema: toolArguments({ url: url.unwrap(), title, metadata, scopes, identity_id }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) => run(operations.addDocument, args),
  );
  // The list offers only the tools this key or connection may run here (a read-only one sees recall and
  // ask). A call to another one (a client's list from before its access changed) still reaches the
  // operation's refusal, which says what the key or connection lacks, rather than "tool disabled".
  if (context.method === "tools/list") {
    const offered: [RegisteredTool, Operation][] = [
      [rememberTool, operations.remember],
      [recallTool, operations.recall],
      [recallByEntityTool, operations.recall],
      [listEntitiesTool, operations.listEntities],
      [askTool, operations.ask],
      [profileTool, operations.identityProfile],
      [forgetTool, operations.forget],
      [addDocumentTool, operations.addDocument],
    ];
    for (const [tool, operation] of offered) if (!operationAllowed(operation, context.key)) tool.disable();
  }
  return server;
}

/** A failure as a tool's error result: the error's code and message, as the API has them. */
function toolError(error: unknown): CallToolResult {
  const failure = describeError(error);
  const details = failure.details?.map((d) => `\n- ${bodyFieldName(d.field)}: ${d.message}`).join("") ?? "";
  // A tool call has no headers: a refusal for load (429, 503) says in its text when to call again.
  const retryAfter = failure.headers?.["retry-after"];
  const retry = retryAfter ? ` Retry after ${retryAfter} s.` : "";
  return { isError: true, content: [{ type: "text", text: `${failure.code}: ${failure.message}${retry}${details}` }] };
}
