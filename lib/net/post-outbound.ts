import http from "node:http";
import https from "node:https";
import { checkOutboundUrl, guardedHttpsAgent, outboundLookup, privateOutboundAllowed } from "./outbound";

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

// Deliveries to one endpoint come in bursts: reusing its connection spares a TCP (and TLS) handshake per
// POST, the largest part of a delivery's cost. An idle connection is closed after 30 s (most servers close
// theirs sooner); at most 256 are open at once, across every endpoint.
const CONNECTION_REUSE = { keepAlive: true, timeout: 30_000, maxTotalSockets: 256 };
let guardedAgent: https.Agent | undefined;
let privateAgents: { http: http.Agent; https: https.Agent } | undefined;

/**
 * The agent for a URL: the guarded https one; with ALLOW_PRIVATE_OUTBOUND (plain http allowed, which no
 * https agent serves) plain agents, whose connections still go through the guarded lookup.
 */
function agentFor(url: URL): http.Agent {
  if (!privateOutboundAllowed()) return (guardedAgent ??= guardedHttpsAgent(CONNECTION_REUSE));
  privateAgents ??= { http: new http.Agent(CONNECTION_REUSE), https: new https.Agent(CONNECTION_REUSE) };
  return url.protocol === "https:" ? privateAgents.https : privateAgents.http;
}

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
  const attempt = (mayRetry: boolean) =>
    new Promise<PostAnswer>((resolve, reject) => {
      const client = url.protocol === "https:" ? https : http;
      const request = client.request(
        url,
        {
          method: "POST",
          agent: agentFor(url),
          lookup: outboundLookup as http.RequestOptions["lookup"],
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
      request.on("error", (error: NodeJS.ErrnoException) => {
        // A kept connection the receiver closed as the POST went out fails before any answer: sent once more,
        // on a new connection (a receiver de-duplicates by webhook-id; this is at most the same message again).
        if (mayRetry && request.reusedSocket && error.code === "ECONNRESET" && !deadline.aborted)
          return resolve(attempt(false));
        reject(postError(error, deadline, timeoutMs, elapsed()));
      });
      request.end(body);
    });
  return attempt(true);
}

function postError(error: NodeJS.ErrnoException, deadline: AbortSignal, timeoutMs: number, latencyMs: number) {
  if (deadline.aborted) return new PostFailedError(`No answer within ${timeoutMs / 1000} s.`, latencyMs);
  if (error.code === "EOUTBOUNDREFUSED") return new PostFailedError(error.message, latencyMs);
  if (error.code === "ENOTFOUND") return new PostFailedError("The URL's host does not resolve.", latencyMs);
  if (error.code === "ECONNREFUSED") return new PostFailedError("The connection was refused.", latencyMs);
  return new PostFailedError(`The request failed: ${error.code ?? error.message}.`, latencyMs);
}
