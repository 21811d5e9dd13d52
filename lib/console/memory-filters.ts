// The memory explorer's filters as its URL carries them (bookmarkable):
// `?identity=…&scopes=…&metadata=…&session=…&q=…&cursor=…`,
// turned into the query of GET /memories (the same operation and validation) and the body of recall.
import type { ErrorDetail } from "@/lib/errors";
import { ListMemoriesQuery } from "@/lib/memory/read/list";
import { issueDetails } from "@/lib/errors";
import { searchParam, type SearchParams } from "./search-params";

export interface ExplorerFilters {
  /** Search text: set, the page shows recall's matches instead of the list. */
  q: string;
  identity: string;
  /** `key=value` pairs separated by commas, as the keys page takes scopes. */
  scopes: string;
  metadata: string;
  /** A conversation's session_id: set, the page is that conversation's transcript (or search within it). */
  session: string;
  cursor: string;
}

/** The first value of each filter in the URL (a hand-edited URL may repeat one). */
export function explorerFilters(searchParams: SearchParams): ExplorerFilters {
  const first = (name: string) => searchParam(searchParams, name) ?? "";
  return {
    q: first("q").trim(),
    identity: first("identity").trim(),
    scopes: first("scopes"),
    metadata: first("metadata"),
    session: first("session").trim(),
    cursor: first("cursor"),
  };
}

/** The explorer's URL with these filters (and a cursor), empty ones left out. */
export function explorerHref(base: string, filters: Partial<ExplorerFilters>): string {
  const params = new URLSearchParams();
  for (const name of ["q", "identity", "scopes", "metadata", "session", "cursor"] as const) {
    const value = filters[name];
    if (value) params.set(name, value);
  }
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/** Which field of the page a problem is about, named as the page names it. */
const FIELD_LABELS: Record<string, string> = {
  identity_id: "Identity",
  scope: "Scopes",
  metadata: "Metadata",
  session_id: "Conversation",
  cursor: "Page",
  query: "Search",
};

/** A problem with the filters as the page says it: `Scopes: "team" is not of the form key=value`. */
export function filterMessages(details: readonly ErrorDetail[]): string[] {
  return details.map((detail) => {
    const [, name] = detail.field.split(".");
    if (name === "cursor")
      return "This page's link is out of date or was changed: start again from the newest memories.";
    const label = FIELD_LABELS[name] ?? "Filters";
    return `${label}: ${detail.message.replace(/key:value/g, "key=value")}`;
  });
}

export type ListingInput =
  { ok: true; query: Record<string, string | string[]>; parsed: ListMemoriesQuery } | { ok: false; messages: string[] };

/**
 * The GET /memories query of a namespace's explorer with these filters, checked with that operation's own
 * schema (so the page says what is wrong instead of failing). Pairs are typed `key=value` here, as
 * everywhere in the console; the API spells them `key:value`.
 */
export function listingInput(namespaceId: string, filters: ExplorerFilters, pageSize = 20): ListingInput {
  const messages: string[] = [];
  const pairs = (text: string, label: string) =>
    text
      .split(",")
      .map((pair) => pair.trim())
      .filter(Boolean)
      .flatMap((pair) => {
        const eq = pair.indexOf("=");
        if (eq <= 0) {
          messages.push(`${label}: "${pair}" is not of the form key=value`);
          return [];
        }
        return [`${pair.slice(0, eq).trim()}:${pair.slice(eq + 1).trim()}`];
      });
  const query: Record<string, string | string[]> = { namespace_id: namespaceId, page_size: String(pageSize) };
  const scope = pairs(filters.scopes, "Scopes");
  const metadata = pairs(filters.metadata, "Metadata");
  if (filters.identity) query.identity_id = filters.identity;
  if (filters.session) query.session_id = filters.session;
  if (scope.length) query.scope = scope;
  if (metadata.length) query.metadata = metadata;
  if (filters.cursor) query.cursor = filters.cursor;
  if (messages.length) return { ok: false, messages };
  const parsed = ListMemoriesQuery.safeParse(query);
  if (!parsed.success) return { ok: false, messages: filterMessages(issueDetails(parsed.error.issues, "query")) };
  return { ok: true, query, parsed: parsed.data };
}
