/**
 * What every provider (GitHub, Notion, Google Drive, Slack) implements for a sync: the documents a
 * connection can see now, and the text of the ones that are new or changed. The sync engine
 * (lib/integrations/sync.ts) compares each document's `version` with what it stored last time, so an
 * unchanged document costs neither a content request nor an embedding.
 */
export const PROVIDER_IDS = ["github", "notion", "google_drive", "slack"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** A document as the listing describes it: enough to decide whether its text must be fetched again. */
export interface DocumentRef {
  /** Stable within the connection: e.g. `issue:octo/repo#12`, `file:octo/repo:docs/a.md`, `C0123:1700000000.0001`. */
  sourceId: string;
  title: string;
  /** Where a person opens it (the provider's web page), stored as the memory's `source_url`. */
  url: string;
  /** ISO 8601: when the provider says it last changed (the memory's `updated_at` metadata). */
  updatedAt: string;
  /** Changes whenever the text changes: the provider's updated time, a blob sha, an edit timestamp. */
  version: string;
  /** Whatever the provider's `documentText` needs again (ids, the listing's own text), kept in memory only. */
  data?: unknown;
}

/** The reading side of one provider for one connection (its access token and options bound in). */
export interface ProviderReader {
  /** Every document in the connection's reach now; a document missing from it is forgotten. */
  listDocuments(): AsyncIterable<DocumentRef>;
  /** The document's text, or null when it disappeared between the listing and now. */
  documentText(ref: DocumentRef): Promise<string | null>;
}

/** Where a provider lives: the deployment's settings, defaulting to the real endpoints. */
export interface ProviderEndpoints {
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
}

/** What a provider's reader is built from. `options` were validated by the provider's `options` schema. */
export interface ReaderContext {
  accessToken: string;
  endpoints: ProviderEndpoints;
  options: Record<string, unknown>;
}

/**
 * The provider answered 429 (or Slack's `ratelimited`, GitHub's secondary limit 403 with `retry-after`):
 * the sync waits `retryAfterSeconds` and goes on.
 */
export class ProviderRateLimitedError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    message = `The provider asked to wait ${retryAfterSeconds} s (rate limit).`,
  ) {
    super(message);
    this.name = "ProviderRateLimitedError";
  }
}

/** The provider refused the access token (401, Slack's `invalid_auth` / `token_expired`): refresh it, once. */
export class ProviderUnauthorizedError extends Error {
  constructor(message = "The provider refused the access token.") {
    super(message);
    this.name = "ProviderUnauthorizedError";
  }
}

/** What revoking a connection's token at the provider needs. */
export interface RevokeContext {
  endpoints: ProviderEndpoints;
  clientId: string;
  clientSecret: string;
  accessToken: string;
}

/**
 * One provider's reading and revocation, through its official SDK client pointed at `endpoints.apiUrl`
 * (lib/integrations/providers/<provider>.ts). The OAuth flow itself is lib/integrations/oauth.ts.
 */
export interface ProviderModule {
  /** What narrows a connection's sync (`options` of POST /integrations/connections): a strict zod object. */
  options: import("zod").ZodType<Record<string, unknown>>;
  reader(context: ReaderContext): ProviderReader;
  /** Revokes the token at the provider; resolves when the provider has nothing to revoke (already gone). */
  revoke(context: RevokeContext): Promise<void>;
}

/** A response header, whatever shape the SDK keeps headers in (a `Headers`, or a plain object). */
export function headerValue(headers: unknown, name: string): string | undefined {
  if (headers && typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  if (headers && typeof headers === "object") {
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
    return entry === undefined ? undefined : String(entry[1]);
  }
  return undefined;
}

/** Retry-After in seconds (a number or an HTTP date), 1 when absent or unreadable. */
export function retryAfterSeconds(value: string | undefined): number {
  if (!value) return 1;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1 : Math.max(1, Math.ceil((date - Date.now()) / 1000));
}
