// The extraction job (queued by remember with `infer`): the chat model reads what a write stored beside the
// identity's current statements and decides, by number, which facts it states and what they replace; the facts are
// written through remember as memories of kind `fact`, and the decisions applied through the same validity rules,
// marked as the model's. Crash-safe: the facts, the closings and the `done` state commit in one transaction (a
// write of several transactions is a write intent, rolled back whole), and a job run again after a commit finds its
// memories done.
import type { InferencePrincipal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { setting } from "@/lib/config";
import { db, type Tx } from "@/lib/db";
import { recordMemoryEvents } from "@/lib/event-recording/record-events";
import { Prisma } from "@/lib/generated/prisma/client";
import { PermanentJobError, RetryLaterError, type ClaimedJob, type JobRunner } from "@/lib/jobs/queue";
import { openAIConfigured } from "@/lib/net/openai-client";
import type { InferenceState } from "../common/memory-origin";
import { notExpiredSql } from "../common/sql";
import { closeMemories, lockSlot, type Supersession } from "../validity/supersession";
import { remember } from "../write/remember";
import type { RememberItem } from "../write/memory-items";
import { askModel, ModelUnavailableError, type ModelDecisions } from "./ask-model";
import { EXTRACTION_JOB, setInferenceState, type ExtractionPayload } from "./extraction-job";

/** Current statements of the identity shown to the model, nearest to each new memory first. */
const CURRENT_PER_SOURCE = 8;
const CURRENT_AT_MOST = 20;
/** New memories whose neighbours are looked up (a long conversation's first ones are enough to find its slots). */
const SOURCES_LOOKED_UP = 50;

interface SourceRow {
  id: string;
  content: string;
  role: string | null;
  valid_at: Date;
  expires_at: Date | null;
  identity_id: string | null;
  scopes: Scopes;
  api_key_id: string | null;
  inference: InferenceState | null;
}

interface CurrentRow {
  id: string;
  content: string;
  valid_at: Date;
}

/** Thrown inside the apply transaction to undo it: the sources were forgotten, or another run already applied. */
class NothingToApply extends Error {}

export const extractionJobRunners: Record<string, JobRunner> = {
  [EXTRACTION_JOB]: Object.assign((job: ClaimedJob) => runExtraction(job), {
    backoffMs: (attempts: number) => setting("INFER_RETRY_MS") * 2 ** Math.max(0, attempts - 1),
    exhausted: (job: ClaimedJob) =>
      failExtraction(job, "The server stopped (killed or crashed) during each attempt; it is not tried again."),
  }),
};

async function runExtraction(job: ClaimedJob): Promise<void> {
  const orgId = job.orgId!;
  const payload = job.payload as unknown as ExtractionPayload;
  const sources = await readSources(orgId, payload);
  // Forgotten meanwhile, or applied by a run whose process died before it could end the job.
  if (sources.length === 0 || sources[0].inference?.status === "done") return;
  const state = sources[0].inference;
  const spentBefore = state?.tokens ?? 0;
  const model = state?.model ?? (setting("CHAT_MODEL") || "gpt-4o-mini");
  const ids = sources.map((s) => s.id);
  const running = { attempts: job.attempts, tokens: spentBefore, facts: [], model };
  await onConnection((tx) => setInferenceState(tx, orgId, ids, { ...running, status: "running", error: null }));
  let decisions: ModelDecisions;
  try {
    if (!openAIConfigured())
      throw new PermanentJobError("No chat model is configured (OPENAI_BASE_URL, OPENAI_API_KEY).");
    const current = await currentStatements(orgId, payload.namespace_id, sources);
    decisions = await askModel(
      sources.map((s) => ({ content: s.content, validAt: s.valid_at, role: s.role })),
      current.map((c) => ({ content: c.content, validAt: c.valid_at })),
      setting("INFER_TOKEN_BUDGET") - spentBefore,
    );
    await applyDecisions(job, orgId, payload.namespace_id, sources, current, {
      ...decisions,
      tokens: spentBefore + decisions.tokens,
    });
  } catch (error) {
    const message = (error as Error).message;
    const tokens = spentBefore + (error instanceof ModelUnavailableError ? error.tokens : 0);
    if (
      error instanceof PermanentJobError ||
      (!(error instanceof RetryLaterError) && job.attempts >= job.maxAttempts)
    ) {
      await failExtraction(job, message, tokens);
    } else {
      const attempts = error instanceof RetryLaterError ? job.attempts - 1 : job.attempts;
      await onConnection((tx) =>
        setInferenceState(tx, orgId, ids, { ...running, attempts, tokens, status: "queued", error: message }),
      );
    }
    throw error;
  }
}

/** The job's memories that still exist, in the order they were written. */
async function readSources(orgId: string, payload: ExtractionPayload): Promise<SourceRow[]> {
  const prisma = await db();
  return prisma.$queryRaw<SourceRow[]>(
    Prisma.sql`SELECT id, content, role, valid_at, expires_at, identity_id, scopes, api_key_id, inference
               FROM memories
               WHERE org_id = ${orgId} AND namespace_id = ${payload.namespace_id}
                 AND id = ANY(${payload.memory_ids}::text[])
               ORDER BY created_at, session_position NULLS FIRST, id`,
  );
}

/**
 * The statements that hold now of the sources' identity, in their namespace and with exactly their scopes (never
 * another's), nearest to each source first (the vector leg of recall, on the sources' stored embeddings): not
 * conversation turns or document passages, which state no slot of their own.
 */
async function currentStatements(orgId: string, namespaceId: string, sources: SourceRow[]): Promise<CurrentRow[]> {
  const prisma = await db();
  const { identity_id: identityId, scopes } = sources[0];
  const found = new Map<string, CurrentRow>();
  for (const source of sources.slice(-SOURCES_LOOKED_UP).reverse()) {
    const near = await prisma.$queryRaw<CurrentRow[]>(
      Prisma.sql`SELECT m.id, m.content, m.valid_at
                 FROM memories m
                 JOIN memory_chunks c ON c.memory_id = m.id AND c.org_id = ${orgId} AND c.position = 0
                 WHERE m.org_id = ${orgId} AND m.namespace_id = ${namespaceId}
                   AND m.identity_id IS NOT DISTINCT FROM ${identityId}
                   AND m.scopes = ${JSON.stringify(scopes)}::jsonb
                   AND m.invalid_at IS NULL AND m.session_id IS NULL AND m.document_id IS NULL
                   AND NOT m.id = ANY(${sources.map((s) => s.id)}::text[])
                   AND ${Prisma.raw(notExpiredSql("m"))}
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
 * identity and scopes, since their source's valid_at, each closing the current statements it replaces; closes
 * those it says stopped holding; and marks the sources done with a `memory.inference.completed` event: one
 * transaction with the last of the facts.
 */
async function applyDecisions(
  job: ClaimedJob,
  orgId: string,
  namespaceId: string,
  sources: SourceRow[],
  current: CurrentRow[],
  decisions: ModelDecisions,
): Promise<void> {
  const { answer, model, tokens } = decisions;
  const how: Supersession = { kind: "model", basis: `${model}: a newer statement of the same slot` };
  const principal: InferencePrincipal = {
    kind: "inference",
    orgId,
    namespaceId,
    jobId: job.id,
    requester: sources[0].api_key_id ?? `inference:${namespaceId}`,
    permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
    scopes: sources[0].scopes,
  };
  const items: RememberItem[] = answer.facts
    .filter((fact) => fact.action !== "ignore")
    .map((fact) => {
      const from = [...new Set(fact.sources)].map((n) => sources[n - 1]);
      const validAt = new Date(Math.max(...from.map((s) => s.valid_at.getTime())));
      const replaces = [...new Set(fact.replaces)].map((n) => current[n - 1].id);
      return {
        content: fact.text,
        fact_key: fact.fact_key,
        identity_id: sources[0].identity_id ?? undefined,
        occurred_at: validAt.toISOString(),
        valid_at: validAt.toISOString(),
        ...(from[0].expires_at && { expires_at: from[0].expires_at.toISOString() }),
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
    if (locked.length < ids.length || locked.some((row) => row.inference?.status === "done"))
      throw new NothingToApply();
    const invalidated = await invalidate(
      tx,
      orgId,
      namespaceId,
      sources,
      [...new Set(answer.invalidate)].map((n) => current[n - 1].id),
      how,
    );
    await setInferenceState(tx, orgId, ids, {
      status: "done",
      attempts: job.attempts,
      tokens,
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
      { namespace_id: namespaceId },
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
    if (!(error instanceof NothingToApply)) throw error;
  }
}

/**
 * Closes the current statements the model says stopped holding (those that still hold), at the latest source's
 * valid_at (never before their own), by the first source. Returns their ids.
 */
async function invalidate(
  tx: Tx,
  orgId: string,
  namespaceId: string,
  sources: SourceRow[],
  memoryIds: string[],
  how: Supersession,
): Promise<string[]> {
  if (memoryIds.length === 0) return [];
  await lockSlot(tx, namespaceId, `identity\u001f${sources[0].identity_id ?? ""}`);
  const holding = await tx.$queryRaw<{ id: string; valid_at: Date }[]>(
    Prisma.sql`SELECT id, valid_at FROM memories
               WHERE org_id = ${orgId} AND id = ANY(${memoryIds}::text[]) AND invalid_at IS NULL
               ORDER BY id FOR UPDATE`,
  );
  const at = Math.max(...sources.map((s) => s.valid_at.getTime()));
  await closeMemories(
    tx,
    orgId,
    holding.map((row) => ({
      memoryId: row.id,
      invalidAt: new Date(Math.max(at, row.valid_at.getTime())),
      supersededBy: sources[0].id,
      supersession: { ...how, basis: `${how.basis?.split(":")[0]}: the new memory says it no longer holds` },
    })),
  );
  return holding.map((row) => row.id);
}

/** Marks the job's memories failed (they stay as written) with a `memory.inference.failed` event. */
async function failExtraction(job: ClaimedJob, error: string, tokens?: number): Promise<void> {
  const orgId = job.orgId!;
  const payload = job.payload as unknown as ExtractionPayload;
  const sources = await readSources(orgId, payload);
  if (sources.length === 0) return;
  const state = sources[0].inference;
  const ids = sources.map((s) => s.id);
  await (
    await db()
  ).$transaction(async (tx) => {
    await setInferenceState(tx, orgId, ids, {
      status: "failed",
      attempts: Math.min(job.attempts, job.maxAttempts),
      tokens: tokens ?? state?.tokens ?? 0,
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
