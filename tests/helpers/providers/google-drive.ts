// A Google Drive on loopback for the integration tests, behind the shared OAuth server (oauth-server.ts),
// rooted where the real rootUrl https://www.googleapis.com/ is: `files.list` (GET /drive/v3/files with a
// `q` search query, `fields`, `pageSize` / `pageToken` pagination), `files.get` with `alt=media` for the
// bytes of a stored file and `files.export` (GET /drive/v3/files/{id}/export) for a Google Doc, in the
// shapes of @googleapis/drive's drive_v3 types and Google's error bodies. The server answers at most two
// files a page, so the seed alone exercises pagination.
import { createHash, randomBytes } from "node:crypto";
import { startFakeProvider, type FakeApiResponse, type FakeProvider } from "./oauth-server";
import type { FakeContent } from "./oauth-server";

const SERVER_PAGE_SIZE = 2;
const GOOGLE_DOC = "application/vnd.google-apps.document";
const FOLDER = "application/vnd.google-apps.folder";
const SHEET = "application/vnd.google-apps.spreadsheet";

interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  /** The bytes of a stored file, or a Google Doc's text (what its plain-text export answers). */
  content: string | Buffer;
  modifiedTime: string;
  version: number;
  trashed: boolean;
}

export interface GoogleDriveFake extends FakeProvider {
  content: FakeContent;
  /** The next `count` content requests answer 403 `userRateLimitExceeded`, Drive's other way to say 429. */
  quotaExceededNext(count: number): void;
  /** Adds a text file to the connection's folder, named and holding what a test needs; its webViewLink. */
  addTextFile(name: string, text: string): { url: string };
}

export async function startGoogleDriveFake(options: { port?: number } = {}): Promise<GoogleDriveFake> {
  let clock = Date.parse("2026-02-10T08:00:00.000Z");
  const tick = () => {
    clock += 1_000;
    return new Date(clock).toISOString();
  };
  const files: DriveFile[] = [];
  const add = (name: string, mimeType: string, parent: string, content: string | Buffer = ""): DriveFile => {
    const file: DriveFile = {
      id: randomBytes(24).toString("base64url"),
      name,
      mimeType,
      parents: [parent],
      content,
      modifiedTime: tick(),
      version: 1,
      trashed: false,
    };
    files.push(file);
    return file;
  };

  const handbook = add("Team handbook", FOLDER, "root");
  const policies = add("Policies", FOLDER, handbook.id);
  const personal = add("Personal", FOLDER, "root");
  const onboarding = add(
    "Onboarding guide",
    GOOGLE_DOC,
    handbook.id,
    "Welcome aboard\n\nThe lighthouse keeper logs the tide at dawn.\nNew colleagues shadow a keeper for a week.",
  );
  add("logo.png", "image/png", handbook.id, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]));
  const packing = add(
    "packing-list.txt",
    "text/plain",
    handbook.id,
    "Bring a wool sweater; the harbour wind bites in March.\n",
  );
  add("Budget", SHEET, handbook.id);
  add(
    "release-process.md",
    "text/markdown",
    handbook.id,
    "# Release process\n\nThe ferry timetable changes on the first Monday of May.\n",
  );
  add("report.pdf", "application/pdf", handbook.id, Buffer.from("%PDF-1.7 binary"));
  add("lighthouse.log", "text/plain", handbook.id, Buffer.alloc(6 * 1024 * 1024, "beam ok\n"));
  add("glossary.md", "application/octet-stream", policies.id, "Bollard: a post sailors tie their lines to.\n");
  add("dump.bin", "application/octet-stream", policies.id, Buffer.from([0, 1, 2, 3, 255]));
  const oldMemo = add("old-memo.txt", "text/plain", handbook.id, "The abandoned mill grinds no grain anymore.");
  oldMemo.trashed = true;
  add("diary.txt", "text/plain", personal.id, "My private diary: the attic stairs creak at night.");
  let quotaExceeded = 0;
  let added = 0;

  const provider = await startFakeProvider({
    provider: "google_drive",
    port: options.port,
    handleApi(request) {
      if (quotaExceeded > 0) {
        quotaExceeded -= 1;
        return driveError(403, "userRateLimitExceeded", "User Rate Limit Exceeded", "usageLimits");
      }
      if (request.method !== "GET") return null;
      if (request.path === "/drive/v3/files") return listFiles(request.query);
      const exportMatch = /^\/drive\/v3\/files\/([^/]+)\/export$/.exec(request.path);
      if (exportMatch) {
        const file = files.find((candidate) => candidate.id === exportMatch[1]);
        if (!file) return null;
        if (file.mimeType !== GOOGLE_DOC) {
          return driveError(403, "fileNotExportable", "Export only supports Docs Editors files.");
        }
        if (request.query.get("mimeType") !== "text/plain") {
          return driveError(400, "badRequest", "The requested conversion is not supported.");
        }
        // Google's plain-text export: a byte-order mark and CRLF line ends.
        return {
          text: `\uFEFF${String(file.content).replace(/\n/g, "\r\n")}`,
          headers: { "content-type": "text/plain" },
        };
      }
      const getMatch = /^\/drive\/v3\/files\/([^/]+)$/.exec(request.path);
      if (getMatch) {
        const file = files.find((candidate) => candidate.id === getMatch[1]);
        if (!file) return null;
        if (request.query.get("alt") !== "media")
          return { json: selectFields(fileResource(file), request.query.get("fields")) };
        if (file.mimeType.startsWith("application/vnd.google-apps.")) {
          return driveError(
            403,
            "fileNotDownloadable",
            "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
          );
        }
        return { text: file.content.toString("latin1"), headers: { "content-type": file.mimeType } };
      }
      return null;
    },
  });

  function listFiles(query: URLSearchParams): FakeApiResponse {
    let matches: (file: DriveFile) => boolean;
    try {
      matches = parseQuery(query.get("q") ?? "");
    } catch (error) {
      return driveError(400, "invalid", `Invalid Value: ${(error as Error).message}`, "global", "q");
    }
    const found = files.filter(matches);
    const start = Number(query.get("pageToken") ?? "0");
    if (!Number.isInteger(start) || start < 0 || start > found.length) {
      return driveError(400, "invalid", "Invalid Value", "global", "pageToken");
    }
    const requested = Number(query.get("pageSize") ?? "100");
    const size = Math.min(SERVER_PAGE_SIZE, requested > 0 ? requested : 100);
    const page = found.slice(start, start + size);
    const fields = query.get("fields");
    const fileFields = fields ? (/files\(([^)]*)\)/.exec(fields)?.[1] ?? null) : null;
    return {
      json: {
        kind: "drive#fileList",
        incompleteSearch: false,
        files: page.map((file) => selectFields(fileResource(file), fileFields)),
        ...(start + size < found.length ? { nextPageToken: String(start + size) } : {}),
      },
    };
  }

  const webViewLink = (file: DriveFile) =>
    file.mimeType === GOOGLE_DOC
      ? `https://docs.google.com/document/d/${file.id}/edit?usp=drivesdk`
      : `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`;

  function fileResource(file: DriveFile) {
    const stored = !file.mimeType.startsWith("application/vnd.google-apps.");
    return {
      kind: "drive#file",
      id: file.id,
      name: file.name,
      mimeType: file.mimeType,
      parents: file.parents,
      trashed: file.trashed,
      modifiedTime: file.modifiedTime,
      version: String(file.version),
      webViewLink: webViewLink(file),
      ...(stored
        ? { md5Checksum: createHash("md5").update(file.content).digest("hex"), size: String(file.content.length) }
        : {}),
    };
  }

  /** The files the reader must list for the connection's folder, and the text it must read of each. */
  function inHandbook(file: DriveFile): boolean {
    for (let parent = file.parents[0]; parent !== "root";) {
      if (parent === handbook.id) return true;
      parent = files.find((candidate) => candidate.id === parent)?.parents[0] ?? "root";
    }
    return false;
  }
  /** What the reader keeps: Docs, and text or Markdown files of at most 5 MiB (the log is larger). */
  const isText = (file: DriveFile) =>
    file.mimeType === GOOGLE_DOC ||
    ((file.mimeType === "text/plain" ||
      file.mimeType === "text/markdown" ||
      (file.mimeType === "application/octet-stream" && file.name.endsWith(".md"))) &&
      file.content.length <= 5 * 1024 * 1024);

  const content: FakeContent = {
    connectOptions: { folder_id: handbook.id },
    documents: () =>
      files
        .filter((file) => !file.trashed && isText(file) && inHandbook(file))
        .map((file) => ({
          url: webViewLink(file),
          title: file.name,
          text: `${file.name}\n\n${String(file.content).trim()}`,
        })),
    changeOne() {
      const phrase = "Every new colleague gets a brass compass on the first day.";
      onboarding.content = `${String(onboarding.content)}\n${phrase}`;
      onboarding.modifiedTime = tick();
      onboarding.version += 1;
      return { url: webViewLink(onboarding), phrase };
    },
    deleteOne() {
      packing.trashed = true;
      packing.modifiedTime = tick();
      packing.version += 1;
      return { url: webViewLink(packing) };
    },
    addOne() {
      added += 1;
      const phrase =
        added === 1
          ? "The harbour master signs every mooring permit in green ink."
          : `Mooring permit ${added} is green.`;
      const file = add(`mooring-${added}.md`, "text/markdown", policies.id, `# Mooring\n\n${phrase}\n`);
      return { url: webViewLink(file), phrase };
    },
  };
  return Object.assign(provider, {
    content,
    quotaExceededNext(count: number) {
      quotaExceeded = count;
    },
    addTextFile(name: string, text: string) {
      return { url: webViewLink(add(name, "text/plain", handbook.id, text)) };
    },
  });
}

function driveError(status: number, reason: string, message: string, domain = "global", location?: string) {
  return {
    status,
    json: {
      error: {
        code: status,
        message,
        errors: [{ message, domain, reason, ...(location ? { location, locationType: "parameter" } : {}) }],
      },
    },
  };
}

function selectFields(resource: Record<string, unknown>, fields: string | null): Record<string, unknown> {
  if (!fields || fields.trim() === "*") return resource;
  const wanted = new Set(fields.split(",").map((field) => field.trim()));
  return Object.fromEntries(Object.entries(resource).filter(([key]) => wanted.has(key)));
}

/**
 * Drive's search query language, the part a reader uses: `'<id>' in parents`, `trashed = <bool>`,
 * `mimeType = '<type>'` / `!=`, `name = '<name>'`, joined by `and` / `or` with parentheses (`and` binds
 * tighter). Anything else is an invalid query, as Drive would answer.
 */
function parseQuery(query: string): (file: DriveFile) => boolean {
  const tokens = query.match(/'(?:[^'\\]|\\.)*'|\(|\)|!=|=|[A-Za-z]+/g) ?? [];
  let position = 0;
  const next = () => tokens[position++];
  const peek = () => tokens[position];
  const literal = (token: string | undefined) => {
    if (!token?.startsWith("'")) throw new Error(`expected a quoted value, got ${token ?? "the end"}`);
    return token.slice(1, -1).replace(/\\(.)/g, "$1");
  };
  type Predicate = (file: DriveFile) => boolean;
  const term = (): Predicate => {
    const token = next();
    if (token === "(") {
      const inner = orExpression();
      if (next() !== ")") throw new Error("unbalanced parentheses");
      return inner;
    }
    if (token?.startsWith("'")) {
      const value = literal(token);
      if (next() !== "in" || next() !== "parents") throw new Error("expected 'in parents'");
      return (file) => file.parents.includes(value);
    }
    const operator = next();
    if (token === "trashed" && operator === "=") {
      const value = next();
      if (value !== "true" && value !== "false") throw new Error("trashed takes true or false");
      return (file) => file.trashed === (value === "true");
    }
    if ((token === "mimeType" || token === "name") && (operator === "=" || operator === "!=")) {
      const value = literal(next());
      const field = token;
      return (file) => (file[field] === value) === (operator === "=");
    }
    throw new Error(`unsupported term near ${token ?? "the end"}`);
  };
  const andExpression = (): Predicate => {
    let left = term();
    while (peek() === "and") {
      next();
      const right = term();
      const previous = left;
      left = (file) => previous(file) && right(file);
    }
    return left;
  };
  const orExpression = (): Predicate => {
    let left = andExpression();
    while (peek() === "or") {
      next();
      const right = andExpression();
      const previous = left;
      left = (file) => previous(file) || right(file);
    }
    return left;
  };
  if (tokens.length === 0) return () => true;
  const predicate = orExpression();
  if (position !== tokens.length) throw new Error(`unexpected ${peek()}`);
  return predicate;
}
