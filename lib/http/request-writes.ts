// What a request under an Idempotency-Key wrote, to be kept in the transaction that keeps its answer or
// rolled back with a released key (lib/http/idempotency.ts). The domain's writes register themselves here
// (lib/memory/write-intents.ts) through the request's async context, so this layer knows none of them.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
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
}

// On globalThis: Next bundles each route module with its own copy of this module; one process, one state.
const state = globalThis as typeof globalThis & {
  __memgwProcessId?: string;
  __memgwIdempotencyScope?: AsyncLocalStorage<IdempotencyScope>;
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
 * Test failpoints: the server kills itself (SIGKILL, as `kill -9` would) when MEMGW_TEST_CRASH_AT names the
 * point it reaches (e.g. `remember.group.2`: after the second group of a remember committed). Unset, nothing.
 */
export function crashPoint(name: string): void {
  if (process.env["MEMGW_TEST_CRASH_AT"] === name) {
    console.error(`[memgw] MEMGW_TEST_CRASH_AT=${name}: killing this process`);
    process.kill(process.pid, "SIGKILL");
  }
}
