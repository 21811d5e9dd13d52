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
 * `call(method, path, body)` → the envelope's data, for a key of the server at `base`. node:http rather than
 * fetch: fetch gives up on a response that takes over 300 s (a batch may, on a busy machine).
 */
export function apiCaller(base: string, apiKey: string) {
  return (method: string, urlPath: string, body?: unknown) =>
    new Promise<any>((resolve, reject) => {
      const request = http.request(`${base}/api/v1${urlPath}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      });
      request.on("error", reject);
      request.on("response", (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (part) => (text += part));
        response.on("end", () => {
          if ((response.statusCode ?? 500) >= 300)
            reject(new Error(`${method} ${urlPath}: ${response.statusCode} ${text.slice(0, 500)}`));
          else resolve(JSON.parse(text).data);
        });
      });
      request.end(body === undefined ? undefined : JSON.stringify(body));
    });
}

/** Waits until the server's embedder has loaded (its first recalls would otherwise measure that). */
export async function embeddingsReady(base: string) {
  while ((await (await fetch(`${base}/api/v1/health`)).json()).data.embeddings !== "ready")
    await new Promise((r) => setTimeout(r, 200));
}
