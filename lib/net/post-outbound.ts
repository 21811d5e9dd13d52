import http from "node:http";
import https from "node:https";
import { checkOutboundUrl, outboundHttpOptions } from "./outbound";

/** What a user-set URL answered to a POST: its status (a redirect is an answer, not followed), how long it took. */
export interface PostAnswer {
  status: number;
  latencyMs: number;
}

/** Why a POST got no answer, in a sentence to show the person who set the URL (the delivery log). */
export class PostFailedError extends Error {
  constructor(
    message: string,
    readonly latencyMs: number,
  ) {
    super(message);
    this.name = "PostFailedError";
  }
}

/** Of an answer's body, only this much is read (and dropped): a receiver cannot make the server hold more. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs `body` to a URL a user set (a webhook endpoint), under the outbound rules (lib/net/outbound.ts): https
 * only, public addresses only, checked when connecting after DNS. Redirects are not followed: a 3xx is the
 * answer. The whole exchange takes at most `timeoutMs`.
 */
export async function postOutbound(
  value: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostAnswer> {
  const url = checkOutboundUrl(value);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = AbortSignal.timeout(timeoutMs);
  return new Promise<PostAnswer>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const { agent, lookup } = outboundHttpOptions();
    const request = client.request(
      url,
      {
        method: "POST",
        // The guarded agent is an https one: plain http (allowed only by ALLOW_PRIVATE_OUTBOUND) uses the lookup alone.
        ...(url.protocol === "https:" && agent ? { agent } : { lookup, agent: false }),
        signal: deadline,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "MemoryGateway/0.1 (+webhooks)",
        },
      },
      (response) => {
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const answered = () => resolve({ status: response.statusCode ?? 0, latencyMs: elapsed() });
        response.on("end", answered);
        response.on("close", answered);
        response.on("error", answered);
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => reject(postError(error, deadline, timeoutMs, elapsed())));
    request.end(body);
  });
}

function postError(error: NodeJS.ErrnoException, deadline: AbortSignal, timeoutMs: number, latencyMs: number) {
  if (deadline.aborted) return new PostFailedError(`No answer within ${timeoutMs / 1000} s.`, latencyMs);
  if (error.code === "EOUTBOUNDREFUSED") return new PostFailedError(error.message, latencyMs);
  if (error.code === "ENOTFOUND") return new PostFailedError("The URL's host does not resolve.", latencyMs);
  if (error.code === "ECONNREFUSED") return new PostFailedError("The connection was refused.", latencyMs);
  return new PostFailedError(`The request failed: ${error.code ?? error.message}.`, latencyMs);
}
