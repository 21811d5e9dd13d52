// A provider's OAuth 2.0 server and API gate on loopback, for the integration tests: the consent page,
// the token endpoint (authorization code with PKCE where the provider supports it, refresh), revocation,
// and bearer-token checks, rate limits and expired tokens on the content API, each answered in the
// provider's own shapes (GitHub answers token errors with 200, Slack wraps everything in `ok`, Notion
// authenticates the client with Basic and a JSON body). The content API itself is the caller's
// `handleApi` (tests/helpers/providers/<provider>.ts).
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ProviderEndpoints, ProviderId, ReaderContext } from "@/lib/integrations/provider";

export interface FakeApiRequest {
  method: string;
  /** The path below the API root, e.g. `/repos/o/r/issues` or `/conversations.history`. */
  path: string;
  query: URLSearchParams;
  /** Parsed JSON, or the fields of a form body. */
  body: unknown;
  token: string;
  headers: http.IncomingHttpHeaders;
}

export interface FakeApiResponse {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export interface FakeProvider {
  provider: ProviderId;
  endpoints: ProviderEndpoints;
  clientId: string;
  clientSecret: string;
  port: number;
  /** What the consent page's "Authorize" button does: the redirect back to the application, with code and state. */
  approve(authorizationUrl: string): Promise<{ redirect: URL }>;
  /** Every access token issued so far is refused from now on (a refresh gets a new one). */
  expireAccessTokens(): void;
  /** Every refresh token issued so far is refused from now on (the person must connect again). */
  refuseRefreshTokens(): void;
  /** The next `count` content API requests answer 429 with `Retry-After: retryAfterSeconds`. */
  rateLimitNext(count: number, retryAfterSeconds?: number): void;
  /** Every content API answer waits this long from now on (a sync that takes a while, to be interrupted). */
  slowDown(delayMs: number): void;
  /** Access tokens revoked through the provider's revocation endpoint. */
  revokedTokens: string[];
  /** Content API requests that passed the token check, in order. */
  apiRequests: { method: string; path: string }[];
  /** Token endpoint requests: the grant types asked for, in order. */
  tokenRequests: string[];
  stop(): Promise<void>;
}

/** The seeded content of a provider's fake and its edits, as the generic sync test drives them. */
export interface FakeContent {
  /** Options for POST /integrations/connections that select exactly the seeded content. */
  connectOptions: Record<string, unknown>;
  /** The documents in reach now: what a sync must have stored, one memory each. */
  documents(): { url: string; title: string; text: string }[];
  /** Edits one document so its text contains `phrase` (a new distinctive sentence) and its version changes. */
  changeOne(): { url: string; phrase: string };
  /** Deletes one document (another than changeOne's). */
  deleteOne(): { url: string };
  /** Adds a document whose text contains `phrase`. */
  addOne(): { url: string; phrase: string };
}

export interface FakeProviderOptions {
  provider: ProviderId;
  port?: number;
  /** A fixed client secret, for a server whose settings are written before it starts (the browser tests). */
  clientSecret?: string;
  handleApi(request: FakeApiRequest): FakeApiResponse | null | Promise<FakeApiResponse | null>;
}

const NAMES: Record<ProviderId, string> = {
  github: "GitHub",
  notion: "Notion",
  google_drive: "Google",
  slack: "Slack",
};

interface PendingCode {
  redirectUri: string;
  codeChallenge: string | null;
  expiresAt: number;
}

export async function startFakeProvider(options: FakeProviderOptions): Promise<FakeProvider> {
  const { provider } = options;
  const clientId = `${provider}-client-id`;
  const clientSecret = options.clientSecret ?? `${provider}-client-secret-${randomBytes(6).toString("hex")}`;
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  let rateLimited = { count: 0, retryAfter: 1 };
  let apiDelayMs = 0;
  const state = {
    revokedTokens: [] as string[],
    apiRequests: [] as { method: string; path: string }[],
    tokenRequests: [] as string[],
  };

  const issueTokens = () => {
    const access = `${provider}-at-${randomBytes(12).toString("hex")}`;
    const refresh = `${provider}-rt-${randomBytes(12).toString("hex")}`;
    accessTokens.add(access);
    refreshTokens.add(refresh);
    return { access, refresh };
  };

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error) => {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: String(error) }));
    });
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const body = await readBody(request);
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(json));
    };

    if (url.pathname === "/oauth/authorize" && request.method === "GET") {
      const problem = authorizationProblem(url.searchParams, clientId, provider);
      if (problem) return send(400, { error: "invalid_request", error_description: problem });
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return response.end(consentPage(NAMES[provider], url.searchParams));
    }
    if (url.pathname === "/oauth/authorize" && request.method === "POST") {
      const fields = body as Record<string, string>;
      const redirect = new URL(fields.redirect_uri);
      if (fields.decision === "allow") {
        const code = randomBytes(10).toString("hex");
        codes.set(code, {
          redirectUri: fields.redirect_uri,
          codeChallenge: fields.code_challenge || null,
          expiresAt: Date.now() + 60_000,
        });
        redirect.searchParams.set("code", code);
      } else {
        redirect.searchParams.set("error", "access_denied");
      }
      if (fields.state) redirect.searchParams.set("state", fields.state);
      response.writeHead(302, { location: redirect.toString() });
      return response.end();
    }
    if (url.pathname === "/oauth/token" && request.method === "POST") {
      const fields = body as Record<string, string>;
      const client = clientCredentials(request, fields);
      const grantType = fields.grant_type ?? (fields.refresh_token ? "refresh_token" : "authorization_code");
      state.tokenRequests.push(grantType);
      const fail = (error: string) =>
        // GitHub and Slack answer a refused grant with 200 and the error in the body.
        provider === "slack"
          ? send(200, { ok: false, error })
          : send(provider === "github" ? 200 : 400, { error, error_description: `${error} (fake ${provider})` });
      if (client.id !== clientId || client.secret !== clientSecret) return fail("invalid_client");
      if (grantType === "refresh_token") {
        if (!refreshTokens.delete(fields.refresh_token)) return fail("invalid_grant");
      } else {
        const pending = codes.get(fields.code);
        codes.delete(fields.code);
        if (!pending || pending.expiresAt < Date.now())
          return fail(provider === "github" ? "bad_verification_code" : "invalid_grant");
        if (pending.redirectUri !== fields.redirect_uri) return fail("redirect_uri_mismatch");
        if (pending.codeChallenge && s256(fields.code_verifier ?? "") !== pending.codeChallenge)
          return fail("invalid_grant");
      }
      const { access, refresh } = issueTokens();
      return send(200, tokenResponse(provider, access, refresh));
    }
    if (isRevocation(provider, request.method ?? "", url.pathname, clientId)) {
      const token = revokedToken(provider, request, body);
      if (provider !== "slack") {
        const client = clientCredentials(request, body as Record<string, string>);
        if (provider !== "google_drive" && (client.id !== clientId || client.secret !== clientSecret))
          return send(401, { message: "client authentication failed" });
      }
      if (token && accessTokens.delete(token)) state.revokedTokens.push(token);
      if (provider === "github") {
        response.writeHead(204);
        return response.end();
      }
      return send(200, provider === "slack" ? { ok: true, revoked: true } : {});
    }

    if (!url.pathname.startsWith("/api/")) return send(404, { message: "Not Found" });
    const token = /^(?:Bearer|token) (.+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? "";
    if (!accessTokens.has(token)) return unauthorized(provider, send);
    if (rateLimited.count > 0) {
      rateLimited.count -= 1;
      return tooManyRequests(provider, send, rateLimited.retryAfter);
    }
    if (apiDelayMs > 0) await new Promise((resume) => setTimeout(resume, apiDelayMs));
    const path = url.pathname.slice("/api".length);
    state.apiRequests.push({ method: request.method ?? "GET", path });
    const answer = await options.handleApi({
      method: request.method ?? "GET",
      path,
      query: url.searchParams,
      body,
      token,
      headers: request.headers,
    });
    if (!answer) return send(404, notFoundBody(provider));
    if (answer.text !== undefined) {
      response.writeHead(answer.status ?? 200, { "content-type": "text/plain; charset=utf-8", ...answer.headers });
      return response.end(answer.text);
    }
    return send(answer.status ?? 200, answer.json ?? {}, answer.headers);
  }

  server.listen(options.port ?? 0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const apiTrailingSlash = provider === "slack" || provider === "google_drive";

  return {
    provider,
    endpoints: {
      authUrl: `${origin}/oauth/authorize`,
      tokenUrl: `${origin}/oauth/token`,
      apiUrl: `${origin}/api${apiTrailingSlash ? "/" : ""}`,
    },
    clientId,
    clientSecret,
    port,
    async approve(authorizationUrl) {
      const consent = new URL(authorizationUrl);
      const problem = authorizationProblem(consent.searchParams, clientId, provider);
      if (problem) throw new Error(`The consent page refused the authorization URL: ${problem}`);
      const form = new URLSearchParams({ decision: "allow" });
      for (const name of ["redirect_uri", "state", "code_challenge"]) {
        const value = consent.searchParams.get(name);
        if (value) form.set(name, value);
      }
      const answer = await fetch(`${origin}/oauth/authorize`, { method: "POST", body: form, redirect: "manual" });
      return { redirect: new URL(answer.headers.get("location")!) };
    },
    expireAccessTokens: () => accessTokens.clear(),
    refuseRefreshTokens: () => refreshTokens.clear(),
    slowDown(delayMs) {
      apiDelayMs = delayMs;
    },
    rateLimitNext(count, retryAfterSeconds = 1) {
      rateLimited = { count, retryAfter: retryAfterSeconds };
    },
    get revokedTokens() {
      return state.revokedTokens;
    },
    get apiRequests() {
      return state.apiRequests;
    },
    get tokenRequests() {
      return state.tokenRequests;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function authorizationProblem(params: URLSearchParams, clientId: string, provider: ProviderId): string | null {
  if (params.get("client_id") !== clientId) return "unknown client_id";
  if (!params.get("redirect_uri")) return "redirect_uri is missing";
  if (!params.get("state")) return "state is missing";
  if (provider !== "github" && params.get("response_type") !== "code") return "response_type must be code";
  const challenge = params.get("code_challenge");
  if (challenge && params.get("code_challenge_method") !== "S256") return "code_challenge_method must be S256";
  return null;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function consentPage(name: string, params: URLSearchParams): string {
  const hidden = ["redirect_uri", "state", "code_challenge"]
    .map((field) => `<input type="hidden" name="${field}" value="${escapeHtml(params.get(field) ?? "")}">`)
    .join("");
  return `<!doctype html><html><head><title>${name}: authorize application</title></head>
<body style="font-family: sans-serif; max-width: 32rem; margin: 4rem auto">
<h1>Authorize Memory Gateway</h1>
<p>Memory Gateway wants to read your ${name} content (scopes: ${escapeHtml(params.get("scope") ?? "none")}).</p>
<form method="post" action="/oauth/authorize">${hidden}
<button name="decision" value="allow">Authorize</button>
<button name="decision" value="deny">Cancel</button>
</form></body></html>`;
}

async function readBody(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return {};
  if ((request.headers["content-type"] ?? "").includes("application/json")) return JSON.parse(text);
  return Object.fromEntries(new URLSearchParams(text));
}

function clientCredentials(request: http.IncomingMessage, fields: Record<string, string>) {
  const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, "base64").toString("utf8").split(":");
    return { id: decodeURIComponent(id), secret: decodeURIComponent(secret ?? "") };
  }
  return { id: fields.client_id, secret: fields.client_secret };
}

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

function tokenResponse(provider: ProviderId, access: string, refresh: string) {
  switch (provider) {
    case "github":
      return {
        access_token: access,
        token_type: "bearer",
        scope: "repo",
        expires_in: 28800,
        refresh_token: refresh,
        refresh_token_expires_in: 15897600,
      };
    case "notion":
      return {
        access_token: access,
        token_type: "bearer",
        refresh_token: refresh,
        bot_id: "bot-1",
        workspace_id: "ws-1",
        workspace_name: "Fake Workspace",
        owner: { type: "user" },
      };
    case "google_drive":
      return {
        access_token: access,
        token_type: "Bearer",
        expires_in: 3599,
        refresh_token: refresh,
        scope: "https://www.googleapis.com/auth/drive.readonly",
      };
    case "slack":
      return {
        ok: true,
        access_token: access,
        token_type: "bot",
        scope: "channels:history,channels:read,groups:history,groups:read",
        bot_user_id: "U0BOT",
        app_id: "A0APP",
        team: { id: "T0FAKE", name: "Fake Team" },
        expires_in: 43200,
        refresh_token: refresh,
      };
  }
}

function isRevocation(provider: ProviderId, method: string, path: string, clientId: string): boolean {
  switch (provider) {
    case "github":
      return method === "DELETE" && path === `/api/applications/${clientId}/token`;
    case "notion":
      return method === "POST" && path === "/api/v1/oauth/revoke";
    case "google_drive":
      return method === "POST" && path === "/oauth/revoke";
    case "slack":
      return method === "POST" && path === "/api/auth.revoke";
  }
}

function revokedToken(provider: ProviderId, request: http.IncomingMessage, body: unknown): string | undefined {
  const fields = (body ?? {}) as Record<string, string>;
  if (provider === "github") return fields.access_token;
  if (provider === "slack") return /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? fields.token;
  return fields.token;
}

type Send = (status: number, json: unknown, headers?: Record<string, string>) => void;

function unauthorized(provider: ProviderId, send: Send) {
  switch (provider) {
    case "github":
      return send(401, {
        message: "Bad credentials",
        documentation_url: "https://docs.github.com/rest",
        status: "401",
      });
    case "notion":
      return send(401, { object: "error", status: 401, code: "unauthorized", message: "API token is invalid." });
    case "google_drive":
      return send(401, {
        error: {
          code: 401,
          message: "Request had invalid authentication credentials.",
          status: "UNAUTHENTICATED",
          errors: [{ message: "Invalid Credentials", domain: "global", reason: "authError" }],
        },
      });
    case "slack":
      return send(200, { ok: false, error: "invalid_auth" });
  }
}

function tooManyRequests(provider: ProviderId, send: Send, retryAfter: number) {
  const headers = { "retry-after": String(retryAfter) };
  switch (provider) {
    case "github":
      return send(429, { message: "You have exceeded a secondary rate limit.", status: "429" }, headers);
    case "notion":
      return send(429, { object: "error", status: 429, code: "rate_limited", message: "Rate limited." }, headers);
    case "google_drive":
      return send(
        429,
        {
          error: {
            code: 429,
            message: "Rate Limit Exceeded",
            errors: [{ message: "Rate Limit Exceeded", domain: "usageLimits", reason: "rateLimitExceeded" }],
          },
        },
        headers,
      );
    case "slack":
      return send(429, { ok: false, error: "ratelimited" }, headers);
  }
}

function notFoundBody(provider: ProviderId) {
  switch (provider) {
    case "notion":
      return { object: "error", status: 404, code: "object_not_found", message: "Not found." };
    case "google_drive":
      return { error: { code: 404, message: "File not found.", errors: [{ reason: "notFound" }] } };
    case "slack":
      return { ok: false, error: "unknown_method" };
    default:
      return { message: "Not Found", status: "404" };
  }
}

/** An access token of the fake, the way the application gets one: consent, then the code exchange. */
export async function fakeAccessToken(fake: FakeProvider): Promise<string> {
  const redirectUri = "http://127.0.0.1:9/api/v1/integrations/callback";
  const authorization = new URL(fake.endpoints.authUrl);
  authorization.search = new URLSearchParams({
    client_id: fake.clientId,
    redirect_uri: redirectUri,
    state: "state-1",
    response_type: "code",
  }).toString();
  const { redirect } = await fake.approve(authorization.toString());
  const answer = await fetch(fake.endpoints.tokenUrl, {
    method: "POST",
    headers: { accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: redirect.searchParams.get("code")!,
      redirect_uri: redirectUri,
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
    }),
  });
  const tokens = (await answer.json()) as { access_token: string };
  return tokens.access_token;
}

/** What a reader is built from, with a fresh access token of the fake. */
export async function fakeReaderContext(
  fake: FakeProvider,
  options: Record<string, unknown> = {},
): Promise<ReaderContext> {
  return { accessToken: await fakeAccessToken(fake), endpoints: fake.endpoints, options };
}
