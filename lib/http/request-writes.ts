// What a request under an Idempotency-Key wrote, to be kept in the transaction that keeps its answer or
// rolled back with a released key (lib/http/idempotency.ts). The domain's writes register themselves here
// (lib/memory/store/write-intents.ts) through the request's async context, so this layer knows none of them.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { setting } from "@/lib/config";
import type { Tx } from "@/lib/db";

/** A write made under an Idempotency-Key claim. */
export interface KeptWrite {
  /** In the answer's transaction: the write is whole. Throws if it was rolled back meanwhile. */
  keep(tx: Tx): Promise<void>;
  /** The answer is not kept: nothing of the write stays. */
  rollBack(): Promise<void>;
  /** After keep's transaction committed. */
  settle(): void;
}

/** The request holding a claim: its record (`org:apiKey:keyHash`) and the writes it made. */
export interface IdempotencyScope {
  key: string;
  writes: KeptWrite[];
  /** Keeps `data` as the request's answer in the write's own transaction (throws if the claim was lost). */
  keepAnswer?: (tx: Tx, status: number, data: unknown) => Promise<void>;
}

// On globalThis: Next bundles each route module with its own copy of this module; one process, one state.
const state = globalThis as typeof globalThis & {
  __memgwProcessId?: string;
  __memgwIdempotencyScope?: AsyncLocalStorage<IdempotencyScope>;
  __memgwCrashPointCounts?: Record<string, number>;
};
/** This process, as idempotency claims and write intents name their owner. */
export const processId = (state.__memgwProcessId ??= randomUUID());
const scopes = (state.__memgwIdempotencyScope ??= new AsyncLocalStorage<IdempotencyScope>());

/** Runs `work` as the request holding an Idempotency-Key claim. */
export function runUnderIdempotencyKey<T>(scope: IdempotencyScope, work: () => Promise<T>): Promise<T> {
  return scopes.run(scope, work);
}

/** The claim of the request running now, if it holds one. */
export function currentIdempotencyScope(): IdempotencyScope | undefined {
  return scopes.getStore();
}

/**
 * A write of one transaction under an Idempotency-Key keeps its answer (the operation's `data` and success
 * status, as the API answers it) in that transaction: the change and the answer the retry replays commit
 * together, so a process dying before the answer was kept otherwise cannot have the change done twice.
 * Outside such a request, nothing.
 */
export async function keepAnswerWithWrite(tx: Tx, status: number, data: unknown): Promise<void> {
  await currentIdempotencyScope()?.keepAnswer?.(tx, status, data);
}

/**
 * Test failpoints: the server kills itself (SIGKILL, as `kill -9` would) when MEMGW_TEST_CRASH_AT names the
 * point it reaches (e.g. `remember.group.2`: after the second group of a remember committed), or with
 * `name*n` the n-th time it reaches it. Unset, nothing.
 */
export function crashPoint(name: string): void {
  const wanted = setting("MEMGW_TEST_CRASH_AT");
  if (!wanted) return;
  const [point, times = "1"] = wanted.split("*");
  if (point !== name) return;
  const counts = (state.__memgwCrashPointCounts ??= {});
  counts[name] = (counts[name] ?? 0) + 1;
  if (counts[name] !== Number(times)) return;
  console.error(`[memgw] MEMGW_TEST_CRASH_AT=${wanted}: killing this process`);
  process.kill(process.pid, "SIGKILL");
}
