import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/**
 * A local OpenAI-compatible HTTP server. Embeddings are a deterministic bag of hashed words, so
 * texts sharing words are close; `chat` decides each chat completion reply (`hang`: none, the connection
 * stays open until the client gives up; `headers`: e.g. a 429's Retry-After).
 */
export async function startOpenAIServer(
  options: {
    chat?: (
      body: any,
      request: RecordedRequest,
    ) => { status?: number; json?: unknown; hang?: boolean; headers?: Record<string, string> };
  } = {},
) {
  const requests: RecordedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const recorded = { path: req.url ?? "", headers: req.headers, body };
    requests.push(recorded);
    const reply = (status: number, json: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(json));
    if (req.url?.endsWith("/embeddings")) {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const dimensions = body.dimensions ?? 1536;
      return reply(200, {
        object: "list",
        model: body.model,
        data: inputs.map((text, index) => ({ object: "embedding", index, embedding: bagOfWords(text, dimensions) })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    }
    if (req.url?.endsWith("/chat/completions") && options.chat) {
      const { status = 200, json, hang = false, headers } = options.chat(body, recorded);
      if (!hang) reply(status, json, headers);
      return;
    }
    reply(404, { error: { message: "not here" } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function bagOfWords(text: string, dimensions: number): number[] {
  const vector = new Array(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    vector[createHash("md5").update(word).digest().readUInt32LE(0) % dimensions] += 1;
  }
  if (vector.every((v) => v === 0)) vector[0] = 1;
  return vector;
}
