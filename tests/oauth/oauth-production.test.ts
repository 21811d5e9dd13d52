// The authorization server of MCP clients in the build users run: `npm start` (the minified production
// build), driven over real HTTP only. Registration, the console's consent (signed in with a password through
// next-auth, the answer sent as the page's server action), tokens, refresh and revocation; password sign-in
// and API keys; then every OAuth and consent input fuzzed with strings the database cannot store or a person
// cannot see, and with values of a megabyte: 4xx, never a 5xx or an "OAuth server error" in the log.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { memgw } from "../helpers/cli";
import { mcpToolsListStatus } from "../helpers/mcp-request";
import { freePort, startServer, type RunningServer, serverApi } from "../helpers/server";
import { newDataDir } from "../helpers/embedded-template";

// The same build directory as tests/startup/server.test.ts (builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";

const dir = newDataDir("memgw-oauth-production-");
const INIT = {
  MEMGW_INIT_ORG_NAME: "Token Inc",
  MEMGW_INIT_USER_EMAIL: "owner@token.example",
  MEMGW_INIT_USER_PASSWORD: "a long owner password",
  MEMGW_INIT_API_KEY: "mgw_oauthProductionBootstrapKey0123456789ab",
};
const REDIRECT_URI = "http://localhost:8976/callback";
const MEGABYTE = "a".repeat(1024 * 1024);

let server: RunningServer;
let namespace: { id: string; mcp_endpoint_url: string };
let browser: Browser;

/** A browser's cookie jar (paths ignored: every cookie goes with every request), redirects not followed. */
class Browser {
  private readonly cookies = new Map<string, string>();
  get cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  /** A new browser with this one's console session only (its sign-in cookies). */
  withConsoleSession() {
    const other = new Browser();
    for (const [name, value] of this.cookies) if (name.startsWith("next-auth.")) other.cookies.set(name, value);
    return other;
  }
  has(name: string) {
    return this.cookies.has(name);
  }
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("cookie", this.cookieHeader);
    const response = await fetch(new URL(url, server.base), { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")).trim(), pair.slice(pair.indexOf("=") + 1)];
      const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a) || /^max-age=0$/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

/** Signs `browser` in with a password through next-auth's credentials endpoint and its CSRF token. */
async function signIn(into: Browser, email: string, password: string) {
  const csrf = await into.fetch("/api/auth/csrf");
  expect(csrf.status).toBe(200);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return into.fetch("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${server.base}/`, json: "true" }),
  });
}

/** The API of this file's server (serverApi). */
const api = (method: string, route: string, key: string, body?: unknown) => serverApi(server, method, route, key, body);

/** Whether a token opens the namespace's MCP endpoint: the status of its `tools/list`. */
function toolsListStatus(token: string) {
  return mcpToolsListStatus(namespace.mcp_endpoint_url, token);
}

function form(url: string, params: Record<string, string> | string) {
  return fetch(`${server.base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: typeof params === "string" ? params : new URLSearchParams(params).toString(),
  });
}

async function tokenRequest(params: Record<string, string>) {
  const response = await form("/oauth/token", params);
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

let registrations = 0;
/**
 * A registration's headers, as from a client address of its own (through the trusted proxy on loopback): open
 * registration allows 30 an hour per address, and this file registers more than that.
 */
function registrationHeaders() {
  registrations += 1;
  return {
    "content-type": "application/json",
    "x-forwarded-for": `198.18.${Math.floor(registrations / 250)}.${(registrations % 250) + 1}`,
  };
}

async function register(name = "Production Agent") {
  const response = await fetch(`${server.base}/oauth/register`, {
    method: "POST",
    headers: registrationHeaders(),
    body: JSON.stringify(registration({ client_name: name })),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

function registration(overrides: Record<string, unknown> = {}) {
  return {
    client_name: "Fuzzed Agent",
    redirect_uris: [REDIRECT_URI],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...overrides,
  };
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizeParams(clientId: string, challenge: string, redirectUri = REDIRECT_URI): Record<string, string> {
  return {
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: "mcp:read mcp:write",
    resource: namespace.mcp_endpoint_url,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "a-state",
  };
}

/** Opens an authorization request in `into`: the uid of the consent page it lands on. */
async function openConsent(into: Browser, clientId: string, challenge: string, redirectUri = REDIRECT_URI) {
  const query = new URLSearchParams(authorizeParams(clientId, challenge, redirectUri));
  const response = await into.fetch(`/oauth/authorize?${query}`);
  expect(response.status).toBe(303);
  const uid = /^\/consent\/([\w-]+)$/.exec(response.headers.get("location") ?? "")?.[1];
  expect(uid, response.headers.get("location") ?? "").toBeDefined();
  return uid!;
}

let consentActionId: string | undefined;

/**
 * The consent page's server action (answerConsent), as its form calls it: the id is read from the page's
 * scripts, the arguments are the action's JSON-encoded reply, the answer its RSC stream.
 */
async function answerConsent(into: Browser, uid: string, form: unknown): Promise<{ status: number; result?: any }> {
  if (!consentActionId) {
    const page = await into.fetch(`/consent/${uid}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const src of new Set([...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((match) => match[1]))) {
      const script = await (await fetch(new URL(src, server.base))).text();
      consentActionId ??= /createServerReference\)\("([0-9a-f]+)",[^)]*"answerConsent"\)/.exec(script)?.[1];
    }
    expect(consentActionId, "the consent page's server action").toBeDefined();
  }
  const response = await into.fetch(`/consent/${encodeURIComponent(uid)}`, {
    method: "POST",
    headers: {
      "next-action": consentActionId!,
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      origin: server.base,
    },
    body: JSON.stringify([form]),
  });
  const rows = rscRows(Buffer.from(await response.arrayBuffer()));
  return { status: response.status, result: rows.has("1") ? JSON.parse(rows.get("1")!) : undefined };
}

/** The rows of an RSC stream: `id:json\n`, or `id:T<hex length>,<that many bytes>` for a long text. */
function rscRows(stream: Buffer) {
  const rows = new Map<string, string>();
  let at = 0;
  while (at < stream.length) {
    const colon = stream.indexOf(":", at);
    if (colon < 0) break;
    const id = stream.subarray(at, colon).toString();
    if (stream[colon + 1] === "T".charCodeAt(0)) {
      const comma = stream.indexOf(",", colon);
      const end = comma + 1 + parseInt(stream.subarray(colon + 2, comma).toString(), 16);
      rows.set(id, JSON.stringify(stream.subarray(comma + 1, end).toString()));
      at = end;
    } else {
      const newline = stream.indexOf("\n", colon);
      const end = newline < 0 ? stream.length : newline;
      rows.set(id, stream.subarray(colon + 1, end).toString());
      at = end + 1;
    }
  }
  return rows;
}

/** register → authorize → consent (approved in a signed-in browser) → code → tokens. */
async function connect(name = "Production Agent", into = browser) {
  const clientId = await register(name);
  const { verifier, challenge } = pkce();
  const uid = await openConsent(into, clientId, challenge);
  const answer = await answerConsent(into, uid, { uid, decision: "approve", access: ["read", "write"] });
  expect(answer.result?.ok, JSON.stringify(answer)).toBe(true);
  const resumed = await into.fetch(answer.result.data.redirectTo);
  expect(resumed.status).toBe(303);
  const callback = new URL(resumed.headers.get("location")!);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  expect(callback.searchParams.get("state")).toBe("a-state");
  const tokens = await tokenRequest({
    grant_type: "authorization_code",
    code: callback.searchParams.get("code")!,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
    resource: namespace.mcp_endpoint_url,
  });
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  expect(tokens.body.token_type).toBe("Bearer");
  // The access token's lifetime (lib/oauth/provider.ts ACCESS_TOKEN_TTL_SECONDS), as docs/api.md says.
  expect(tokens.body.expires_in).toBe(3600);
  return { clientId, access: tokens.body.access_token, refresh: tokens.body.refresh_token };
}

/** An approved authorization request of `clientId` at `redirectUri`: the code it sent there, and its verifier. */
async function approvedCode(clientId: string, redirectUri: string) {
  const into = browser.withConsoleSession();
  const { verifier, challenge } = pkce();
  const uid = await openConsent(into, clientId, challenge, redirectUri);
  const answer = await answerConsent(into, uid, { uid, decision: "approve", access: ["read", "write"] });
  expect(answer.result?.ok, JSON.stringify(answer)).toBe(true);
  const resumed = await into.fetch(answer.result.data.redirectTo);
  expect(resumed.status).toBe(303);
  const callback = new URL(resumed.headers.get("location")!);
  expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
  return { code: callback.searchParams.get("code")!, verifier };
}

function refresh(clientId: string, refreshToken: string) {
  return tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId });
}

async function revoke(clientId: string, token: string, hint?: string) {
  const response = await form("/oauth/revoke", {
    token,
    client_id: clientId,
    ...(hint ? { token_type_hint: hint } : {}),
  });
  await response.arrayBuffer();
  return response.status;
}

beforeAll(async () => {
  buildIfNeeded({ quiet: true });
  server = await startServer({ DATA_DIR: dir, PORT: String(await freePort()), TRUSTED_PROXIES: "127.0.0.1", ...INIT });
  const created = await api("POST", "/namespaces", INIT.MEMGW_INIT_API_KEY, { name: "oauth-in-production" });
  expect(created.status).toBe(201);
  namespace = created.body.data;
  browser = new Browser();
  const signedIn = await signIn(browser, INIT.MEMGW_INIT_USER_EMAIL, INIT.MEMGW_INIT_USER_PASSWORD);
  expect(signedIn.status, await signedIn.text()).toBeLessThan(400);
  expect(browser.has("next-auth.session-token")).toBe(true);
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the production server", { timeout: 300_000 }, () => {
  test("password sign-in: the right password starts a console session, a wrong one does not", async () => {
    const session = await browser.fetch("/api/auth/session");
    expect(((await session.json()) as { user?: { email?: string } }).user?.email).toBe(INIT.MEMGW_INIT_USER_EMAIL);
    const stranger = new Browser();
    const refused = await signIn(stranger, INIT.MEMGW_INIT_USER_EMAIL, "not the password");
    await refused.arrayBuffer();
    expect(stranger.has("next-auth.session-token")).toBe(false);
    const none = await stranger.fetch("/api/auth/session");
    expect(await none.json()).toEqual({});
  });

  test("API keys: a valid key is let in, a revoked one is a 401", async () => {
    expect((await api("GET", "/namespaces", INIT.MEMGW_INIT_API_KEY)).status).toBe(200);
    const org = await memgw(["org", "create", "--name", "Keys Inc"], { DATA_DIR: dir });
    expect(org.code, org.stderr).toBe(0);
    const key = await memgw(["key", "create", "--org", org.json.id, "--name", "k", "--permissions", "NAMESPACE_READ"], {
      DATA_DIR: dir,
    });
    expect(key.code, key.stderr).toBe(0);
    expect((await api("GET", "/namespaces", key.json.secret)).status).toBe(200);
    expect((await memgw(["key", "revoke", "--id", key.json.id], { DATA_DIR: dir })).code).toBe(0);
    expect((await api("GET", "/namespaces", key.json.secret)).status).toBe(401);
    expect((await api("GET", "/namespaces", "mgw_notAKeyAtAll0123456789abcdefghijkl")).status).toBe(401);
  });

  test("register, authorize, consent, token and refresh: the tokens work on the MCP endpoint", async () => {
    const { clientId, access, refresh: refreshToken } = await connect();
    expect(await toolsListStatus(access)).toBe(200);
    // A second connection from the same browser (its provider session from the first still there).
    expect(await toolsListStatus((await connect("Second Agent")).access)).toBe(200);
    const refreshed = await refresh(clientId, refreshToken);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(refreshToken); // rotated
    expect(refreshed.body.expires_in).toBe(3600);
    expect(await toolsListStatus(refreshed.body.access_token)).toBe(200);
    // The spent refresh token is refused (and its reuse ends the connection: the chain is presumed stolen).
    expect((await refresh(clientId, refreshToken)).body.error).toBe("invalid_grant");
    expect(await toolsListStatus(refreshed.body.access_token)).toBe(401);
  });

  test("registered with a name and a loopback URI: its secret works, any port; a refused code is spent", async () => {
    // Only redirect_uris and client_name: RFC 7591's default client authentication, with its secret.
    const registered = await fetch(`${server.base}/oauth/register`, {
      method: "POST",
      headers: registrationHeaders(),
      body: JSON.stringify({ client_name: "Minimal Agent", redirect_uris: ["http://127.0.0.1/callback"] }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as Record<string, string>;
    expect(client.token_endpoint_auth_method).toBe("client_secret_basic");
    expect(client.client_secret).toBeTruthy();
    const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`;
    const exchange = (code: { code: string; verifier: string }, redirectUri: string, authorization?: string) =>
      fetch(`${server.base}/oauth/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(authorization ? { authorization } : {}),
        },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: code.code,
          code_verifier: code.verifier,
          redirect_uri: redirectUri,
          resource: namespace.mcp_endpoint_url,
          ...(authorization ? {} : { client_id: client.client_id }),
        }),
      }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as Record<string, string>,
      }));

    // Registered without a port, used on the one the client listens on.
    const first = await approvedCode(client.client_id, "http://127.0.0.1:49213/callback");
    expect((await exchange(first, "http://127.0.0.1:49213/callback")).status).toBe(401); // no secret: not the client
    const tokens = await exchange(first, "http://127.0.0.1:49213/callback", basic);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(await toolsListStatus(tokens.body.access_token)).toBe(200);

    // A wrong code_verifier spends the code: the right one is refused after it.
    const second = await approvedCode(client.client_id, "http://127.0.0.1:50001/callback");
    const guessed = await exchange({ ...second, verifier: pkce().verifier }, "http://127.0.0.1:50001/callback", basic);
    expect(guessed.status).toBe(400);
    expect(guessed.body.error).toBe("invalid_grant");
    const late = await exchange(second, "http://127.0.0.1:50001/callback", basic);
    expect(late.status).toBe(400);
    expect(late.body.error).toBe("invalid_grant");
  });

  test("a revoked refresh token cannot refresh, and its access token is refused at once", async () => {
    const { clientId, access, refresh: refreshToken } = await connect("Agent", browser.withConsoleSession());
    expect(await toolsListStatus(access)).toBe(200);
    expect(await revoke(clientId, refreshToken, "refresh_token")).toBe(200);
    const refused = await refresh(clientId, refreshToken);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid_grant");
    expect(await toolsListStatus(access)).toBe(401);
  });

  test("a revoked access token is refused at once (without a hint too)", async () => {
    const { clientId, access, refresh: refreshToken } = await connect("Agent", browser.withConsoleSession());
    expect(await toolsListStatus(access)).toBe(200);
    expect(await revoke(clientId, access)).toBe(200);
    expect(await toolsListStatus(access)).toBe(401);
    // Revoking any of a connection's tokens ends the connection.
    expect((await refresh(clientId, refreshToken)).body.error).toBe("invalid_grant");
  });

  test("an access token presented as a refresh token is invalid_grant, and the connection keeps working", async () => {
    const { clientId, access, refresh: refreshToken } = await connect("Agent", browser.withConsoleSession());
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await refresh(clientId, access);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe("invalid_grant");
    }
    expect(await toolsListStatus(access)).toBe(200);
    // Revoking the access token as if it were a refresh token (a wrong hint) still revokes it.
    const refreshed = await refresh(clientId, refreshToken);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(await toolsListStatus(refreshed.body.access_token)).toBe(200);
    expect(await revoke(clientId, refreshed.body.access_token, "refresh_token")).toBe(200);
    expect(await toolsListStatus(refreshed.body.access_token)).toBe(401);
  });
});

/** Bad strings as they travel: raw (JSON), and percent-encoded (query strings and forms). */
const BAD_VALUES: { label: string; raw: string; encoded: string }[] = [
  { label: "NUL", raw: "a\u0000b", encoded: "a%00b" },
  { label: "a lone surrogate", raw: "a\ud800b", encoded: "a%ED%A0%80b" },
  { label: "a lone low surrogate (truncated UTF-8)", raw: "a\udfffb", encoded: "a%E2%80b" },
  { label: "a bidi override", raw: "a\u202Eb", encoded: "a%E2%80%AEb" },
  { label: "a zero-width space", raw: "a\u200Bb", encoded: "a%E2%80%8Bb" },
  { label: "10 kB", raw: "a".repeat(10_000), encoded: "a".repeat(10_000) },
  { label: "1 MB", raw: MEGABYTE, encoded: MEGABYTE },
];

describe("every OAuth and consent input, fuzzed", { timeout: 300_000 }, () => {
  const answers: { what: string; status: number }[] = [];
  const record = (what: string, status: number) => answers.push({ what, status });

  afterAll(() => {
    // Never a 5xx, never the provider's own server error.
    expect(answers.filter((answer) => answer.status < 400 || answer.status >= 500)).toEqual([]);
    expect(server.output()).not.toContain("OAuth server error");
  });

  test("registration: each field, and each element of the lists", async () => {
    const fields: [string, (value: string) => Record<string, unknown>][] = [
      ["client_name", (value) => ({ client_name: value })],
      ["redirect_uris", (value) => ({ redirect_uris: [`${REDIRECT_URI}?x=${value}`] })],
      ["redirect_uris (whole)", (value) => ({ redirect_uris: [value] })],
      ["logo_uri", (value) => ({ logo_uri: `https://client.example/${value}` })],
      ["policy_uri", (value) => ({ policy_uri: `https://client.example/${value}` })],
      ["tos_uri", (value) => ({ tos_uri: `https://client.example/${value}` })],
      ["client_uri", (value) => ({ client_uri: `https://client.example/${value}` })],
      ["contacts", (value) => ({ contacts: [`${value}@client.example`] })],
      ["scope", (value) => ({ scope: `mcp:read ${value}` })],
      ["software_id", (value) => ({ software_id: value })],
      ["a key", (value) => ({ [value]: "x" })],
    ];
    for (const [field, body] of fields) {
      for (const bad of BAD_VALUES) {
        const response = await fetch(`${server.base}/oauth/register`, {
          method: "POST",
          headers: registrationHeaders(),
          body: JSON.stringify(registration(body(bad.raw))),
        });
        await response.arrayBuffer();
        record(`register ${field} with ${bad.label}`, response.status);
      }
    }
    // Invalid UTF-8 in the body itself.
    const invalid = Buffer.concat([
      Buffer.from('{"client_name":"a'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from(`","redirect_uris":["${REDIRECT_URI}"]}`),
    ]);
    const response = await fetch(`${server.base}/oauth/register`, {
      method: "POST",
      headers: registrationHeaders(),
      body: invalid,
    });
    expect(response.status).toBe(400);
    record("register with invalid UTF-8", response.status);
    // A name is kept as names are: NFC, trimmed.
    const composed = await fetch(`${server.base}/oauth/register`, {
      method: "POST",
      headers: registrationHeaders(),
      body: JSON.stringify(registration({ client_name: "  Cafe\u0301 Agent " })),
    });
    expect(composed.status).toBe(201);
    expect(((await composed.json()) as { client_name: string }).client_name).toBe("Caf\u00e9 Agent");
  });

  test("authorization: each query parameter", async () => {
    const clientId = await register("Authorize Fuzz");
    const { challenge } = pkce();
    const base = authorizeParams(clientId, challenge);
    for (const name of [...Object.keys(base), "login_hint", "nonce", "prompt", "ui_locales", "max_age"]) {
      for (const bad of BAD_VALUES) {
        const query = Object.entries({ ...base, [name]: "" })
          .map(([key, value]) => `${key}=${key === name ? bad.encoded : encodeURIComponent(value)}`)
          .join("&");
        // A megabyte of query string is refused by Node's HTTP server itself (431: its header limit), which
        // then closes the connection: a client still sending the request may see that close instead.
        const status = await browser.fetch(`/oauth/authorize?${query}`).then(
          async (response) => (await response.arrayBuffer(), response.status),
          (error: Error) => {
            if (bad.label !== "1 MB") throw error;
            return 431;
          },
        );
        record(`authorize ${name} with ${bad.label}`, status);
      }
    }
  });

  test("token and revocation: each form parameter", async () => {
    const { clientId, refresh: refreshToken } = await connect("Token Fuzz", browser.withConsoleSession());
    const grants: [string, Record<string, string>][] = [
      [
        "/oauth/token",
        {
          grant_type: "authorization_code",
          code: "a-code",
          redirect_uri: REDIRECT_URI,
          client_id: clientId,
          code_verifier: "a".repeat(43),
          resource: namespace.mcp_endpoint_url,
        },
      ],
      ["/oauth/token", { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, scope: "x" }],
      ["/oauth/revoke", { token: refreshToken, token_type_hint: "refresh_token", client_id: clientId }],
    ];
    for (const [url, params] of grants) {
      for (const name of Object.keys(params)) {
        for (const bad of BAD_VALUES) {
          const body = Object.entries(params)
            .map(([key, value]) => `${key}=${key === name ? bad.encoded : encodeURIComponent(value)}`)
            .join("&");
          const response = await form(url, body);
          await response.arrayBuffer();
          record(`${url} ${name} with ${bad.label}`, response.status);
        }
      }
    }
    // Client credentials in a Basic header: each bad value as the client id.
    for (const bad of BAD_VALUES.slice(0, 5)) {
      const response = await fetch(`${server.base}/oauth/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${bad.encoded}:secret`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "x" }).toString(),
      });
      await response.arrayBuffer();
      record(`token Basic client id with ${bad.label}`, response.status);
    }
    // The connection was untouched by all of it.
    const refreshed = await refresh(clientId, refreshToken);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });

  test("consent: the page and its answer", async () => {
    const clientId = await register("Consent Fuzz");
    const consenting = browser.withConsoleSession();
    const uid = await openConsent(consenting, clientId, pkce().challenge);
    for (const bad of BAD_VALUES.slice(0, -1)) {
      const page = await browser.fetch(`/consent/${bad.encoded}`);
      await page.arrayBuffer();
      record(`consent page with ${bad.label}`, page.status);
    }
    const forms: ((value: string) => unknown)[] = [
      (value) => ({ uid: value, decision: "approve", access: ["read"] }),
      (value) => ({ uid, decision: value, access: ["read"] }),
      (value) => ({ uid, decision: "approve", access: [value] }),
      (value) => ({ uid, decision: "approve", access: ["read"], [value]: 1 }),
    ];
    for (const answer of forms) {
      for (const bad of BAD_VALUES) {
        const { status, result } = await answerConsent(consenting, uid, answer(bad.raw));
        // A server action answers in its own protocol: the refusal is its result, never a 5xx.
        expect(status).toBeLessThan(500);
        if (status < 400) expect(result?.ok).toBe(false);
        else record(`consent answer with ${bad.label}`, status);
      }
    }
    // The request is still there to approve.
    const approved = await answerConsent(consenting, uid, { uid, decision: "approve", access: ["read"] });
    expect(approved.result?.ok, JSON.stringify(approved)).toBe(true);
  });
});
