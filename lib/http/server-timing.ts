import { AsyncLocalStorage } from "node:async_hooks";
import { setting } from "@/lib/config";

/**
 * Where a request's time goes, stage by stage, answered in a `Server-Timing` header (W3C Server Timing)
 * when MEMGW_SERVER_TIMING=1: the benchmark reads it to report its breakdown, an operator to see why a
 * request is slow. Off by default, as it tells a caller how long the gateway spent authenticating them.
 * A stage entered twice adds up; stages may overlap (the query's embedding runs beside the lexical leg).
 */
const requestStages = new AsyncLocalStorage<Map<string, number>>();

export function serverTimingEnabled(): boolean {
  return setting("MEMGW_SERVER_TIMING");
}

/** Runs `work` with its stages recorded, when timing is on; `header()` then gives the header's value. */
export function withStageTimes<T>(work: () => Promise<T>): { result: Promise<T>; header: () => string | undefined } {
  if (!serverTimingEnabled()) return { result: work(), header: () => undefined };
  const stages = new Map<string, number>();
  const started = performance.now();
  const result = requestStages.run(stages, work);
  return {
    result,
    header: () => {
      stages.set("total", performance.now() - started);
      return [...stages].map(([name, ms]) => `${name};dur=${ms.toFixed(2)}`).join(", ");
    },
  };
}

/** Times `work` as the stage `name` of the current request (nothing when timing is off or outside a request). */
export async function timedStage<T>(name: string, work: () => Promise<T>): Promise<T> {
  const stages = requestStages.getStore();
  if (!stages) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    stages.set(name, (stages.get(name) ?? 0) + performance.now() - started);
  }
}
