// A webhook receiver on loopback, as an application would run one: it verifies every message's signature with
// the `standardwebhooks` package and the endpoint's secret, and records what it accepted, in order.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedMessage {
  id: string;
  type: string;
  /** The event, as GET /events shows it. */
  data: {
    id: string;
    namespace_id: string | null;
    identity_id: string | null;
    data: Record<string, unknown>;
    content?: string | null;
  };
  signatures: number;
}

export interface Receiver {
  url: string;
  /** Messages whose signature verified and that were answered 2xx, in the order they arrived. */
  messages: ReceivedMessage[];
  /** Every request, verified or not, with the status it was answered. */
  requests: { id: string; status: number; verified: boolean }[];
  /** The secrets a message may be signed with (a rotation adds one). */
  secrets: string[];
  /** The status to answer with (200 unless set); a function sees the request's message first. */
  answer: number | ((message: ReceivedMessage) => number);
  /** Milliseconds before each answer (0 unless set). */
  delayMs: number;
  ofType(type: string): ReceivedMessage[];
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: "",
    messages: [],
    requests: [],
    secrets: [],
    answer: 200,
    delayMs: 0,
    ofType: (type) => receiver.messages.filter((message) => message.type === type),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(request.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(request.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(request.headers["webhook-signature"] ?? ""),
      };
      const verified = receiver.secrets.some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const parsed = JSON.parse(body) as { type: string; data: ReceivedMessage["data"] };
      const message = {
        id: headers["webhook-id"],
        type: parsed.type,
        data: parsed.data,
        signatures: headers["webhook-signature"].split(" ").length,
      };
      const status = !verified
        ? 401
        : typeof receiver.answer === "function"
          ? receiver.answer(message)
          : receiver.answer;
      receiver.requests.push({ id: message.id, status, verified });
      if (status >= 200 && status < 300) receiver.messages.push(message);
      if (status >= 300 && status < 400) response.setHeader("location", "http://169.254.169.254/latest/meta-data/");
      response.statusCode = status;
      setTimeout(() => response.end(), receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
