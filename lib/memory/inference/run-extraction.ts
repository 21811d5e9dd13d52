// The extraction job (queued by remember with `infer`): the chat model reads what a write stored beside the
// identity's current statements and decides, by number, which facts it states and what they replace; the facts are
// written through remember as memories of kind `fact`, and the decisions applied through the same validity rules,
// marked as the model's. Crash-safe: the facts, the closings and the `done` state commit in one transaction (a
// write of several transactions is a write intent, rolled back whole), and a job run again after a commit finds its
// memories done.
import type { InferencePrincipal } from "@/lib/auth/principal";
import { setting } from "@/lib/config";
import { db, type Tx } from "@/lib/db";
import { recordMemoryEvents } from "@/lib/event-recording/record-events";
import { Prisma } from "@/lib/generated/prisma/client";
import { PermanentJobError, RetryLaterError, type ClaimedJob, type JobRunner } from "@/lib/jobs/queue";
import { chatModel, openAIConfigured } from "@/lib/net/openai-client";
import type { InferenceState } from "../common/memory-origin";
import { notExpiredSql } from "../common/sql";
import { closeMemories, lockSlot, type Supersession } from "../validity/supersession";
import { remember } from "../write/remember";
import type { RememberItem } from "../write/memory-items";
import { askModel, type ModelDecisions, type TokenCount } from "./ask-model";
import { EXTRACTION_JOB, setInferenceState, type ExtractionPayload } from "./extraction-job";

/** Current statements of the identity shown to the model, nearest to each new memory first. */
const CURRENT_PER_SOURCE = 8;
const CURRENT_AT_MOST = 20;
/** New memories whose neighbours are looked up: a long conversation's latest ones (its slots as they end). */
const SOURCES_LOOKED_UP = 50;
/** 429s waited out for one write before it fails: a model that never has room for it is not waited for forever. */
const RATE_LIMITS_AT_MOST = 50;

interface SourceRow {
  id: string;
  content: string;
  role: string | null;
  valid_at: Date;
  expires_at: Date | null;
  api_key_id: string | null;
  inference: InferenceState | null;
}

interface CurrentRow {
  id: string;
  content: string;
  valid_at: Date;
}

/** Thrown inside the apply transaction to undo it: another run of the job already applied it. */
class AlreadyApplied extends Error {}

/**
 * The extraction job's runner (lib/jobs/queue.ts): retried after INFER_RETRY_MS, doubling, on 5xx and time-outs;
 * a job whose every attempt took its process down is marked failed on its memories.
 */
export const extractionJobRunners: Record<string, JobRunner> = {
  [EXTRACTION_JOB]: Object.assign((job: ClaimedJob) => runExtraction(job), {
    backoffMs: (attempts: number) => setting("INFER_RETRY_MS") * 2 ** Math.max(0, attempts - 1),
    exhausted: (job: ClaimedJob) =>
      failExtraction(job, "The server stopped (killed or crashed) during each attempt; it is not tried again."),
  }),
};

/**
 * Runs one attempt: reads the job's memories that are still there (and still of its identity and scopes), asks the
 * model, applies its decisions. The memories show each step (`inference`). Throws to have the job retried
 * (ModelUnavailableError, RetryLaterError, a memory forgotten meanwhile) or failed (PermanentJobError, the last
 * attempt), after writing that on the memories.
 */
async function runExtraction(job: ClaimedJob): Promise<void> {
  const orgId = job.orgId!;
  const payload = job.payload as unknown as ExtractionPayload;
  const sources = await readSources(orgId, payload);
  // Forgotten (or moved to another identity or scopes) meanwhile, or applied by a run whose process died before it
  // could end the job.
  if (sources.length === 0 || sources.some((s) => s.inference?.status === "done")) return;
  const state = sources[0].inference;
  const model = state?.model ?? chatModel();
  const ids = sources.map((s) => s.id);
  const spent: TokenCount = { tokens: state?.tokens ?? 0 };
  const rateLimited = state?.rate_limited ?? 0;
  const progress = (status: "running" | "queued", attempts: number, error: string | null, limited = rateLimited) =>
    onConnection((tx) =>
      setInferenceState(tx, orgId, ids, {
        status,
        attempts,
        tokens: spent.tokens,
        rate_limited: limited,
        facts: [],
        error,
        model,
      }),
    );
  try {
    await progress("running", job.attempts, null);
    if (!openAIConfigured())
      throw new PermanentJobError("No chat model is configured (OPENAI_BASE_URL, OPENAI_API_KEY).");
    const current = await currentStatements(orgId, payload, sources);
    const decisions = await askModel(
      sources.map((s) => ({ content: s.content, validAt: s.valid_at, role: s.role })),
      current.map((c) => ({ content: c.content, validAt: c.valid_at })),
      setting("INFER_TOKEN_BUDGET"),
      spent,
    );
    await applyDecisions(job, payload, sources, current, decisions, spent.tokens);
  } catch (error) {
    const message = (error as Error).message;
    const limited = rateLimited + (error instanceof RetryLaterError ? 1 : 0);
    const lastAttempt = !(error instanceof RetryLaterError) && job.attempts >= job.maxAttempts;
    if (error instanceof PermanentJobError || lastAttempt || limited > RATE_LIMITS_AT_MOST) {
      const why = limited > RATE_LIMITS_AT_MOST ? `${message}, ${limited} times: given up` : message;
      await failExtraction(job, why, spent.tokens);
      if (limited > RATE_LIMITS_AT_MOST) throw new PermanentJobError(why);
    } else {
      // A 429 waited out does not count as an attempt (the queue gives it back).
      await progress("queued", error instanceof RetryLaterError ? job.attempts - 1 : job.attempts, message, limited);
    }
    throw error;
  }
}

/**
 * The job's memories that still exist with the identity and scopes they were written with, in the order they were
 * written: one changed by PATCH meanwhile is not read (its words are not another identity's or scopes' facts).
 */
async function readSources(orgId: string, payload: ExtractionPayload): Promise<SourceRow[]> {
  const prisma = await db();
  return prisma.$queryRaw<SourceRow[]>(
    Prisma.sql`SELECT id, content, role, valid_at, expires_at, api_key_id, inference
               FROM memories
               WHERE org_id = ${orgId} AND namespace_id = ${payload.namespace_id}
                 AND id = ANY(${payload.memory_ids}::text[])
                 AND identity_id IS NOT DISTINCT FROM ${payload.identity_id}
                 AND scopes = ${JSON.stringify(payload.scopes)}::jsonb
               ORDER BY created_at, session_position NULLS FIRST, id`,
  );
}

/** The statements of the job's identity, namespace and scopes (exactly: never another's) that hold now. */
function holdingOfSlot(payload: ExtractionPayload) {
  const scopes = JSON.stringify(payload.scopes);
  const identityId = payload.identity_id;
  return Prisma.sql`m.namespace_id = ${payload.namespace_id} AND m.identity_id IS NOT DISTINCT FROM ${identityId}
                    AND m.scopes = ${scopes}::jsonb AND m.invalid_at IS NULL AND ${Prisma.raw(notExpiredSql("m"))}`;
}

/**
 * The statements that hold now of the sources' identity, nearest to each source first (the vector leg of recall,
 * on the sources' stored embeddings): not conversation turns or document passages, which state no slot of their
 * own, nor the sources.
 */
async function currentStatements(
  orgId: string,
  payload: ExtractionPayload,
  sources: SourceRow[],
): Promise<CurrentRow[]> {
  const prisma = await db();
  const found = new Map<string, CurrentRow>();
  for (const source of sources.slice(-SOURCES_LOOKED_UP).reverse()) {
    const near = await prisma.$queryRaw<CurrentRow[]>(
      Prisma.sql`SELECT m.id, m.content, m.valid_at
                 FROM memories m
                 JOIN memory_chunks c ON c.memory_id = m.id AND c.org_id = ${orgId} AND c.position = 0
                 WHERE m.org_id = ${orgId} AND ${holdingOfSlot(payload)}
                   AND m.session_id IS NULL AND m.document_id IS NULL
                   AND NOT m.id = ANY(${sources.map((s) => s.id)}::text[])
                 ORDER BY c.embedding <=> (SELECT embedding FROM memory_chunks
                                          WHERE org_id = ${orgId} AND memory_id = ${source.id} AND position = 0)
                 LIMIT ${CURRENT_PER_SOURCE}`,
    );
    for (const row of near) if (found.size < CURRENT_AT_MOST) found.set(row.id, row);
    if (found.size >= CURRENT_AT_MOST) break;
  }
  return [...found.values()].sort((a, b) => a.valid_at.getTime() - b.valid_at.getTime());
}

/**
 * Writes the facts the model found (all but those it says are known) as memories of kind `fact` of the sources'
 * identity and scopes, since their sources' latest valid_at and expiring with the first of them to expire, each
 * closing the current statements it replaces that still hold as they were shown; closes those it says stopped
 * holding; and marks the sources done with a `memory.inference.completed` event: one transaction with the last of
 * the facts. A source forgotten meanwhile undoes it all and the job is tried again without it.
 */
async function applyDecisions(
  job: ClaimedJob,
  payload: ExtractionPayload,
  sources: SourceRow[],
  current: CurrentRow[],
  { answer, model }: ModelDecisions,
  tokens: number,
): Promise<void> {
  const orgId = job.orgId!;
  const how: Supersession = { kind: "model", basis: `${model}: a newer statement of the same slot` };
  const principal: InferencePrincipal = {
    kind: "inference",
    orgId,
    namespaceId: payload.namespace_id,
    jobId: job.id,
    requester: sources[0].api_key_id ?? `inference:${payload.namespace_id}`,
    permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
    scopes: payload.scopes,
  };
  // What the model named must still hold as it was shown (not moved to another identity or scopes meanwhile).
  const stillHolding = await holdingNow(
    orgId,
    payload,
    current.map((c) => c.id),
  );
  const currentId = (n: number) => (stillHolding.has(current[n - 1].id) ? [current[n - 1].id] : []);
  const items: RememberItem[] = answer.facts
    .filter((fact) => fact.action !== "ignore")
    .map((fact) => {
      const from = [...new Set(fact.sources)].map((n) => sources[n - 1]);
      const validAt = new Date(Math.max(...from.map((s) => s.valid_at.getTime())));
      const expiries = from.flatMap((s) => (s.expires_at ? [s.expires_at.getTime()] : []));
      const replaces = [...new Set(fact.replaces)].flatMap(currentId);
      return {
        content: fact.text,
        fact_key: fact.fact_key,
        identity_id: payload.identity_id ?? undefined,
        occurred_at: validAt.toISOString(),
        valid_at: validAt.toISOString(),
        ...(expiries.length && { expires_at: new Date(Math.min(...expiries)).toISOString() }),
        ...(replaces.length && { supersedes: replaces }),
        derived_from: from.map((s) => s.id),
      };
    });
  const ids = sources.map((s) => s.id);
  const facts: string[] = [];
  const finish = async (tx: Tx) => {
    const locked = await tx.$queryRaw<{ inference: InferenceState | null }[]>(
      Prisma.sql`SELECT inference FROM memories WHERE org_id = ${orgId} AND id = ANY(${ids}::text[])
                 ORDER BY id FOR UPDATE`,
    );
    if (locked.some((row) => row.inference?.status === "done")) throw new AlreadyApplied();
    // Rolled back (facts too) and tried again with those that are left.
    if (locked.length < ids.length) throw new Error("A memory the model read was forgotten meanwhile.");
    const invalidate = [...new Set(answer.invalidate)].flatMap(currentId);
    const invalidated = await closeStopped(tx, orgId, payload, sources, invalidate, model);
    await setInferenceState(tx, orgId, ids, {
      status: "done",
      attempts: job.attempts,
      tokens,
      rate_limited: sources[0].inference?.rate_limited ?? 0,
      facts,
      error: null,
      model,
    });
    await recordMemoryEvents(tx, orgId, "memory.inference.completed", ids, { facts, invalidated, model });
  };
  try {
    if (items.length === 0) {
      await (await db()).$transaction(finish);
      return;
    }
    await remember(
      principal,
      { namespace_id: payload.namespace_id },
      items,
      {},
      {
        // A fact is its own memory even when a caller wrote the same words: it goes with its sources.
        allowDuplicate: true,
        namedBy: how,
        inEachGroup: async (_tx, written) => void facts.push(...written.map((m) => m.id)),
        inLastGroup: finish,
      },
    );
  } catch (error) {
    if (!(error instanceof AlreadyApplied)) throw error;
  }
}

/** Which of these memories still hold, in the job's namespace, identity and scopes. */
async function holdingNow(orgId: string, payload: ExtractionPayload, memoryIds: string[]): Promise<Set<string>> {
  if (memoryIds.length === 0) return new Set();
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT m.id FROM memories m
               WHERE m.org_id = ${orgId} AND m.id = ANY(${memoryIds}::text[]) AND ${holdingOfSlot(payload)}`,
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * Closes the current statements the model says stopped holding (those that still hold in the job's slot, locked),
 * at the latest source's valid_at (never before their own), by the first source: forgetting it makes them hold
 * again. Returns their ids.
 */
async function closeStopped(
  tx: Tx,
  orgId: string,
  payload: ExtractionPayload,
  sources: SourceRow[],
  memoryIds: string[],
  model: string,
): Promise<string[]> {
  if (memoryIds.length === 0) return [];
  await lockSlot(tx, payload.namespace_id, `identity\u001f${payload.identity_id ?? ""}`);
  const holding = await tx.$queryRaw<{ id: string; valid_at: Date }[]>(
    Prisma.sql`SELECT m.id, m.valid_at FROM memories m
               WHERE m.org_id = ${orgId} AND m.id = ANY(${memoryIds}::text[]) AND ${holdingOfSlot(payload)}
               ORDER BY m.id FOR UPDATE`,
  );
  const at = Math.max(...sources.map((s) => s.valid_at.getTime()));
  await closeMemories(
    tx,
    orgId,
    holding.map((row) => ({
      memoryId: row.id,
      invalidAt: new Date(Math.max(at, row.valid_at.getTime())),
      supersededBy: sources[0].id,
      supersession: { kind: "model", basis: `${model}: the new memory says it no longer holds` },
    })),
  );
  return holding.map((row) => row.id);
}

/** Marks the job's memories failed (they stay as written) with a `memory.inference.failed` event. */
async function failExtraction(job: ClaimedJob, error: string, tokens?: number): Promise<void> {
  const orgId = job.orgId!;
  const sources = await readSources(orgId, job.payload as unknown as ExtractionPayload);
  if (sources.length === 0 || sources.some((s) => s.inference?.status === "done")) return;
  const state = sources[0].inference;
  const ids = sources.map((s) => s.id);
  await (
    await db()
  ).$transaction(async (tx) => {
    await setInferenceState(tx, orgId, ids, {
      status: "failed",
      attempts: Math.min(job.attempts, job.maxAttempts),
      tokens: tokens ?? state?.tokens ?? 0,
      rate_limited: state?.rate_limited ?? 0,
      facts: [],
      error,
      model: state?.model ?? null,
    });
    await recordMemoryEvents(tx, orgId, "memory.inference.failed", ids, { error });
  });
}

/** One short statement outside a transaction. */
async function onConnection(work: (tx: Tx) => Promise<void>): Promise<void> {
  await (await db()).$transaction(work);
}
