// How webhook POSTs use connections: deliveries to one receiver share a kept connection, and a kept
// connection the receiver resets as a POST goes out costs nothing but a second try on a new one.
import http from "node:http";
import net from "node:net";
import { afterEach, beforeEach, expect, test } from "vitest";
import { postOutbound } from "@/lib/net/post-outbound";

beforeEach(() => {
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
});
afterEach(() => {
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
});

async function listening(server: net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`;
}

test("five POSTs to one receiver go over one connection", async () => {
  let connections = 0;
  const bodies: string[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      bodies.push(body);
      response.end("ok");
    });
  });
  server.on("connection", () => connections++);
  const url = await listening(server);
  try {
    for (let i = 0; i < 5; i++) {
      const answer = await postOutbound(url, JSON.stringify({ i }), {}, 5000);
      expect(answer.status).toBe(200);
    }
    expect(bodies).toEqual([0, 1, 2, 3, 4].map((i) => JSON.stringify({ i })));
    expect(connections).toBe(1);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("a kept connection reset as the next POST arrives: the POST is sent again on a new connection", async () => {
  // A raw receiver: its first connection answers one request and keeps the connection, then resets it on
  // the second; every later connection answers.
  const seen: number[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    const connection = ++connections;
    let requests = 0;
    socket.on("data", (chunk) => {
      if (!chunk.toString("latin1").includes("\r\n\r\n")) return;
      requests++;
      seen.push(connection);
      if (connection === 1 && requests === 2) return socket.resetAndDestroy();
      socket.write("HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\nKeep-Alive: timeout=30\r\n\r\n");
    });
  });
  const url = await listening(server);
  try {
    expect((await postOutbound(url, "{}", {}, 5000)).status).toBe(204);
    expect((await postOutbound(url, "{}", {}, 5000)).status).toBe(204);
    expect(seen).toEqual([1, 1, 2]);
  } finally {
    server.close();
  }
});

test("a receiver that resets a new connection: the POST fails, with the reason, and is not sent again", async () => {
  let attempts = 0;
  const server = net.createServer((socket) => {
    socket.on("data", () => {
      attempts++;
      socket.resetAndDestroy();
    });
  });
  const url = await listening(server);
  try {
    await expect(postOutbound(url, "{}", {}, 5000)).rejects.toThrow("The request failed: ECONNRESET.");
    expect(attempts).toBe(1);
  } finally {
    server.close();
  }
});
