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
// Metadata names are at most 128 characters, and all of it at most 8 KiB as JSON: fields with longer names,
// and strings longer than this, are not copied (and cannot be filtered on).
const MAX_FIELD_NAME = 128 - FIELD("").length;
const MAX_FILTERED_STRING = 256;
// recall's top_k: a search with a query reads offset + limit matches at most.
const MAX_RECALL = 100;

const isScalar = (value: unknown): value is MetadataValue =>
  value === null || ["string", "number", "boolean"].includes(typeof value);
const isFilterable = (name: string, value: unknown): value is MetadataValue =>
  name.length <= MAX_FIELD_NAME &&
  isScalar(value) &&
  (typeof value !== "string" || value.length <= MAX_FILTERED_STRING);

function itemMetadata(namespace: string[], key: string, value: Record<string, unknown>): Metadata {
  const fields = Object.entries(value).filter(([name, field]) => isFilterable(name, field));
  return {
    [MARKER]: MARKER_VALUE,
    [NAMESPACE]: JSON.stringify(namespace),
    ...Object.fromEntries(namespace.map((label, depth) => [LABEL(depth), label])),
    [KEY]: key,
    ...Object.fromEntries(fields.map(([name, field]) => [FIELD(name), field])),
  };
}

function itemAddress(namespace: string[], key: string): Metadata {
  return { [MARKER]: MARKER_VALUE, [NAMESPACE]: JSON.stringify(namespace), [KEY]: key };
}

function prefixMetadata(prefix: string[]): Metadata {
  const labels = prefix.flatMap((label, depth) => (label === "*" ? [] : [[LABEL(depth), label]]));
  return { [MARKER]: MARKER_VALUE, ...Object.fromEntries(labels) };
}

/** A search filter as exact metadata values: the gateway matches exact values, not comparisons. */
function filterMetadata(filter: Record<string, unknown> = {}): Metadata {
  return Object.fromEntries(
    Object.entries(filter).map(([name, condition]) => {
      const value = exactValueOf(condition);
      if (!isFilterable(name, value)) {
        throw new Error(
          `MemoryGatewayStore cannot filter on "${name}": filters match a top-level field of the value exactly, ` +
            `with a string, number, boolean or null (strings up to ${MAX_FILTERED_STRING} characters)`,
        );
      }
      return [FIELD(name), value];
    }),
  );
}

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
    const memory = await this.findMemory(namespace, key);
    return memory ? this.toItem(memory) : null;
  }

  private async putItem({ namespace, key, value, index }: PutOperation): Promise<void> {
    if (value === null) {
      await this.target.client.forget({ ...targetOf(this.target), metadata: itemAddress(namespace, key) });
      return;
    }
    if (index !== undefined) {
      throw new Error("MemoryGatewayStore does not take put's `index`: the gateway indexes every value whole");
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
    const metadata = { ...prefixMetadata(namespacePrefix), ...filterMetadata(filter) };
    if (query !== undefined) {
      if (offset + limit > MAX_RECALL) {
        throw new RangeError(
          `MemoryGatewayStore searches with a query read at most ${MAX_RECALL} items (offset + limit)`,
        );
      }
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
