// The benchmarks' API client for a server started with tests/helpers/server.ts, and their latency figures.
import http from "node:http";
import { percentile } from "./percentile";

export interface RecallFigures {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
}

export function figures(latencies: number[]): RecallFigures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

export function describeFigures(f: RecallFigures) {
  return `${f.requests} requests, p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms`;
}

export function figuresRow(f: RecallFigures) {
  return `${f.requests} | ${f.p50.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.p99.toFixed(1)}`;
}

/**
 * The benchmarks' connections, kept open between calls as a client library keeps them. An idle one is closed after
 * 5 s (as Node's default agent does), well before the server's 65 s: a call on a connection the server is closing
 * meets a reset instead of an answer (scripts/http-server.mjs, keepAliveTimeout).
 */
const keptAlive = new http.Agent({ keepAlive: true, timeout: 5_000 });

/** How the benchmarks' client sends, as results record it (`client`); results without it were sent with fetch. */
export const BENCH_CLIENT = "node:http on kept-alive connections";

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body, decoded as UTF-8. */
  text: string;
}

/**
 * POSTs (or `method`s) `body` as JSON to `url` with the API key, over node:http on kept-alive connections, and
 * resolves with the whole answer, whatever its status; rejects when no whole answer came (a refused connection, or
 * one cut before the answer's end).
 * node:http rather than fetch: fetch gives up on a response that takes over 300 s (a batch may, on a busy machine),
 * and the benchmark's client shares the two cores with the server it measures: at 8 clients fetch cost this process
 * 1.2–2.1 ms of CPU a recall, node:http 0.6–0.86 ms (bench/client-cost.ts; docs/decisions.md, Benchmarks).
 */
export function sendJson(url: string, apiKey: string, body?: unknown, method = "POST"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method,
      agent: keptAlive,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    });
    request.on("error", reject);
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (part) => (text += part));
      response.on("end", () => resolve({ status: response.statusCode ?? 500, headers: response.headers, text }));
      response.on("error", reject);
    });
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * An answer's envelope data; for a status of 300 or more, an error naming `what` (the call), the status and the
 * body's first 500 characters, before anything is parsed (an error body need not be JSON).
 */
export function dataOf(answer: Answer, what: string): any {
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 500)}`);
  return JSON.parse(answer.text).data;
}

/** `call(method, path, body)` → the envelope's data, for a key of the server at `base` (sendJson, dataOf). */
export function apiCaller(base: string, apiKey: string) {
  return async (method: string, urlPath: string, body?: unknown) =>
    dataOf(await sendJson(`${base}/api/v1${urlPath}`, apiKey, body, method), `${method} ${urlPath}`);
}

/** Waits until the server's embedder has loaded (its first recalls would otherwise measure that). */
export async function embeddingsReady(base: string) {
  while ((await (await fetch(`${base}/api/v1/health`)).json()).data.embeddings !== "ready")
    await new Promise((r) => setTimeout(r, 200));
}
