// Idempotent writes: a client sends `Idempotency-Key: <its own id for the request>` and can retry the
// request (a timeout, a lost connection, a restarted server) without the work being done twice. The first
// request claims the key in the database (INSERT … ON CONFLICT, so two instances, or two requests at once,
// cannot both claim it); its 2xx answer is kept and replayed to every retry of the same request for 24 hours.
// Any other answer releases the key: nothing was done, so the retry does the work. A claim is held by a
// lease its request renews while it runs; one whose process died is taken over by a retry when the lease
// ends, at once on the embedded database (only this process can have the data directory open).
// Exactly once across a crash: the writes a request makes under its claim (remember's write intents,
// lib/memory/store/write-intents.ts) are kept in the transaction that keeps its answer; a retry taking the key
// over first rolls back whatever the lost attempt had written, then does the work.
import { createHash, randomUUID } from "node:crypto";
import { decrypt, encrypt } from "@/lib/crypto/encryption";
import { getDatabase } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { canonicalJson } from "./canonical-json";
import { successResponse } from "./envelope";
import { crashPoint, processId, runUnderIdempotencyKey, type IdempotencyScope } from "./request-writes";
import { ConflictError, InvalidError, type ErrorDetail } from "@/lib/errors";
import { errorResponse } from "./envelope";
import { errorReport } from "./errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Set to `true` on an answer that is the replay of the first one. */
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** How long a key stays bound to its first request and answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** The `details[].message` of a key used for another request, and of one whose first request is still running. */
export const IDEMPOTENCY_CONFLICT = "IDEMPOTENCY_CONFLICT";
export const IDEMPOTENCY_IN_PROGRESS = "IDEMPOTENCY_IN_PROGRESS";
export const IDEMPOTENCY_ANSWER_WITHDRAWN = "IDEMPOTENCY_ANSWER_WITHDRAWN";

const HEADER_FIELD = `header.${IDEMPOTENCY_HEADER}`;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
/** Short: a retry waits at most this long after its first attempt's instance died (PostgreSQL). */
const LEASE_MS = 15_000;
const LEASE_RENEWAL_MS = 5_000;
const SWEEP_INTERVAL_MS = 10 * 60_000;
/** Seconds a client is told to wait before retrying while the first request runs. */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;
/** Claim, read, claim again: a row released or expired between two statements is claimed on the next pass. */
const CLAIM_ATTEMPTS = 3;

// On globalThis because Next bundles each route module with its own copy of this one (the process's id,
// shared with write intents, is kept the same way).
const processState = globalThis as typeof globalThis & { __memgwIdempotencySweptAt?: number };

/** The request's Idempotency-Key: 400 unless it is 1 to 255 printable ASCII characters. */
export function idempotencyKeyOf(request: Request): string {
  const value = request.headers.get(IDEMPOTENCY_HEADER) ?? "";
  if (!KEY_PATTERN.test(value)) {
    const message = "must be 1 to 255 printable ASCII characters";
    throw new InvalidError(`Invalid ${IDEMPOTENCY_HEADER} header: it ${message}.`, [{ field: HEADER_FIELD, message }]);
  }
  return value;
}

/** What makes two requests the same: the route and everything the operation reads, and the key's scopes. */
export interface RequestIdentity {
  method: string;
  /** The route's path template, e.g. `/memories/{id}`, with its parameters beside it. */
  route: string;
  params: unknown;
  query: unknown;
  body: unknown;
  /** A key whose scopes changed since is not replayed an answer given within its old ones. */
  scopes: unknown;
}

/** SHA-256 of the request in canonical JSON: key order and whitespace of the body do not make another request. */
export function requestFingerprint(request: RequestIdentity): string {
  return createHash("sha256").update(canonicalJson(request)).digest("hex");
}

/** Whose key it is: records of another API key or organization are never seen. */
export interface IdempotencyOwner {
  orgId: string;
  apiKeyId: string;
}

/** What the domain adds to an idempotent request (given by the API layer). */
export interface IdempotencyHooks {
  /**
   * Before the work runs under a claim: rolls back what an earlier claim of the key (a process that died)
   * left unfinished.
   */
  recover?: (key: string) => Promise<unknown>;
  /**
   * The ids of what a kept answer shows (the `data` of its envelope), kept beside it so that the answer can
   * be withdrawn when they are erased (the domain clears it then).
   */
  idsShownIn?: (data: unknown) => string[];
}

interface StoredResponse {
  headers: Record<string, string>;
  body: string;
}

interface RecordRow {
  request_hash: string;
  response_status: number | null;
  response_encrypted: string | null;
  withdrawn_at: Date | null;
}

/**
 * Answers the request `work` would answer, at most once per (owner, key) within 24 hours: the first call
 * claims the key and runs `work`; a retry with the same fingerprint gets the first 2xx answer again (with
 * `Idempotent-Replayed: true`), one with another fingerprint 409 IDEMPOTENCY_CONFLICT, one while the
 * first still runs 409 IDEMPOTENCY_IN_PROGRESS with Retry-After. `work` answers errors as responses too.
 */
export async function idempotent(
  owner: IdempotencyOwner,
  idempotencyKey: string,
  fingerprint: string,
  work: () => Promise<Response>,
  hooks: IdempotencyHooks = {},
): Promise<Response> {
  const keyHash = createHash("sha256").update(idempotencyKey).digest("hex");
  const record = { ...owner, keyHash };
  sweepNowAndThen();
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const claimToken = await claim(record, fingerprint);
    if (claimToken) return runClaimed(record, claimToken, work, hooks);
    const existing = await liveRecord(record);
    if (!existing) continue;
    if (existing.request_hash !== fingerprint) return conflict();
    if (existing.withdrawn_at !== null) return withdrawn();
    if (existing.response_status === null || existing.response_encrypted === null) return inProgress();
    return replay(record, existing.response_status, existing.response_encrypted);
  }
  return inProgress();
}

type RecordKey = IdempotencyOwner & { keyHash: string };
const theRecord = (record: RecordKey) =>
  Prisma.sql`org_id = ${record.orgId} AND api_key_id = ${record.apiKeyId} AND key_hash = ${record.keyHash}`;

/**
 * Claims the key: a new row, or one that may be taken over — expired, or the same request's claim left
 * by a process that died (its lease ended; on the embedded database, any other process's). The token, or
 * null when the key is held or answered.
 */
async function claim(record: RecordKey, fingerprint: string): Promise<string | null> {
  const database = await getDatabase();
  const claimToken = randomUUID();
  const rows = await database.prisma.$queryRaw<{ claim_token: string }[]>(
    Prisma.sql`INSERT INTO idempotency_keys
       (org_id, api_key_id, key_hash, request_hash, claim_token, process_id, locked_until)
     VALUES (${record.orgId}, ${record.apiKeyId}, ${record.keyHash}, ${fingerprint}, ${claimToken}, ${processId},
             now() + ${LEASE_MS} * interval '1 millisecond')
     ON CONFLICT (org_id, api_key_id, key_hash) DO UPDATE SET
       request_hash = EXCLUDED.request_hash, claim_token = EXCLUDED.claim_token, process_id = EXCLUDED.process_id,
       locked_until = EXCLUDED.locked_until, created_at = now(), response_status = NULL,
       response_encrypted = NULL, completed_at = NULL
     WHERE idempotency_keys.created_at <= now() - ${IDEMPOTENCY_TTL_MS} * interval '1 millisecond'
        OR (idempotency_keys.response_status IS NULL AND idempotency_keys.request_hash = EXCLUDED.request_hash
            AND (idempotency_keys.locked_until < now()
                 OR (${database.kind === "pglite"}::boolean AND idempotency_keys.process_id <> EXCLUDED.process_id)))
     RETURNING claim_token`,
  );
  return rows[0]?.claim_token ?? null;
}

async function liveRecord(record: RecordKey): Promise<RecordRow | undefined> {
  const prisma = (await getDatabase()).prisma;
  const rows = await prisma.$queryRaw<RecordRow[]>(
    Prisma.sql`SELECT request_hash, response_status, response_encrypted, withdrawn_at FROM idempotency_keys
     WHERE ${theRecord(record)} AND created_at > now() - ${IDEMPOTENCY_TTL_MS} * interval '1 millisecond'`,
  );
  return rows[0];
}

function recordKeyText(record: RecordKey): string {
  return `${record.orgId}:${record.apiKeyId}:${record.keyHash}`;
}

/**
 * Runs the claimed request, renewing the claim's lease meanwhile; keeps a 2xx answer, releases the key
 * otherwise. What an earlier claim of the key left unfinished is rolled back first; the request's own
 * writes are kept in the answer's transaction, or rolled back with a released key.
 */
async function runClaimed(
  record: RecordKey,
  claimToken: string,
  work: () => Promise<Response>,
  { recover, idsShownIn }: IdempotencyHooks,
): Promise<Response> {
  const prisma = (await getDatabase()).prisma;
  const idsShown = (body: string) => (idsShownIn ? idsShownInBody(body, idsShownIn) : []);
  const renewal = setInterval(() => {
    prisma
      .$executeRaw(
        Prisma.sql`UPDATE idempotency_keys SET locked_until = now() + ${LEASE_MS} * interval '1 millisecond'
         WHERE ${theRecord(record)} AND claim_token = ${claimToken} AND response_status IS NULL`,
      )
      .catch((error) => console.error("[memgw] renewing an idempotency claim failed:", error));
  }, LEASE_RENEWAL_MS);
  renewal.unref();
  // Set when the answer's transaction finds the claim another's: whatever the work then answers, this is the answer.
  let takenOver = false;
  const scope: IdempotencyScope = {
    key: recordKeyText(record),
    writes: [],
    keepAnswer: async (tx, status, data) => {
      const provisional = successResponse(data, status);
      const answer: StoredResponse = {
        headers: Object.fromEntries(provisional.headers),
        body: await provisional.text(),
      };
      const encrypted = encrypt(JSON.stringify(answer), encryptionContext(record));
      const kept = await tx.$executeRaw(
        Prisma.sql`UPDATE idempotency_keys
         SET response_status = ${status}, response_encrypted = ${encrypted},
             memory_ids = ${idsShown(answer.body)}::text[]
         WHERE ${theRecord(record)} AND claim_token = ${claimToken}`,
      );
      // Taken over meanwhile: the change must not commit (the retry that holds the key does it).
      if (kept !== 1) {
        takenOver = true;
        throw new ClaimTakenOver();
      }
    },
  };
  let response: Response;
  try {
    await recover?.(scope.key);
    response = await runUnderIdempotencyKey(scope, work);
  } catch (error) {
    clearInterval(renewal);
    await rollBackScope(scope).catch((cause) => console.error("[memgw] rolling back a failed request failed:", cause));
    await release(record, claimToken);
    if (takenOver) return inProgress();
    throw error;
  }
  clearInterval(renewal);
  if (response.status < 200 || response.status > 299) {
    await rollBackScope(scope).catch((cause) => console.error("[memgw] rolling back a failed request failed:", cause));
    await release(record, claimToken);
    // The retry that took the key over answers it: this request's client is told so, as any other would be.
    return takenOver ? inProgress() : response;
  }
  crashPoint("idempotency.before-answer");
  const stored: StoredResponse = { headers: Object.fromEntries(response.headers), body: await response.text() };
  try {
    await prisma.$transaction(async (tx) => {
      const encrypted = encrypt(JSON.stringify(stored), encryptionContext(record));
      const kept = await tx.$executeRaw(
        Prisma.sql`UPDATE idempotency_keys SET response_status = ${response.status}, response_encrypted = ${encrypted},
                                     locked_until = NULL, completed_at = now(),
                                     memory_ids = ${idsShown(stored.body)}::text[]
         WHERE ${theRecord(record)} AND claim_token = ${claimToken}`,
      );
      // Taken over meanwhile (this request's lease ran out): the retry that took it rolls this one back.
      if (kept !== 1) throw new ClaimTakenOver();
      for (const write of scope.writes) await write.keep(tx);
    });
    for (const write of scope.writes) write.settle();
  } catch (error) {
    if (scope.writes.length === 0) {
      // A write of one transaction is done: its answer is still the truth. A retry finds the claim held
      // until its lease ends.
      console.error("[memgw] keeping an idempotent answer failed:", error);
      return new Response(stored.body, { status: response.status, headers: stored.headers });
    }
    // Not kept, so not done: what it wrote goes, and the client's retry gets the answer of the one that runs.
    console.error("[memgw] keeping an idempotent answer failed; its writes are rolled back:", error);
    await rollBackScope(scope).catch((cause) => console.error("[memgw] rolling back a request failed:", cause));
    return inProgress();
  }
  return new Response(stored.body, { status: response.status, headers: stored.headers });
}

/** The answer is not kept: what the request wrote under its claim goes. */
async function rollBackScope(scope: IdempotencyScope): Promise<void> {
  for (const write of scope.writes) await write.rollBack();
}

/** The ids `idsShownIn` finds in the `data` of an answer's envelope (none in a body that is not one). */
function idsShownInBody(body: string, idsShownIn: (data: unknown) => string[]): string[] {
  let data: unknown;
  try {
    ({ data } = JSON.parse(body) as { data?: unknown });
  } catch {
    return [];
  }
  return idsShownIn(data);
}

async function release(record: RecordKey, claimToken: string): Promise<void> {
  try {
    const prisma = (await getDatabase()).prisma;
    await prisma.$executeRaw(
      Prisma.sql`DELETE FROM idempotency_keys WHERE ${theRecord(record)} AND claim_token = ${claimToken}`,
    );
  } catch (error) {
    // The answer stands; the retry finds the key held until the claim's lease ends, then does the work.
    console.error("[memgw] releasing an idempotency key failed:", error);
  }
}

/** The stored answer may hold memory content: encrypted, bound to its record (a copied row does not decrypt). */
function encryptionContext(record: RecordKey): string {
  return `idempotency:${record.orgId}:${record.apiKeyId}:${record.keyHash}`;
}

function replay(record: RecordKey, status: number, encrypted: string): Response {
  const stored = JSON.parse(decrypt(encrypted, encryptionContext(record))) as StoredResponse;
  const headers = new Headers(stored.headers);
  headers.set(REPLAYED_HEADER, "true");
  return new Response(stored.body, { status, headers });
}

function conflict(): Response {
  const message =
    `This ${IDEMPOTENCY_HEADER} was used for another request (method, path, body or the key's scopes) ` +
    "in the last 24 hours: send a new key for a new request.";
  return refusal(message, [{ field: HEADER_FIELD, message: IDEMPOTENCY_CONFLICT }]);
}

/** The answer showed memories deleted since (withdrawKeptAnswers): neither replayed nor done again. */
function withdrawn(): Response {
  const message =
    `The memory the first request with this ${IDEMPOTENCY_HEADER} stored or changed has been deleted since, ` +
    "and its answer with it; the request is not done again (it would bring back what was erased). " +
    "Send a new key to do it anew.";
  return refusal(message, [{ field: HEADER_FIELD, message: IDEMPOTENCY_ANSWER_WITHDRAWN }]);
}

function inProgress(): Response {
  const message =
    `The first request with this ${IDEMPOTENCY_HEADER} is still running: ` + "retry in a moment to get its answer.";
  return refusal(message, [{ field: HEADER_FIELD, message: IDEMPOTENCY_IN_PROGRESS }], {
    "retry-after": String(IN_PROGRESS_RETRY_AFTER_SECONDS),
  });
}

/**
 * A retry took the key over while this request ran (its lease ran out): its change must not commit, and it is
 * answered as any request finding the key in progress (409 IDEMPOTENCY_IN_PROGRESS: retry for the answer).
 */
class ClaimTakenOver extends ConflictError {
  constructor() {
    super("This request's Idempotency-Key was taken over by a retry.");
  }
}

function refusal(message: string, details: ErrorDetail[], headers?: Record<string, string>): Response {
  return errorResponse({ ...errorReport("CONFLICT", message, headers), details });
}

/** Deletes the records older than 24 hours (they are ignored already); the number deleted. */
export async function deleteExpiredIdempotencyRecords(): Promise<number> {
  const prisma = (await getDatabase()).prisma;
  return prisma.$executeRaw(
    Prisma.sql`DELETE FROM idempotency_keys
               WHERE created_at <= now() - ${IDEMPOTENCY_TTL_MS} * interval '1 millisecond'`,
  );
}

// Swept by whichever idempotent request happens by, at most every SWEEP_INTERVAL_MS per process, so the
// table holds about a day of keys without a job of its own.
function sweepNowAndThen() {
  const now = Date.now();
  if (now - (processState.__memgwIdempotencySweptAt ?? 0) < SWEEP_INTERVAL_MS) return;
  processState.__memgwIdempotencySweptAt = now;
  deleteExpiredIdempotencyRecords().catch((error) =>
    console.error("[memgw] deleting expired idempotency keys failed:", error),
  );
}
