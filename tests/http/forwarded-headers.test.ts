// Forwarded headers (X-Forwarded-Host, -Proto, Forwarded) count only when the connection comes from a proxy named
// in TRUSTED_PROXIES, against the production build (`npm start`, over HTTP): a console server action with a foreign
// Origin and a forged X-Forwarded-Host that matches it is refused and creates nothing; from the trusted proxy the
// forwarded host is honoured, by the action's check and by the origin the console shows in its curl commands.
// The server trusts 127.0.0.2 only: requests from 127.0.0.1 are a client's, from 127.0.0.2 the proxy's.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildIfNeeded, distDir } from "../../scripts/build-if-needed.mjs";
import { freePort, startServer, type RunningServer } from "../helpers/server";
import { newDataDir } from "../helpers/embedded-template";

// The same build directory as tests/startup/server.test.ts (builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";

const PROXY = "127.0.0.2";
const INIT = {
  MEMGW_INIT_ORG_NAME: "Proxy Inc",
  MEMGW_INIT_USER_EMAIL: "owner@proxy.example",
  MEMGW_INIT_USER_PASSWORD: "a long owner password",
  MEMGW_INIT_API_KEY: "mgw_forwardedHeadersBootstrapKey0123456789",
};

const dir = newDataDir("memgw-forwarded-");
let server: RunningServer;
let port: number;
let createWebhookAction: string;
let cookie = "";
let slug: string;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request to the server from `from` (a loopback address: 127.0.0.1 a client, 127.0.0.2 the trusted proxy). */
function send(
  from: string,
  method: string,
  urlPath: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, localAddress: from, method, path: urlPath, headers: { cookie, ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** The webhooks page's "add an endpoint" server action, as the browser's fetch sends it. */
function addEndpoint(from: string, url: string, headers: Record<string, string>) {
  return send(
    from,
    "POST",
    `/${slug}/webhooks`,
    {
      "next-action": createWebhookAction,
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      ...headers,
    },
    JSON.stringify([slug, { url }]),
  );
}

/** The endpoints' URLs the console's webhooks page lists. */
async function listedUrls(): Promise<string[]> {
  const page = await send("127.0.0.1", "GET", `/${slug}/webhooks`);
  expect(page.status).toBe(200);
  return [...new Set(page.body.match(/https:\/\/93\.184\.215\.14\/[a-z-]+/g) ?? [])].sort();
}

beforeAll(async () => {
  buildIfNeeded({ quiet: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir(), "server/server-reference-manifest.json"), "utf8"));
  const actions = Object.entries(manifest.node as Record<string, { exportedName: string }>);
  createWebhookAction = actions.find(([, action]) => action.exportedName === "createWebhookAction")![0];
  port = await freePort();
  // No PUBLIC_URL: the console shows the origin it was opened at (lib/console/public-origin.ts).
  server = await startServer({ DATA_DIR: dir, PORT: String(port), PUBLIC_URL: "", TRUSTED_PROXIES: PROXY, ...INIT });
  // Signed in with a password through next-auth's credentials endpoint and its CSRF token.
  const cookies = new Map<string, string>();
  const keep = (answer: Answer) => {
    for (const line of answer.headers["set-cookie"] ?? []) {
      const pair = line.split(";")[0];
      cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    return answer;
  };
  const csrf = keep(await send("127.0.0.1", "GET", "/api/auth/csrf"));
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const signedIn = keep(
    await send(
      "127.0.0.1",
      "POST",
      "/api/auth/callback/credentials",
      { "content-type": "application/x-www-form-urlencoded" },
      new URLSearchParams({
        csrfToken,
        email: INIT.MEMGW_INIT_USER_EMAIL,
        password: INIT.MEMGW_INIT_USER_PASSWORD,
        json: "true",
      }).toString(),
    ),
  );
  expect(signedIn.status).toBeLessThan(400);
  expect(cookie).toMatch(/session-token/);
  const home = await send("127.0.0.1", "GET", "/");
  slug = /^\/([^/?]+)/.exec(new URL(home.headers.location ?? "", "http://x").pathname)![1];
}, 600_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a console server action", { timeout: 120_000 }, () => {
  test("from a client, a foreign Origin and a forged X-Forwarded-Host or Forwarded: 403, nothing added", async () => {
    const forgeries: Record<string, string>[] = [
      { origin: "https://evil.example", "x-forwarded-host": "evil.example" },
      { origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      { origin: "https://evil.example", "x-forwarded-host": `evil.example, 127.0.0.1:${port}` },
      { origin: "https://evil.example", forwarded: "host=evil.example;proto=https" },
      { origin: "http://evil.example:8080", "x-forwarded-host": "evil.example:8080", "x-forwarded-port": "8080" },
    ];
    for (const headers of forgeries) {
      const answer = await addEndpoint("127.0.0.1", "https://93.184.215.14/forged", headers);
      expect({ headers, status: answer.status }).toEqual({ headers, status: 403 });
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: { code: "FORBIDDEN" } });
    }
    expect(await listedUrls()).toEqual([]);
    // The same action from the console's own page (its Origin is the Host it was sent to) adds the endpoint.
    const own = await addEndpoint("127.0.0.1", "https://93.184.215.14/own", { origin: `http://127.0.0.1:${port}` });
    expect(own.status).toBe(200);
    expect(await listedUrls()).toEqual(["https://93.184.215.14/own"]);
    expect(server.output()).not.toContain("Invalid Server Actions request");
  });

  test("from the trusted proxy the forwarded host is the site: its Origin passes, a foreign one does not", async () => {
    const proxied = { "x-forwarded-host": "gateway.example", "x-forwarded-proto": "https" };
    const foreign = await addEndpoint(PROXY, "https://93.184.215.14/proxied-foreign", {
      origin: "https://evil.example",
      ...proxied,
    });
    expect(foreign.status).toBe(403);
    // The Host the proxy connected with is not the site the browser is on.
    const byHost = await addEndpoint(PROXY, "https://93.184.215.14/proxied-host", {
      origin: `http://127.0.0.1:${port}`,
      ...proxied,
    });
    expect(byHost.status).toBe(403);
    const answer = await addEndpoint(PROXY, "https://93.184.215.14/proxied", {
      origin: "https://gateway.example",
      ...proxied,
    });
    expect(answer.status).toBe(200);
    expect(await listedUrls()).toEqual(["https://93.184.215.14/own", "https://93.184.215.14/proxied"]);
  });
});

describe("the origin the console shows in its curl commands", { timeout: 120_000 }, () => {
  test("is the Host for a client whatever it forwards; the forwarded host and scheme via the proxy", async () => {
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/namespaces`, {
      method: "POST",
      headers: { authorization: `Bearer ${INIT.MEMGW_INIT_API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Forwarded" }),
    });
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    const forged = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    const client = await send("127.0.0.1", "GET", `/${slug}/namespaces/${id}`, forged);
    expect(client.status).toBe(200);
    expect(client.body).toContain(`http://127.0.0.1:${port}/api/v1/`);
    expect(client.body).not.toContain("evil.example");
    const proxied = { "x-forwarded-host": "gateway.example", "x-forwarded-proto": "https" };
    const viaProxy = await send(PROXY, "GET", `/${slug}/namespaces/${id}`, proxied);
    expect(viaProxy.status).toBe(200);
    expect(viaProxy.body).toContain("https://gateway.example/api/v1/");
  });
});
