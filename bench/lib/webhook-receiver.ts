// A webhook receiver on loopback for the webhooks benchmark: it verifies each message's Standard Webhooks
// signature with the `standardwebhooks` package, records every request (its webhook-id, the memory of a
// memory.created event, when it came, how and when it was answered), and can answer slowly, answer 503, or
// stop listening (connection refused) and come back on the same port.
import http from "node:http";
import type net from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedRequest {
  webhookId: string;
  type: string;
  namespaceId: string | null;
  memoryId: string | null;
  /** performance.now() when the request's body had arrived. */
  at: number;
  /** The status answered. */
  status: number;
  /** performance.now() when the answer was handed to the connection; undefined if it never was. */
  answeredAt?: number;
  verified: boolean;
}

export type ReceiverMode = "ok" | "unavailable";

export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** The first request of each webhook-id that was answered 2xx, in the order they came. */
  readonly firstOk = new Map<string, ReceivedRequest>();
  /** The same requests by the memory of their memory.created event. */
  readonly okByMemory = new Map<string, ReceivedRequest>();
  /** Requests of a webhook-id received again after a 2xx answer to it had been handed over. */
  againAfterOk = 0;
  signatureFailures = 0;
  mode: ReceiverMode = "ok";
  /** Milliseconds before each answer. */
  delayMs = 0;
  private webhook?: Webhook;
  private server?: http.Server;
  private readonly sockets = new Set<net.Socket>();
  private waiters: (() => void)[] = [];
  port = 0;

  get url() {
    return `http://127.0.0.1:${this.port}/hooks/memory`;
  }

  /** The endpoint's secret, once it is made (requests before it count as signature failures). */
  set secret(secret: string) {
    this.webhook = new Webhook(secret);
  }

  /** Requests received but not yet answered. */
  get inFlight() {
    return this.requests.filter((r) => r.answeredAt === undefined).length;
  }

  async listen(port = 0): Promise<void> {
    const server = http.createServer((request, response) => this.handle(request, response));
    server.keepAliveTimeout = 5_000;
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  /** Stops listening and drops every connection: deliveries meet a refused connection until listen() again. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Resolves once `done()` holds, checked at each 2xx answer (and now); rejects after `timeoutMs`. */
  until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`webhooks benchmark: ${what} did not happen within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(request.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(request.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(request.headers["webhook-signature"] ?? ""),
      };
      let verified: boolean;
      try {
        this.webhook?.verify(body, headers);
        verified = this.webhook !== undefined;
      } catch {
        verified = false;
      }
      if (!verified) this.signatureFailures += 1;
      let message: { type?: string; data?: { namespace_id?: string | null; data?: { memory_id?: string } } } = {};
      try {
        message = JSON.parse(body);
      } catch {
        // counted below as a request without a type
      }
      const status = this.mode === "unavailable" ? 503 : 204;
      const received: ReceivedRequest = {
        webhookId: headers["webhook-id"],
        type: message.type ?? "",
        namespaceId: message.data?.namespace_id ?? null,
        memoryId: message.data?.data?.memory_id ?? null,
        at: performance.now(),
        status,
        verified,
      };
      this.requests.push(received);
      const earlier = this.firstOk.get(received.webhookId);
      if (earlier?.answeredAt !== undefined) this.againAfterOk += 1;
      const answer = () => {
        response.on("finish", () => {
          received.answeredAt = performance.now();
          if (status < 300 && !this.firstOk.has(received.webhookId)) {
            this.firstOk.set(received.webhookId, received);
            if (received.memoryId) this.okByMemory.set(received.memoryId, received);
          }
          for (const waiter of [...this.waiters]) waiter();
        });
        response.writeHead(status).end();
      };
      if (this.delayMs > 0) setTimeout(answer, this.delayMs);
      else answer();
    });
  }
}
