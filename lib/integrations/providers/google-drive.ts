/**
 * Google Drive: Google Docs (exported as plain text), plain-text and Markdown files, of one folder and its
 * subfolders or, without a folder, of everything the token sees, read through `@googleapis/drive` (the
 * per-API package of `googleapis`) pointed at `endpoints.apiUrl` as its rootUrl.
 */
import { auth as googleAuth, drive, type drive_v3 } from "@googleapis/drive";
import { z } from "zod";
import { UpstreamError } from "@/lib/errors";
import { hasVisibleText } from "@/lib/validation/strings";
import {
  ProviderRateLimitedError,
  ProviderUnauthorizedError,
  type DocumentRef,
  type ProviderModule,
  type ReaderContext,
  type RevokeContext,
  headerValue,
  retryAfterSeconds,
} from "@/lib/integrations/provider";

const GOOGLE_DOC = "application/vnd.google-apps.document";
const FOLDER = "application/vnd.google-apps.folder";
const TEXT_TYPES = ["text/plain", "text/markdown", "text/x-markdown"];
/** Markdown often uploads without a type Drive knows: such a file counts when its name says Markdown. */
const UNTYPED = "application/octet-stream";
const MARKDOWN_NAME = /\.(md|markdown)$/i;
const FILE_FIELDS = "id, name, mimeType, modifiedTime, webViewLink, md5Checksum, size, trashed";
/**
 * A stored file larger than the largest body the memory API accepts (5 MiB) is a log or an export, not a
 * note: it is left out rather than downloaded. (Google caps a Doc's export at 10 MB itself.)
 */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const PAGE_SIZE = 100;

const options = z.strictObject({
  folder_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "a Drive folder id (letters, digits, - and _)")
    .max(200)
    .optional(),
});

/**
 * The SDK keeps only the origin of a client-wide rootUrl (it resolves each method's absolute path against
 * it), so an API URL with a path (a proxy, the tests' fake) must also reach every call as a method option.
 */
function rootUrlOf(apiUrl: string): string {
  return apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/`;
}

function driveClient(apiUrl: string, accessToken: string): drive_v3.Drive {
  const client = new googleAuth.OAuth2();
  // Only an access token: the sync engine refreshes it (lib/integrations/oauth.ts), the SDK must not try.
  client.setCredentials({ access_token: accessToken });
  return drive({
    version: "v3",
    rootUrl: rootUrlOf(apiUrl),
    auth: client,
    // No SDK retries: the sync engine waits out a 429's Retry-After itself (ProviderRateLimitedError).
    retry: false,
  });
}

interface GoogleErrorShape {
  status?: number;
  response?: { status?: number; headers?: unknown; data?: unknown };
}

/** Google's error reasons (`{error: {errors: [{reason}]}}`) of a failed response. */
function errorReasons(data: unknown): string[] {
  const body = typeof data === "string" ? safeJson(data) : data;
  const errors = (body as { error?: { errors?: { reason?: unknown }[] } } | null)?.error?.errors ?? [];
  return errors.map((entry) => String(entry.reason ?? ""));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function statusOf(error: unknown): number | undefined {
  const shape = error as GoogleErrorShape | null;
  return shape?.response?.status ?? shape?.status;
}

/** Turns the SDK's errors the sync engine acts on into the provider-neutral ones. */
async function mapDriveErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const status = statusOf(error);
    const response = (error as GoogleErrorShape | null)?.response;
    const reasons = errorReasons(response?.data);
    const rateLimited =
      status === 429 ||
      (status === 403 &&
        reasons.some((reason) => reason === "rateLimitExceeded" || reason === "userRateLimitExceeded"));
    if (rateLimited)
      throw new ProviderRateLimitedError(retryAfterSeconds(headerValue(response?.headers, "retry-after")));
    if (status === 401) throw new ProviderUnauthorizedError("Google Drive refused the access token.");
    throw error;
  }
}

function quoted(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function isDocument(file: drive_v3.Schema$File): boolean {
  if (file.mimeType === GOOGLE_DOC || TEXT_TYPES.includes(file.mimeType ?? "")) return true;
  return file.mimeType === UNTYPED && MARKDOWN_NAME.test(file.name ?? "");
}

class GoogleDriveReader {
  constructor(
    private readonly client: drive_v3.Drive,
    private readonly rootUrl: string,
    private readonly folderId: string | undefined,
  ) {}

  async *listDocuments(): AsyncIterable<DocumentRef> {
    const documentTypes = [GOOGLE_DOC, ...TEXT_TYPES, UNTYPED].map((type) => `mimeType = ${quoted(type)}`);
    if (!this.folderId) {
      yield* this.listQuery(`trashed = false and (${documentTypes.join(" or ")})`);
      return;
    }
    // The chosen folder and every folder below it, each listed once even if Drive links it twice; a file
    // with several parents among them is one document.
    const typeFilter = [...documentTypes, `mimeType = ${quoted(FOLDER)}`].join(" or ");
    const pending = [this.folderId];
    const seenFolders = new Set(pending);
    const seenFiles = new Set<string>();
    while (pending.length > 0) {
      const folder = pending.shift()!;
      for await (const file of this.listFiles(`${quoted(folder)} in parents and trashed = false and (${typeFilter})`)) {
        if (!file.id) continue;
        if (file.mimeType === FOLDER) {
          if (!seenFolders.has(file.id)) {
            seenFolders.add(file.id);
            pending.push(file.id);
          }
          continue;
        }
        const ref = this.documentRef(file);
        if (ref && !seenFiles.has(file.id)) {
          seenFiles.add(file.id);
          yield ref;
        }
      }
    }
  }

  async documentText(ref: DocumentRef): Promise<string | null> {
    const { fileId, mimeType } = ref.data as { fileId: string; mimeType: string };
    try {
      const response = await mapDriveErrors(() =>
        mimeType === GOOGLE_DOC
          ? this.client.files.export(
              { fileId, mimeType: "text/plain" },
              { rootUrl: this.rootUrl, responseType: "text" },
            )
          : this.client.files.get(
              { fileId, alt: "media", supportsAllDrives: true },
              { rootUrl: this.rootUrl, responseType: "text" },
            ),
      );
      // Google Docs' plain-text export starts with a byte-order mark and ends its lines with CRLF.
      const content = String(response.data ?? "")
        .replace(/^\uFEFF/, "")
        .replace(/\r\n?/g, "\n")
        .trim();
      return hasVisibleText(content) ? `${ref.title}\n\n${content}` : ref.title;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  private async *listQuery(query: string): AsyncIterable<DocumentRef> {
    for await (const file of this.listFiles(query)) {
      const ref = this.documentRef(file);
      if (ref) yield ref;
    }
  }

  private async *listFiles(query: string): AsyncIterable<drive_v3.Schema$File> {
    let pageToken: string | undefined;
    do {
      const { data } = await mapDriveErrors(() =>
        this.client.files.list(
          {
            q: query,
            fields: `nextPageToken, files(${FILE_FIELDS})`,
            pageSize: PAGE_SIZE,
            pageToken,
            supportsAllDrives: true,
            includeItemsFromAllDrives: true,
          },
          { rootUrl: this.rootUrl },
        ),
      );
      for (const file of data.files ?? []) if (!file.trashed) yield file;
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
  }

  private documentRef(file: drive_v3.Schema$File): DocumentRef | null {
    if (!file.id || !isDocument(file) || Number(file.size ?? 0) > MAX_FILE_BYTES) return null;
    const title = file.name ?? "Untitled";
    const modifiedTime = file.modifiedTime ?? new Date(0).toISOString();
    return {
      sourceId: `file:${file.id}`,
      title,
      url: file.webViewLink ?? `https://drive.google.com/file/d/${file.id}/view`,
      updatedAt: modifiedTime,
      // The title heads the text, so a rename is a change; a stored file's md5 catches same-second edits.
      version: [modifiedTime, file.md5Checksum ?? "", title].join("|"),
      data: { fileId: file.id, mimeType: file.mimeType },
    };
  }
}

/** Google's revocation endpoint sits next to its token endpoint: https://oauth2.googleapis.com/revoke. */
function revocationUrl(tokenUrl: string): string {
  const url = new URL(tokenUrl);
  url.pathname = url.pathname.replace(/\/token\/?$/, "/revoke");
  url.search = "";
  return url.toString();
}

export const googleDrive: ProviderModule = {
  options,
  reader: (context: ReaderContext) =>
    new GoogleDriveReader(
      driveClient(context.endpoints.apiUrl, context.accessToken),
      rootUrlOf(context.endpoints.apiUrl),
      options.parse(context.options).folder_id,
    ),
  async revoke(context: RevokeContext) {
    const response = await fetch(revocationUrl(context.endpoints.tokenUrl), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: context.accessToken }),
    });
    if (response.ok) return;
    // `invalid_token`: the token expired or was revoked already, which is what revoking wanted.
    const body = safeJson(await response.text()) as { error?: unknown } | null;
    if (response.status === 400 && body?.error === "invalid_token") return;
    throw new UpstreamError(`Google refused to revoke the token (HTTP ${response.status}).`);
  },
};
