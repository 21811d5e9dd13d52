// The client of the benchmarks that measure recall while the server works on something else (a sync, a
// document): one namespace of SciFact abstracts, recalled from one request after another.
import { apiCaller, describeFigures, figures, type RecallFigures } from "./api-client";
import type { Dataset } from "./beir";

/** Abstracts in the namespace recalled from: the first ones of the corpus (the work measured takes later ones). */
export const RECALLED_MEMORIES = 2_000;
const REMEMBER_BATCH = 100;
const IDLE_QUERIES = 200;
/** Unmeasured recalls before the idle measure, so that neither measure pays for first-use compilation. */
export const RECALL_WARM_UP_QUERIES = 20;
/** How often the client asks how the work stands, between two of its recalls. */
const STATUS_EVERY_MS = 1_000;

/** A recall query as a person types it: the claim's first eight words. */
const shortQuery = (text: string) => text.split(/\s+/).slice(0, 8).join(" ");

/**
 * Stores the abstracts in a new namespace "papers", warms up, and measures recall idle. `whileWorking` then
 * recalls one query after another, asking `status` now and then, until it answers a result: that result, and
 * the recalls made meanwhile.
 */
export async function recallingClient(
  call: ReturnType<typeof apiCaller>,
  scifact: Dataset,
  log: (line: string) => void,
) {
  const recalled = scifact.docs.slice(0, RECALLED_MEMORIES).map((d) => (d.title ? `${d.title}\n${d.text}` : d.text));
  const queries = scifact.queries.map((q) => shortQuery(q.text));
  const measured = queries.slice(0, IDLE_QUERIES);
  const papers = await call("POST", "/namespaces", { name: "papers" });
  const loadStarted = performance.now();
  for (let start = 0; start < recalled.length; start += REMEMBER_BATCH) {
    const memories = recalled.slice(start, start + REMEMBER_BATCH).map((content) => ({ content }));
    await call("POST", "/remember", { namespace_id: papers.id, memories });
  }
  log(
    `  ${recalled.length} memories stored in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s; ` +
      `${RECALL_WARM_UP_QUERIES} unmeasured warm-up recalls`,
  );
  const recallOnce = async (query: string) => {
    const started = performance.now();
    await call("POST", "/recall", { namespace_id: papers.id, query, top_k: 10 });
    return performance.now() - started;
  };
  for (const query of queries.slice(IDLE_QUERIES, IDLE_QUERIES + RECALL_WARM_UP_QUERIES)) await recallOnce(query);
  const idleLatencies: number[] = [];
  for (const query of measured) idleLatencies.push(await recallOnce(query));
  const idle = figures(idleLatencies);
  log(`  recall idle: ${describeFigures(idle)}`);

  async function whileWorking<T>(status: () => Promise<T | undefined>): Promise<{ done: T; recall: RecallFigures }> {
    const latencies: number[] = [];
    let statusAsked = 0;
    for (let next = 0; ; next += 1) {
      if (Date.now() - statusAsked >= STATUS_EVERY_MS) {
        statusAsked = Date.now();
        const done = await status();
        if (done !== undefined) return { done, recall: figures(latencies) };
      }
      latencies.push(await recallOnce(measured[next % measured.length]));
    }
  }
  return { memories: recalled.length, idle, whileWorking };
}
