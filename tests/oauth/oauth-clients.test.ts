// OAuth clients other than the SDK's, over HTTP against the in-process routes: what dynamic registration
// (RFC 7591) returns works at the token endpoint (a public client has no secret; a secret is accepted where it
// was registered to go), loopback redirect URIs match on any port (RFC 8252 §7.3) and nothing else does, and an
// authorization code is good for one try, by its own client, at its own redirect URI.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { memberPrincipal } from "@/lib/auth/principal";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { approveConnection, listConnections } from "@/lib/oauth/connections";
import { addMember } from "@/lib/orgs/members";
import { createUser } from "@/lib/orgs/users";
import { routeRequest } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { Browser, ORIGIN } from "../helpers/in-process-browser";
import { mcpToolsListStatus } from "../helpers/mcp-request";

type Member = ReturnType<typeof memberPrincipal>;
interface Registered {
  client_id: string;
  client_secret?: string;
  client_secret_expires_at?: number;
  token_endpoint_auth_method: string;
  redirect_uris: string[];
}

// Every registration comes from an address of its own (as scripts/start.mjs reports it): open registration
// allows 30 an hour per address, and this file registers more than that.
beforeAll(() => void vi.stubEnv("MEMGW_SERVER_SETS_CLIENT_ADDRESS", "1"));
afterAll(() => void vi.unstubAllEnvs());
let registrations = 0;

async function register(metadata: Record<string, unknown>) {
  registrations += 1;
  const response = await routeRequest(
    new Request(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-memgw-client-address": `198.51.100.${registrations}` },
      body: JSON.stringify(metadata),
    }),
  );
  return { status: response.status, body: await response.json() };
}

async function registered(metadata: Record<string, unknown>): Promise<Registered> {
  const { status, body } = await register(metadata);
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function setUp() {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const user = await createUser({ email: `person-${randomBytes(6).toString("hex")}@example.com` });
  const member = memberPrincipal(await addMember({ orgId: org.id, userId: user.id, role: "admin" }, SYSTEM_ACTOR));
  return { org, key, ns, member, endpoint: `${ORIGIN}/api/v1/mcp/${ns.id}` };
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The browser opens an authorization request: the provider's answer (a redirect, or an error page). */
async function authorize(clientId: string, redirectUri: string, endpoint: string, extra: Record<string, string> = {}) {
  const browser = new Browser();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: "mcp:read mcp:write",
    resource: endpoint,
    state: "a-state",
    ...extra,
  });
  return { browser, response: await browser.get(`/oauth/authorize?${query}`) };
}

/**
 * An authorization code for `clientId` at `redirectUri`, approved by `member` on the consent step: the code and
 * its PKCE verifier, and where the browser was sent with it.
 */
async function codeFor(clientId: string, redirectUri: string, on: { member: Member; endpoint: string }) {
  const { verifier, challenge } = pkce();
  const { browser, response } = await authorize(clientId, redirectUri, on.endpoint, {
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  expect(response.status, await response.clone().text()).toBe(303);
  const uid = /^\/consent\/([\w-]+)$/.exec(response.headers.get("location") ?? "")?.[1];
  expect(uid, response.headers.get("location") ?? "").toBeDefined();
  const next = await approveConnection({
    uid: uid!,
    member: on.member,
    access: ["read", "write"],
    cookieHeader: browser.cookieHeader,
  });
  const callback = await browser.get(next);
  expect(callback.status).toBe(303);
  const location = callback.headers.get("location")!;
  // Sent to the redirect URI (as a URL parser writes it), the URI's own query kept.
  const [sent, expected] = [new URL(location), new URL(redirectUri)];
  expect(`${sent.origin}${sent.pathname}`).toBe(`${expected.origin}${expected.pathname}`);
  for (const [name, value] of expected.searchParams) expect(sent.searchParams.get(name)).toBe(value);
  const code = sent.searchParams.get("code");
  expect(code).toBeTruthy();
  return { code: code!, verifier };
}

async function tokenRequest(params: Record<string, string>, basic?: { id: string; secret: string }) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (basic) {
    // RFC 6749 2.3.1: each part form-encoded, then base64.
    const credentials = `${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
  }
  const response = await routeRequest(
    new Request(`${ORIGIN}/oauth/token`, { method: "POST", headers, body: new URLSearchParams(params).toString() }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

function codeExchange(code: { code: string; verifier: string }, redirectUri: string, endpoint: string) {
  return {
    grant_type: "authorization_code",
    code: code.code,
    code_verifier: code.verifier,
    redirect_uri: redirectUri,
    resource: endpoint,
  };
}

const LOOPBACK = "http://127.0.0.1:8976/callback";

describe("registration returns what the token endpoint accepts", () => {
  test("only redirect_uris and client_name: client_secret_basic (RFC 7591 default), a secret that works", async () => {
    const on = await setUp();
    const client = await registered({ client_name: "Minimal Agent", redirect_uris: [LOOPBACK] });
    expect(client.token_endpoint_auth_method).toBe("client_secret_basic");
    expect(client.client_secret).toMatch(/^[\w-]{43,}$/);
    expect(client.client_secret_expires_at).toBe(0);

    const code = await codeFor(client.client_id, LOOPBACK, on);
    const exchange = codeExchange(code, LOOPBACK, on.endpoint);
    // Without its secret the client is not authenticated (and the code was not looked at: it stays good).
    const anonymous = await tokenRequest({ ...exchange, client_id: client.client_id });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe("invalid_client");
    const wrongSecret = await tokenRequest(exchange, { id: client.client_id, secret: `${client.client_secret}x` });
    expect(wrongSecret.status).toBe(401);
    const tokens = await tokenRequest(exchange, { id: client.client_id, secret: client.client_secret! });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(await mcpToolsListStatus(on.endpoint, tokens.body.access_token, routeRequest)).toBe(200);
    // Its refresh token needs the secret too.
    const refresh = { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token };
    expect((await tokenRequest({ ...refresh, client_id: client.client_id })).status).toBe(401);
    const refreshed = await tokenRequest(refresh, { id: client.client_id, secret: client.client_secret! });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });

  test("a public client (none) gets no secret and exchanges its code with its id alone", async () => {
    const on = await setUp();
    const client = await registered({
      client_name: "Public Agent",
      redirect_uris: [LOOPBACK],
      token_endpoint_auth_method: "none",
    });
    expect(client.token_endpoint_auth_method).toBe("none");
    expect(client).not.toHaveProperty("client_secret");
    expect(client).not.toHaveProperty("client_secret_expires_at");
    const code = await codeFor(client.client_id, LOOPBACK, on);
    const tokens = await tokenRequest({ ...codeExchange(code, LOOPBACK, on.endpoint), client_id: client.client_id });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(await mcpToolsListStatus(on.endpoint, tokens.body.access_token, routeRequest)).toBe(200);
  });

  test("a public client naming HMAC or symmetric algorithms is registered without them or a secret", async () => {
    // Algorithms of ID tokens, request objects and responses the gateway never issues or reads: their shared-key
    // forms made oidc-provider hand a public client a secret that nothing accepts.
    for (const [field, alg] of [
      ["request_object_signing_alg", "HS256"],
      ["authorization_signed_response_alg", "HS256"],
      ["introspection_signed_response_alg", "HS256"],
      ["userinfo_signed_response_alg", "HS256"],
      ["id_token_signed_response_alg", "HS256"],
      ["id_token_encrypted_response_alg", "dir"],
      ["request_object_encryption_alg", "A128KW"],
      ["authorization_encrypted_response_alg", "A256GCMKW"],
    ]) {
      const client = await registered({
        client_name: "Public Agent",
        redirect_uris: [LOOPBACK],
        token_endpoint_auth_method: "none",
        [field]: alg,
      });
      expect({ field, method: client.token_endpoint_auth_method, secret: client.client_secret }).toEqual({
        field,
        method: "none",
        secret: undefined,
      });
      expect(client).not.toHaveProperty(field, alg);
    }
    // The JWT client authentication methods are not enabled: client_secret_jwt's secret would be an HMAC key.
    for (const method of ["client_secret_jwt", "private_key_jwt", "tls_client_auth"]) {
      const { status, body } = await register({
        client_name: "JWT Agent",
        redirect_uris: [LOOPBACK],
        token_endpoint_auth_method: method,
      });
      expect({ method, status, secret: body.client_secret }).toEqual({ method, status: 400, secret: undefined });
    }
  });

  test("client_secret_post: the secret in the form works; client_secret_basic: in the header", async () => {
    const on = await setUp();
    const post = await registered({
      client_name: "Post Agent",
      redirect_uris: [LOOPBACK],
      token_endpoint_auth_method: "client_secret_post",
    });
    expect(post.token_endpoint_auth_method).toBe("client_secret_post");
    expect(post.client_secret).toBeTruthy();
    const postCode = await codeFor(post.client_id, LOOPBACK, on);
    const posted = await tokenRequest({
      ...codeExchange(postCode, LOOPBACK, on.endpoint),
      client_id: post.client_id,
      client_secret: post.client_secret!,
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(await mcpToolsListStatus(on.endpoint, posted.body.access_token, routeRequest)).toBe(200);

    const basic = await registered({
      client_name: "Basic Agent",
      redirect_uris: [LOOPBACK],
      token_endpoint_auth_method: "client_secret_basic",
    });
    expect(basic.token_endpoint_auth_method).toBe("client_secret_basic");
    const basicCode = await codeFor(basic.client_id, LOOPBACK, on);
    const viaHeader = await tokenRequest(codeExchange(basicCode, LOOPBACK, on.endpoint), {
      id: basic.client_id,
      secret: basic.client_secret!,
    });
    expect(viaHeader.status, JSON.stringify(viaHeader.body)).toBe(200);
  });
});

describe("loopback redirect URIs match on any port; nothing else is loosened", () => {
  /** What the authorization endpoint does with `redirectUri` for a client that registered `registeredUri`. */
  async function attempt(clientId: string, redirectUri: string, endpoint: string) {
    const { challenge } = pkce();
    const { response } = await authorize(clientId, redirectUri, endpoint, {
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    return { status: response.status, location: response.headers.get("location"), page: await response.text() };
  }

  test("with or without a port registered, a loopback URI takes any port; the code is exchanged there", async () => {
    const on = await setUp();
    for (const [registeredUri, used] of [
      ["http://127.0.0.1/callback", "http://127.0.0.1:53124/callback"],
      ["http://127.0.0.1:8976/callback", "http://127.0.0.1:61000/callback"],
      ["http://127.0.0.1:8976/callback", "http://127.0.0.1/callback"],
      ["http://[::1]/callback?app=desktop", "http://[::1]:49152/callback?app=desktop"],
      ["http://[::1]:3000", "http://[::1]:3001"],
      ["http://localhost/oauth/callback", "http://localhost:8080/oauth/callback"],
    ]) {
      // A web client (the default) and a native one alike.
      for (const applicationType of ["web", "native"]) {
        const client = await registered({
          client_name: "Desktop Agent",
          redirect_uris: [registeredUri],
          token_endpoint_auth_method: "none",
          application_type: applicationType,
        });
        const code = await codeFor(client.client_id, used, on);
        // The token request names the URI the authorization request used, port included.
        const tokens = await tokenRequest({ ...codeExchange(code, used, on.endpoint), client_id: client.client_id });
        expect({ registeredUri, used, applicationType, status: tokens.status }).toEqual({
          registeredUri,
          used,
          applicationType,
          status: 200,
        });
        expect(await mcpToolsListStatus(on.endpoint, tokens.body.access_token, routeRequest)).toBe(200);
      }
    }
  });

  test("the path, the query, the scheme and the host of a loopback URI must still match exactly", async () => {
    const on = await setUp();
    const client = await registered({
      client_name: "Desktop Agent",
      redirect_uris: ["http://127.0.0.1/callback?x=1", "http://localhost:8976/cb"],
      token_endpoint_auth_method: "none",
    });
    for (const refused of [
      "http://127.0.0.1:5000/callback",
      "http://127.0.0.1:5000/callback?x=2",
      "http://127.0.0.1:5000/callback?x=1&y=2",
      "http://127.0.0.1:5000/callback/?x=1",
      "http://127.0.0.1:5000/Callback?x=1",
      "http://127.0.0.1:5000/x/../callback?x=1",
      "http://127.0.0.1:5000/callback?x=1#f",
      "http://127.0.0.1:99999/callback?x=1",
      "http://user@127.0.0.1:5000/callback?x=1",
      "https://127.0.0.1:5000/callback?x=1",
      "http://127.1:5000/callback?x=1",
      "http://[::1]:5000/callback?x=1", // another loopback host than the registered one
      "http://localhost:5000/callback?x=1",
      "http://localhost.evil.example:8976/cb",
      "http://127.0.0.1.nip.io:8976/callback?x=1",
      "http://localhost:8976/cb/",
    ]) {
      const answer = await attempt(client.client_id, refused, on.endpoint);
      // An error page for the person: the client is not sent anything at a URI it did not register.
      expect({ refused, status: answer.status, location: answer.location }).toEqual({
        refused,
        status: 400,
        location: null,
      });
      expect(answer.page).toContain("invalid_redirect_uri");
    }
    // The registered ones, on another port, are taken.
    expect((await attempt(client.client_id, "http://127.0.0.1:5000/callback?x=1", on.endpoint)).status).toBe(303);
    expect((await attempt(client.client_id, "http://localhost:1/cb", on.endpoint)).status).toBe(303);
  });

  test("https and an application's own scheme match only exactly, port included", async () => {
    const on = await setUp();
    const web = await registered({
      client_name: "Web Agent",
      redirect_uris: ["https://agent.example/callback", "https://agent.example:8443/cb"],
      token_endpoint_auth_method: "none",
    });
    for (const refused of [
      "https://agent.example:444/callback",
      "https://agent.example:443/callback",
      "https://agent.example/cb",
      "https://agent.example:9443/cb",
      "http://agent.example/callback",
    ]) {
      expect({ refused, status: (await attempt(web.client_id, refused, on.endpoint)).status }).toEqual({
        refused,
        status: 400,
      });
    }
    expect((await attempt(web.client_id, "https://agent.example:8443/cb", on.endpoint)).status).toBe(303);
    const app = await registered({
      client_name: "App Agent",
      application_type: "native",
      redirect_uris: ["cursor://anysphere.cursor-mcp/oauth/callback"],
      token_endpoint_auth_method: "none",
    });
    expect((await attempt(app.client_id, "cursor://anysphere.cursor-mcp:1/oauth/callback", on.endpoint)).status).toBe(
      400,
    );
    expect((await attempt(app.client_id, "cursor://anysphere.cursor-mcp/oauth/callback", on.endpoint)).status).toBe(
      303,
    );
  });

  test("registration refuses redirect URIs that are scripts, data, files, fragments or not absolute", async () => {
    for (const applicationType of ["web", "native"]) {
      for (const uri of [
        "javascript:alert(1)",
        "JavaScript://127.0.0.1/%0aalert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "blob:https://agent.example/1",
        "about:blank",
        "https://agent.example/callback#fragment",
        "http://127.0.0.1:8976/callback#",
        "/callback",
        "callback",
        "http://evil.example/callback",
        "http://169.254.169.254/callback",
        "http:\\\\evil.example\\callback",
        "http://127.0.0.1@evil.example/callback",
        "",
      ]) {
        const { status, body } = await register({
          client_name: "Agent",
          application_type: applicationType,
          redirect_uris: [LOOPBACK, uri],
          token_endpoint_auth_method: "none",
        });
        expect({ applicationType, uri, status, error: body.error }).toEqual({
          applicationType,
          uri,
          status: 400,
          error: expect.stringMatching(/^invalid_(redirect_uri|client_metadata)$/),
        });
      }
    }
    const none = await register({ client_name: "Agent", redirect_uris: [], token_endpoint_auth_method: "none" });
    expect(none.status).toBe(400);
  });
});

describe("an authorization code is good for one try, by its client, at its redirect URI", () => {
  async function publicClient(name = "Public Agent") {
    return registered({ client_name: name, redirect_uris: [LOOPBACK], token_endpoint_auth_method: "none" });
  }

  test("a wrong code_verifier spends the code: the right one then fails too, and the connection ends", async () => {
    const on = await setUp();
    const client = await publicClient();
    const code = await codeFor(client.client_id, LOOPBACK, on);
    expect(await listConnections(on.org.id)).toHaveLength(1);
    const exchange = { ...codeExchange(code, LOOPBACK, on.endpoint), client_id: client.client_id };
    const wrong = await tokenRequest({ ...exchange, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    const right = await tokenRequest(exchange);
    expect(right.status).toBe(400);
    expect(right.body.error).toBe("invalid_grant");
    expect(right.body).not.toHaveProperty("access_token");
    expect(await listConnections(on.org.id)).toEqual([]);

    // So are a missing verifier and one that is not a verifier at all.
    for (const verifier of [undefined, "short", "a".repeat(129)]) {
      const again = await codeFor(client.client_id, LOOPBACK, on);
      const { code_verifier: _, ...withoutVerifier } = { ...codeExchange(again, LOOPBACK, on.endpoint) };
      const refused = await tokenRequest({
        ...withoutVerifier,
        client_id: client.client_id,
        ...(verifier === undefined ? {} : { code_verifier: verifier }),
      });
      expect({ verifier, status: refused.status }).toEqual({ verifier, status: 400 });
      const retried = await tokenRequest({
        ...codeExchange(again, LOOPBACK, on.endpoint),
        client_id: client.client_id,
      });
      expect({ verifier, status: retried.status, error: retried.body.error }).toEqual({
        verifier,
        status: 400,
        error: "invalid_grant",
      });
    }
  });

  test("a code presented at another redirect URI, or by another client, is refused and spent", async () => {
    const on = await setUp();
    const client = await publicClient();
    const other = await publicClient("Other Agent");

    const code = await codeFor(client.client_id, LOOPBACK, on);
    const exchange = { ...codeExchange(code, LOOPBACK, on.endpoint), client_id: client.client_id };
    // Another port is another redirect URI at the token endpoint: it must be the one the code was sent to.
    const elsewhere = await tokenRequest({ ...exchange, redirect_uri: "http://127.0.0.1:8977/callback" });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toBe("invalid_grant");
    expect((await tokenRequest(exchange)).body.error).toBe("invalid_grant");

    const stolen = await codeFor(client.client_id, LOOPBACK, on);
    const byOther = await tokenRequest({ ...codeExchange(stolen, LOOPBACK, on.endpoint), client_id: other.client_id });
    expect(byOther.status).toBe(400);
    expect(byOther.body.error).toBe("invalid_grant");
    const byOwner = await tokenRequest({ ...codeExchange(stolen, LOOPBACK, on.endpoint), client_id: client.client_id });
    expect(byOwner.body.error).toBe("invalid_grant");
    expect(await listConnections(on.org.id)).toEqual([]);

    // A client that did not authenticate never reached the code: it stays good.
    const secretClient = await registered({ client_name: "Secret Agent", redirect_uris: [LOOPBACK] });
    const kept = await codeFor(secretClient.client_id, LOOPBACK, on);
    const keptExchange = codeExchange(kept, LOOPBACK, on.endpoint);
    const unauthenticated = await tokenRequest({ ...keptExchange, client_id: secretClient.client_id });
    expect(unauthenticated.status).toBe(401);
    const exchanged = await tokenRequest(keptExchange, {
      id: secretClient.client_id,
      secret: secretClient.client_secret!,
    });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
  });

  test("a code used twice is refused and revokes the tokens issued from it", async () => {
    const on = await setUp();
    const client = await publicClient();
    const code = await codeFor(client.client_id, LOOPBACK, on);
    const exchange = { ...codeExchange(code, LOOPBACK, on.endpoint), client_id: client.client_id };
    const first = await tokenRequest(exchange);
    expect(first.status).toBe(200);
    expect(await mcpToolsListStatus(on.endpoint, first.body.access_token, routeRequest)).toBe(200);
    const second = await tokenRequest(exchange);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe("invalid_grant");
    expect(await mcpToolsListStatus(on.endpoint, first.body.access_token, routeRequest)).toBe(401);
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.body.refresh_token,
      client_id: client.client_id,
    });
    expect(refreshed.status).toBe(400);
    expect(await listConnections(on.org.id)).toEqual([]);

    // A used code presented again with a wrong verifier is refused; the tokens of the one that knew it stand
    // (whoever replays a code seen in a log cannot end the connection it started).
    const kept = await codeFor(client.client_id, LOOPBACK, on);
    const keptExchange = { ...codeExchange(kept, LOOPBACK, on.endpoint), client_id: client.client_id };
    const tokens = await tokenRequest(keptExchange);
    expect(tokens.status).toBe(200);
    const replay = await tokenRequest({ ...keptExchange, code_verifier: pkce().verifier });
    expect(replay.body.error).toBe("invalid_grant");
    expect(await mcpToolsListStatus(on.endpoint, tokens.body.access_token, routeRequest)).toBe(200);
  });

  test("PKCE is required, S256 only, at the authorization endpoint", async () => {
    const on = await setUp();
    const client = await publicClient();
    const missing = await authorize(client.client_id, LOOPBACK, on.endpoint);
    expect(missing.response.status).toBe(303);
    const missingAt = new URL(missing.response.headers.get("location")!);
    expect(`${missingAt.origin}${missingAt.pathname}`).toBe(LOOPBACK);
    expect(missingAt.searchParams.get("error")).toBe("invalid_request");
    for (const extra of <Record<string, string>[]>[
      { code_challenge: "x".repeat(43), code_challenge_method: "plain" },
      { code_challenge: "x".repeat(43) }, // no method: plain by RFC 7636's default
      { code_challenge: "x".repeat(43), code_challenge_method: "S512" },
      { code_challenge: "short", code_challenge_method: "S256" },
    ]) {
      const { response } = await authorize(client.client_id, LOOPBACK, on.endpoint, extra);
      const error = new URL(response.headers.get("location")!).searchParams.get("error");
      expect({ extra, error }).toEqual({ extra, error: "invalid_request" });
    }
  });
});
