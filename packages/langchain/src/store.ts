import type { Match, Memory } from "@memory-gateway/client";
import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import { targetOf, type MemoryTarget, type Metadata, type MetadataValue } from "./documents.ts";

// How an item is kept: one memory whose content is the value as JSON (what the gateway embeds and searches),
// with metadata naming its namespace (whole, for get, and label by label, for prefix searches), its key, and a
// copy of the value's top-level scalar fields, which search filters match.
const MARKER = "langgraph.kind";
const MARKER_VALUE = "store-item";
const NAMESPACE = "langgraph.namespace";
const LABEL = (depth: number) => `langgraph.ns.${depth}`;
const KEY = "langgraph.key";
const FIELD = (name: string) => `value.${name}`;
// Set (to "true", a string, so that GET /memories can match it) on an item some of whose filterable fields were
// not copied because the metadata was full: a search with a filter on such a field refuses rather than miss it.
const PARTIAL = "langgraph.partial";
const PARTIAL_VALUE = "true";
// The API's metadata: at most 64 keys and 8 KiB as JSON (lib/memory/common/schemas.ts), names at most 128 characters.
const MAX_METADATA_KEYS = 64;
const MAX_METADATA_BYTES = 8_192;
// Fields with longer names, and strings longer than this, are not copied (and cannot be filtered on).
const MAX_FIELD_NAME = 128 - FIELD("").length;
const MAX_FILTERED_STRING = 256;
// GET /memories, which reads items back by namespace and key, takes `metadata=key:value` values of at most
// 1,000 characters (lib/memory/read/list.ts), and the whole request line must fit in Node's 16 KiB of headers
// beside the key's identity and scopes: a longer namespace or key could be stored but never read back.
const MAX_QUERY_VALUE = 1_000;
const MAX_ADDRESS_BYTES = 8_192;
// recall's top_k: a search with a query reads offset + limit matches at most.
const MAX_RECALL = 100;

// What the API refuses in a metadata name (lib/validation/strings.ts: controls, NUL among them, unpaired
// surrogates, invisible characters) and in a metadata value (NUL, unpaired surrogates).
const UNSTORABLE_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{DI}\u2800\uD800-\uDFFF]/u;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const unstorableText = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);

const utf8 = new TextEncoder();
const jsonBytes = (value: unknown) => utf8.encode(JSON.stringify(value)).length;

const isScalar = (value: unknown): value is MetadataValue =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

/** Why a field cannot be filtered on (so is not copied into the metadata), or undefined if it can. */
function unfilterable(name: string, value: unknown): string | undefined {
  // GET /memories splits `metadata=key:value` at the first colon: "value.a:b" would be read as key "value.a".
  if (name.includes(":")) return "field names containing a colon cannot be matched";
  if (name.length > MAX_FIELD_NAME) return `field names are at most ${MAX_FIELD_NAME} characters`;
  if (UNSTORABLE_NAME.test(name)) return "field names with control or invisible characters cannot be stored";
  if (!isScalar(value)) return "filters match a string, number, boolean or null";
  if (typeof value === "string" && value.length > MAX_FILTERED_STRING) {
    return `filtered strings are at most ${MAX_FILTERED_STRING} characters`;
  }
  if (typeof value === "string" && unstorableText(value)) return "the string cannot be stored";
  return undefined;
}

const isFilterable = (name: string, value: unknown): value is MetadataValue => !unfilterable(name, value);

/** Why an item at this address could not be read back (so is not stored), or undefined if it can. */
function addressProblem(namespace: string[], key: string): string | undefined {
  const whole = JSON.stringify(namespace);
  if (whole.length > MAX_QUERY_VALUE) return `its namespace is ${whole.length} characters as JSON`;
  if (key.length > MAX_QUERY_VALUE) return `its key is ${key.length} characters`;
  if (encodeURIComponent(whole).length + encodeURIComponent(key).length > MAX_ADDRESS_BYTES) {
    return `its namespace and key are over ${MAX_ADDRESS_BYTES} bytes in a URL`;
  }
  return undefined;
}

/**
 * The item's metadata: the store's own keys, then the value's filterable fields in their order until the next
 * would pass the API's 64 keys or 8 KiB (room for PARTIAL is kept); from there on none is copied, and PARTIAL
 * is set. Which fields an item's metadata holds is thus the record of which were copied.
 */
function itemMetadata(namespace: string[], key: string, value: Record<string, unknown>): Metadata {
  const own: Metadata = {
    [MARKER]: MARKER_VALUE,
    [NAMESPACE]: JSON.stringify(namespace),
    ...Object.fromEntries(namespace.map((label, depth) => [LABEL(depth), label])),
    [KEY]: key,
  };
  let keys = Object.keys(own).length + 1;
  let bytes = jsonBytes({ ...own, [PARTIAL]: PARTIAL_VALUE });
  if (keys > MAX_METADATA_KEYS || bytes > MAX_METADATA_BYTES) {
    throw new Error(
      `MemoryGatewayStore cannot store an item in a namespace of ${namespace.length} labels with this key: ` +
        `the namespace and key alone pass the gateway's metadata limits (${MAX_METADATA_KEYS} keys, ` +
        `${MAX_METADATA_BYTES} bytes as JSON)`,
    );
  }
  const fields: Metadata = {};
  let partial = false;
  for (const [name, field] of Object.entries(value)) {
    if (!isFilterable(name, field)) continue;
    const entryBytes = jsonBytes(FIELD(name)) + jsonBytes(field) + 2; // ,"value.name":field
    if (keys + 1 > MAX_METADATA_KEYS || bytes + entryBytes > MAX_METADATA_BYTES) {
      partial = true;
      break;
    }
    keys += 1;
    bytes += entryBytes;
    fields[FIELD(name)] = field;
  }
  return { ...own, ...(partial ? { [PARTIAL]: PARTIAL_VALUE } : {}), ...fields };
}

function itemAddress(namespace: string[], key: string): Metadata {
  return { [MARKER]: MARKER_VALUE, [NAMESPACE]: JSON.stringify(namespace), [KEY]: key };
}

function prefixMetadata(prefix: string[]): Metadata {
  const labels = prefix.flatMap((label, depth) => (label === "*" ? [] : [[LABEL(depth), label]]));
  return { [MARKER]: MARKER_VALUE, ...Object.fromEntries(labels) };
}

/** A search filter as exact values of top-level fields: the gateway matches exact values, not comparisons. */
function filterValues(filter: Record<string, unknown> = {}): Metadata {
  return Object.fromEntries(
    Object.entries(filter).map(([name, condition]) => {
      const value = exactValueOf(condition);
      const problem = unfilterable(name, value);
      if (problem) {
        throw new Error(
          `MemoryGatewayStore cannot filter on "${name}": ${problem} (filters match a top-level field of the ` +
            `value exactly, with a string, number, boolean or null)`,
        );
      }
      return [name, value as MetadataValue];
    }),
  );
}

const asFieldMetadata = (values: Metadata): Metadata =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [FIELD(name), value]));

const isOperators = (condition: unknown): condition is Record<string, unknown> =>
  typeof condition === "object" && condition !== null && Object.keys(condition).some((name) => name.startsWith("$"));

function exactValueOf(condition: unknown): unknown {
  if (!isOperators(condition)) return condition;
  if (Object.keys(condition).join() === "$eq") return condition.$eq;
  throw new Error(
    "MemoryGatewayStore filters match exact values ({ field: value } or { field: { $eq: value } }); " +
      "$ne, $gt, $gte, $lt and $lte are not supported",
  );
}

/** `metadata=key:value` query parameters of GET /memories, which match string values only. */
const asQuery = (metadata: Metadata) =>
  Object.entries(metadata).flatMap(([name, value]) => (typeof value === "string" ? [`${name}:${value}`] : []));

function namespaceOf(metadata: Record<string, unknown>): string[] {
  const namespace = metadata[NAMESPACE];
  return typeof namespace === "string" ? JSON.parse(namespace) : [];
}

function matchesCondition(namespace: string[], { matchType, path }: MatchCondition): boolean {
  if (path.length > namespace.length) return false;
  const labels = matchType === "prefix" ? namespace.slice(0, path.length) : namespace.slice(-path.length);
  return path.every((label, index) => label === "*" || label === labels[index]);
}

export interface MemoryGatewayStoreOptions extends MemoryTarget {
  /** How many memories one read of GET /memories asks for (1 to 100); default 100. */
  pageSize?: number;
}

/**
 * LangGraph's long-term memory store (BaseStore) over a Memory Gateway namespace: each item is a memory whose
 * content is the value as JSON, so `search` with a `query` is the gateway's hybrid search of words and meaning
 * over the values. `put` stores or updates (same memory id, a new version in its history), `delete` forgets.
 *
 * Not supported, with an error saying so: filters other than exact values of top-level fields, and `put`'s
 * `index` (the gateway indexes every value whole). `listNamespaces` and `search` without a query read the
 * matching memories page by page, newest first.
 */
export class MemoryGatewayStore extends BaseStore {
  private readonly target: MemoryTarget;
  private readonly pageSize: number;

  constructor({ pageSize = 100, ...target }: MemoryGatewayStoreOptions) {
    super();
    this.target = target;
    this.pageSize = pageSize;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    // One after another, in order: a get after a put of the same batch sees what the put stored.
    for (const operation of operations) results.push(await this.run(operation));
    // The results line up with the operations by construction; TypeScript cannot follow a tuple through a loop.
    return results as OperationResults<Op>;
  }

  private run(operation: Operation): Promise<unknown> {
    if ("value" in operation) return this.putItem(operation);
    if ("key" in operation) return this.getItem(operation);
    if ("namespacePrefix" in operation) return this.searchItems(operation);
    return this.listNamespacesOf(operation);
  }

  /** The newest memory holding the item (two puts racing for a new key may both store one: the later wins). */
  private async findMemory(namespace: string[], key: string): Promise<Memory | undefined> {
    const page = await this.target.client.memories.list({
      ...this.listFilters(itemAddress(namespace, key)),
      page_size: 1,
    });
    return page.data[0];
  }

  private listFilters(metadata: Metadata) {
    const { namespace_id, identity_id, scopes = {} } = targetOf(this.target);
    const scope = Object.entries(scopes).map(([name, value]) => `${name}:${value}`);
    return { namespace_id, identity_id, scope, metadata: asQuery(metadata) };
  }

  private async getItem({ namespace, key }: GetOperation): Promise<Item | null> {
    // put stores no item that could not be read back (and GET /memories would refuse the query).
    if (addressProblem(namespace, key)) return null;
    const memory = await this.findMemory(namespace, key);
    return memory ? this.toItem(memory) : null;
  }

  private async putItem({ namespace, key, value, index }: PutOperation): Promise<void> {
    const problem = addressProblem(namespace, key);
    if (value === null) {
      // Within the store's identity and scopes, as every forget selector given must match (docs/api.md).
      if (problem) return;
      await this.target.client.forget({ ...targetOf(this.target), metadata: itemAddress(namespace, key) });
      return;
    }
    if (index !== undefined) {
      throw new Error("MemoryGatewayStore does not take put's `index`: the gateway indexes every value whole");
    }
    if (problem) {
      throw new Error(
        `MemoryGatewayStore cannot store this item: ${problem}, and GET /memories, which reads items back, ` +
          `takes metadata values of at most ${MAX_QUERY_VALUE} characters (and a URL under Node's header limit)`,
      );
    }
    const content = JSON.stringify(value);
    const metadata = itemMetadata(namespace, key, value);
    // occurred_at is the item's updatedAt: recall's matches carry it, not updated_at.
    const occurred_at = new Date().toISOString();
    const existing = await this.findMemory(namespace, key);
    if (existing) {
      await this.target.client.memories.update(existing.id, { content, metadata, occurred_at });
    } else {
      // Two keys may hold equal values: without allow_duplicate the second would answer the first's memory.
      await this.target.client.remember({
        ...targetOf(this.target),
        content,
        metadata,
        occurred_at,
        allow_duplicate: true,
      });
    }
  }

  private async searchItems({ namespacePrefix, filter, limit = 10, offset = 0, query }: SearchOperation) {
    const values = filterValues(filter);
    const metadata = { ...prefixMetadata(namespacePrefix), ...asFieldMetadata(values) };
    if (query !== undefined && offset + limit > MAX_RECALL) {
      throw new RangeError(
        `MemoryGatewayStore searches with a query read at most ${MAX_RECALL} items (offset + limit)`,
      );
    }
    await this.refuseUncopiedFilters(namespacePrefix, values);
    if (query !== undefined) {
      const matches = await this.target.client.recall({
        ...targetOf(this.target),
        query,
        top_k: offset + limit,
        metadata,
      });
      const items = await Promise.all(matches.map((match) => this.matchToItem(match)));
      return items.slice(offset);
    }
    // GET /memories matches string values only: the other filters are checked on the values as they are read.
    const others = Object.entries(metadata).filter(([, value]) => typeof value !== "string");
    const found: SearchItem[] = [];
    let skipped = 0;
    for await (const memory of this.target.client.memories.iterate({
      ...this.listFilters(metadata),
      page_size: this.pageSize,
    })) {
      if (!others.every(([name, value]) => memory.metadata[name] === value)) continue;
      if (skipped++ < offset) continue;
      found.push(this.toItem(memory));
      if (found.length === limit) break;
    }
    return found;
  }

  /**
   * Throws if an item under the prefix holds a filtered field that its metadata did not have room for (see
   * itemMetadata): the gateway matches the metadata, so the search would leave that item out without a word.
   * Reads only the items marked PARTIAL (usually none: one request).
   */
  private async refuseUncopiedFilters(namespacePrefix: string[], values: Metadata): Promise<void> {
    const names = Object.keys(values);
    if (names.length === 0) return;
    for await (const memory of this.target.client.memories.iterate({
      ...this.listFilters({ ...prefixMetadata(namespacePrefix), [PARTIAL]: PARTIAL_VALUE }),
      page_size: this.pageSize,
    })) {
      const value = parsedObject(memory.content) ?? {};
      const uncopied = names.find(
        (name) => Object.hasOwn(value, name) && isFilterable(name, value[name]) && !(FIELD(name) in memory.metadata),
      );
      if (uncopied !== undefined) {
        throw new Error(
          `MemoryGatewayStore cannot filter on "${uncopied}" under ${JSON.stringify(namespacePrefix)}: the item ` +
            `${JSON.stringify(namespaceOf(memory.metadata))} "${String(memory.metadata[KEY])}" holds it, but its ` +
            `value has more fields than the gateway's metadata takes (${MAX_METADATA_KEYS} keys, ` +
            `${MAX_METADATA_BYTES} bytes as JSON), so it was not copied and a filter would miss that item ` +
            "(fields are copied in the value's order: put the fields to filter on first)",
        );
      }
    }
  }

  private async listNamespacesOf({ matchConditions = [], maxDepth, limit, offset }: ListNamespacesOperation) {
    const prefix = matchConditions.find((condition) => condition.matchType === "prefix")?.path ?? [];
    const seen = new Map<string, string[]>();
    for await (const memory of this.target.client.memories.iterate({
      ...this.listFilters(prefixMetadata(prefix)),
      page_size: this.pageSize,
    })) {
      const namespace = namespaceOf(memory.metadata);
      if (!matchConditions.every((condition) => matchesCondition(namespace, condition))) continue;
      const listed = maxDepth === undefined ? namespace : namespace.slice(0, maxDepth);
      seen.set(JSON.stringify(listed), listed);
    }
    const namespaces = [...seen.values()].sort((a, b) => a.join("\u0000").localeCompare(b.join("\u0000")));
    return namespaces.slice(offset, offset + limit);
  }

  private toItem(memory: Memory): Item {
    return {
      namespace: namespaceOf(memory.metadata),
      key: String(memory.metadata[KEY]),
      value: JSON.parse(memory.content),
      createdAt: new Date(memory.created_at),
      updatedAt: new Date(memory.occurred_at),
    };
  }

  /** A match's content is its best chunk: for a value long enough to be split, the memory is read whole. */
  private async matchToItem(match: Match): Promise<SearchItem> {
    const value =
      parsedObject(match.content) ?? JSON.parse((await this.target.client.memories.get(match.memory_id)).content);
    return {
      namespace: namespaceOf(match.metadata),
      key: String(match.metadata[KEY]),
      value,
      createdAt: new Date(match.created_at),
      updatedAt: new Date(match.occurred_at),
      score: match.score,
    };
  }
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
