// A proxy in front of the real server that fails chosen requests the way networks and servers do: a 503 or
// a 429 before the request reaches the server, a 500, or the request carried out and its answer replaced by
// a 503 (the write happened; the client never heard). Everything else passes through untouched.
import http from "node:http";
import type net from "node:net";

export type Fault =
  | { kind: "answer"; status: number; headers?: Record<string, string> }
  | { kind: "forward-then-answer"; status: number }
  | { kind: "hang" };

export interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  at: number;
}

export interface FaultProxy {
  url: string;
  seen: SeenRequest[];
  /** The next request matching `method` and `path` (a prefix) meets `fault`; faults queue in order. */
  fail(method: string, path: string, fault: Fault): void;
  close(): Promise<void>;
}

const envelope = (status: number) =>
  JSON.stringify({
    success: false,
    error: {
      code: status === 429 ? "RATE_LIMITED" : "SERVICE_UNAVAILABLE",
      message: `Injected ${status}.`,
      details: [],
    },
  });

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const faults: { method: string; path: string; fault: Fault }[] = [];
  const seen: SeenRequest[] = [];
  const server = http.createServer(async (request, response) => {
    const path = request.url ?? "/";
    seen.push({
      method: request.method ?? "",
      path,
      idempotencyKey: request.headers["idempotency-key"] as string | undefined,
      at: Date.now(),
    });
    const index = faults.findIndex((f) => f.method === request.method && path.startsWith(f.path));
    const fault = index >= 0 ? faults.splice(index, 1)[0].fault : undefined;
    if (fault?.kind === "hang") return;
    if (fault?.kind === "answer") {
      request.resume();
      response.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
      return response.end(envelope(fault.status));
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name)),
    ) as Record<string, string>;
    const answer = await fetch(target + path, {
      method: request.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await answer.arrayBuffer());
    if (fault?.kind === "forward-then-answer") {
      response.writeHead(fault.status, { "content-type": "application/json" });
      return response.end(envelope(fault.status));
    }
    const passed = Object.fromEntries(
      [...answer.headers].filter(
        ([name]) => !["content-encoding", "content-length", "transfer-encoding"].includes(name),
      ),
    );
    response.writeHead(answer.status, passed);
    response.end(body);
  });
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    fail: (method, path, fault) => faults.push({ method, path, fault }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
