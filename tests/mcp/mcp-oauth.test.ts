// OAuth 2.1 for MCP clients: the official SDK client, with its OAuth client provider, discovers the
// gateway's authorization server from a 401, registers, is approved on the consent step (the domain
// function the console page calls, with the browser's cookies) and calls tools with its token.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, expect, test, vi } from "vitest";
import { memberPrincipal } from "@/lib/auth/principal";
import { AuditLogQuery, listAuditLog, SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma/enums";
import { sweepExpiredOauthRecords } from "@/lib/oauth/adapter";
import { ACCESS_TOKEN_TTL_SECONDS } from "@/lib/oauth/provider";
import { approveConnection, denyConnection, listConnections, revokeConnection } from "@/lib/oauth/connections";
import { namespaceGrantees } from "@/lib/namespaces/overview";
import { addMember, removeMember } from "@/lib/orgs/members";
import { createUser } from "@/lib/orgs/users";
import { api, routeRequest } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { Browser, ORIGIN } from "../helpers/in-process-browser";
import { mcpToolsList, mcpToolsListStatus } from "../helpers/mcp-request";
import { CLIENT_REDIRECT_URI, MemoryOAuthClient } from "../helpers/oauth-client";

const fetchRoute = (input: string | URL | Request, init?: RequestInit) => routeRequest(new Request(input, init));

const clients: Client[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function newMember(orgId: string, role: Role = "member") {
  const user = await createUser({ email: `person-${Math.random().toString(36).slice(2)}@example.com` });
  const membership = await addMember({ orgId, userId: user.id, role }, SYSTEM_ACTOR);
  return { user, member: memberPrincipal(membership) };
}

async function setUp(role: Role = "admin") {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const { user, member } = await newMember(org.id, role);
  return { org, key, ns, user, member };
}

function endpointOf(namespaceId: string) {
  return `${ORIGIN}/api/v1/mcp/${namespaceId}`;
}

/** The SDK client's first connection: a 401, then discovery and registration, ending at the authorization URL. */
async function startAuthorization(namespaceId: string, oauth = new MemoryOAuthClient("Test Agent")) {
  const transport = new StreamableHTTPClientTransport(new URL(endpointOf(namespaceId)), {
    authProvider: oauth,
    fetch: fetchRoute,
  });
  await expect(new Client({ name: "test-agent", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  expect(oauth.authorizationUrl).toBeDefined();
  return { oauth, transport };
}

/** The browser opens the authorization URL and lands on the console's consent page. */
async function openConsent(authorizationUrl: URL, browser = new Browser()) {
  const response = await browser.get(authorizationUrl.toString());
  expect(response.status).toBe(303);
  const location = response.headers.get("location")!;
  const uid = /^\/consent\/([\w-]+)$/.exec(location)?.[1];
  expect(uid, location).toBeDefined();
  return { browser, uid: uid! };
}

/** The whole first connection, approved with `access`: returns a connected SDK client and its provider. */
async function connect(
  namespaceId: string,
  member: ReturnType<typeof memberPrincipal>,
  access: ("read" | "write")[] = ["read", "write"],
  provider?: MemoryOAuthClient,
) {
  const { oauth, transport } = await startAuthorization(namespaceId, provider);
  const { browser, uid } = await openConsent(oauth.authorizationUrl!);
  const next = await approveConnection({ uid, member, access, cookieHeader: browser.cookieHeader });
  const callback = await browser.get(next);
  expect(callback.status).toBe(303);
  const redirect = new URL(callback.headers.get("location")!);
  expect(`${redirect.origin}${redirect.pathname}`).toBe(CLIENT_REDIRECT_URI);
  expect(redirect.searchParams.get("iss")).toBe(ORIGIN);
  await transport.finishAuth(redirect.searchParams.get("code")!);
  const client = await sdkClient(namespaceId, oauth);
  return { client, oauth };
}

async function sdkClient(namespaceId: string, oauth: MemoryOAuthClient) {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpointOf(namespaceId)), { authProvider: oauth, fetch: fetchRoute }),
  );
  clients.push(client);
  return client;
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>) {
  return (result.content as { text: string }[]).map((c) => c.text).join("");
}

async function tokenRequest(body: Record<string, string>) {
  return routeRequest(
    new Request(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    }),
  );
}

test("a 401 from the MCP endpoint names its resource metadata, naming the gateway's authorization server", async () => {
  const { ns } = await setUp();
  const anonymous = await routeRequest(
    new Request(endpointOf(ns.id), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
  );
  expect(anonymous.status).toBe(401);
  const metadataUrl = `${ORIGIN}/.well-known/oauth-protected-resource/api/v1/mcp/${ns.id}`;
  expect(anonymous.headers.get("www-authenticate")).toBe(
    `Bearer resource_metadata="${metadataUrl}", scope="mcp:read mcp:write"`,
  );
  const badToken = await mcpToolsList(endpointOf(ns.id), "not-a-token", routeRequest);
  expect(badToken.status).toBe(401);
  expect(badToken.headers.get("www-authenticate")).toBe(
    `Bearer resource_metadata="${metadataUrl}", scope="mcp:read mcp:write", error="invalid_token", ` +
      `error_description="The access token is invalid, expired or revoked."`,
  );

  // RFC 9728, field by field.
  const resource = await routeRequest(new Request(metadataUrl));
  expect(resource.status).toBe(200);
  expect(await resource.json()).toEqual({
    resource: endpointOf(ns.id),
    authorization_servers: [ORIGIN],
    scopes_supported: ["mcp:read", "mcp:write"],
    bearer_methods_supported: ["header"],
    resource_name: "Memory Gateway MCP endpoint",
  });
  const notAnEndpoint = await routeRequest(new Request(`${ORIGIN}/.well-known/oauth-protected-resource/api/v1/ask`));
  expect(notAnEndpoint.status).toBe(404);

  // RFC 8414: what an MCP client reads of it.
  const server = await routeRequest(new Request(`${ORIGIN}/.well-known/oauth-authorization-server`));
  expect(server.status).toBe(200);
  const metadata = await server.json();
  expect(metadata).toMatchObject({
    issuer: ORIGIN,
    authorization_endpoint: `${ORIGIN}/oauth/authorize`,
    token_endpoint: `${ORIGIN}/oauth/token`,
    registration_endpoint: `${ORIGIN}/oauth/register`,
    revocation_endpoint: `${ORIGIN}/oauth/revoke`,
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
  });
  expect(metadata.scopes_supported).toEqual(expect.arrayContaining(["mcp:read", "mcp:write"]));
  // Nothing MCP clients do not use: no pushed requests, no sign-out endpoint, no DPoP.
  expect(metadata.pushed_authorization_request_endpoint).toBeUndefined();
  expect(metadata.end_session_endpoint).toBeUndefined();
  expect(metadata.dpop_signing_alg_values_supported).toBeUndefined();
  expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
  expect(metadata.grant_types_supported).not.toContain("implicit");
  expect(metadata.token_endpoint_auth_methods_supported).toContain("none");
  expect(metadata.userinfo_endpoint).toBeUndefined();
});

test("the SDK client connects with the URL alone, is approved, recalls and remembers as the person", async () => {
  const { org, key, ns, user, member } = await setUp();
  const { client, oauth } = await connect(ns.id, member);
  expect(oauth.saved).toMatchObject({ token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_SECONDS });
  expect(ACCESS_TOKEN_TTL_SECONDS).toBe(3600); // what docs/api.md says
  // A read-and-write connection is offered every tool.
  expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
    "add_document",
    "ask",
    "forget",
    "get_profile",
    "list_entities",
    "recall",
    "recall_by_entity",
    "remember",
  ]);
  expect(oauth.saved?.refresh_token).toBeTruthy();
  expect(oauth.saved?.scope).toBe("mcp:read mcp:write");

  const remembered = await client.callTool({ name: "remember", arguments: { content: "Prefers answers in French" } });
  expect(remembered.isError).toBeFalsy();
  const recalled = await client.callTool({ name: "recall", arguments: { query: "which language for answers?" } });
  expect(recalled.isError).toBeFalsy();
  expect(textOf(recalled)).toContain("Prefers answers in French");

  // The person's identity is the default one; the API key sees the memory with it.
  const stored = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "language" } });
  expect(stored.body.data[0]).toMatchObject({ content: "Prefers answers in French", identity_id: user.id });

  // The activity log and the audit log name the client; the console lists the connection.
  const prisma = await db();
  const connection = await prisma.apiKey.findFirstOrThrow({ where: { orgId: org.id, oauthClientId: { not: null } } });
  expect(connection).toMatchObject({
    name: "Test Agent",
    createdById: user.id,
    permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
  });
  const activity = await prisma.activityLog.findMany({ where: { orgId: org.id, apiKeyId: connection.id } });
  expect(activity.map((row) => row.operation).sort()).toEqual(["recall", "remember"]);
  const audit = await prisma.auditLog.findFirst({ where: { orgId: org.id, action: "mcp_client.connect" } });
  expect(audit).toMatchObject({ actorType: "user", actorId: user.id, targetId: connection.id });
  expect(await listConnections(org.id, { userId: user.id })).toEqual([
    expect.objectContaining({
      id: connection.id,
      clientName: "Test Agent",
      namespace: { id: ns.id, name: ns.name },
      access: ["read", "write"],
      connectedBy: user.email,
    }),
  ]);
  // Not an API key of the keys page.
  const keys = await api("GET", "/namespaces", { key });
  expect(keys.status).toBe(200);

  // Stored hashed: no token, refresh token or code appears in the database.
  const rows = await prisma.oauthRecord.findMany();
  const dump = JSON.stringify(rows);
  expect(dump).not.toContain(oauth.saved!.access_token);
  expect(dump).not.toContain(oauth.saved!.refresh_token!);
});

test("a read-only approval cannot remember; a token for one namespace is refused on another's endpoint", async () => {
  const { key, ns, member } = await setUp("member");
  // A member reaches the namespaces granted to them.
  await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { user_id: member.userId } });
  const { client, oauth } = await connect(ns.id, member, ["read"]);
  expect(oauth.saved?.scope).toBe("mcp:read");
  // Offered only what it may run: recall and ask.
  expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
    "ask",
    "get_profile",
    "list_entities",
    "recall",
    "recall_by_entity",
  ]);
  const remembered = await client.callTool({ name: "remember", arguments: { content: "should not be stored" } });
  expect(remembered.isError).toBe(true);
  // Called anyway, it is refused as the connection it is, not as an API key.
  expect(textOf(remembered)).toBe(
    "FORBIDDEN: This MCP connection (Test Agent) has read access; this needs write access. " +
      "Connect the client again and allow write on the consent page.",
  );
  const forgot = await client.callTool({ name: "forget", arguments: { all: true } });
  expect(textOf(forgot)).toMatch(/^FORBIDDEN: This MCP connection \(Test Agent\)/);
  expect((await client.callTool({ name: "recall", arguments: { query: "anything" } })).isError).toBeFalsy();

  const other = await createNamespace(key);
  const elsewhere = await mcpToolsList(endpointOf(other.id), oauth.saved!.access_token, routeRequest);
  expect(elsewhere.status).toBe(401);
  expect(elsewhere.headers.get("www-authenticate")).toContain('error="invalid_token"');
  expect(elsewhere.headers.get("www-authenticate")).toContain("issued for another MCP endpoint");
});

test("people see a connection as an MCP connection, once: the permissions panel and the audit log", async () => {
  const { org, key, ns, user, member } = await setUp();
  const reader = await createKey(org.id, { name: "Reporting", permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id] });
  // Connected, then the same client connects again (it lost its tokens): the first connection ends.
  const first = await connect(ns.id, member);
  const again = new MemoryOAuthClient("Test Agent");
  again.information = first.oauth.information;
  const { client } = await connect(ns.id, member, ["read", "write"], again);
  const [standing] = await listConnections(org.id);
  expect(await listConnections(org.id)).toHaveLength(1);

  const named = async (name: string) =>
    (await namespaceGrantees(member, ns.id)).filter((row) => row.kind === "api_key" && row.key.name === name);
  expect(await named("Test Agent")).toEqual([
    expect.objectContaining({
      kind: "api_key",
      key: expect.objectContaining({
        id: standing.id,
        connection: { connectedBy: user.email, connectedAt: standing.connectedAt },
      }),
      can: ["read", "write"],
      inactive: null,
    }),
  ]);
  // Another client that calls itself the same (another computer's): a connection of its own, listed once,
  // told apart by when it was connected.
  await connect(ns.id, member, ["read"]);
  const connections = await listConnections(org.id);
  expect(connections).toHaveLength(2);
  const rows = await named("Test Agent");
  expect(rows.map((row) => row.kind === "api_key" && row.key.id).sort()).toEqual(
    connections.map((connection) => connection.id).sort(),
  );
  // An API key stays an API key.
  expect(await named("Reporting")).toEqual([
    expect.objectContaining({ key: expect.objectContaining({ id: reader.id, connection: null }) }),
  ]);

  // What the connection does is audited as the connection, by the person who connected it.
  const remembered = await client.callTool({ name: "remember", arguments: { content: "A note to forget" } });
  const memoryId = JSON.parse(textOf(remembered)).id;
  expect((await client.callTool({ name: "forget", arguments: { memory_ids: [memoryId] } })).isError).toBeFalsy();
  const { entries } = await listAuditLog(org.id, AuditLogQuery.parse({}));
  const byConnection = entries.filter((entry) => "id" in entry.actor && entry.actor.id === standing.id);
  expect(byConnection.length).toBeGreaterThan(0);
  for (const entry of byConnection) {
    expect(entry.actorLabel).toBe(`MCP connection · Test Agent (by ${user.email})`);
  }
  const connected = entries.filter((entry) => entry.action === "mcp_client.connect");
  expect(connected).toHaveLength(3);
  for (const entry of connected)
    expect(entry).toMatchObject({ targetType: "mcp_connection", targetLabel: "Test Agent" });
  // An API key's entries still name it as one.
  await api("PATCH", `/namespaces/${ns.id}`, { key, body: { description: "renamed by the key" } });
  const { entries: later } = await listAuditLog(org.id, AuditLogQuery.parse({ action: "namespace.update" }));
  expect(later[0].actorLabel).toMatch(/^API key /);
});

test("the consent step gives no more than the person's access, only in the browser that started it", async () => {
  const { org, key, ns } = await setUp();
  const { member: outsider } = await newMember(org.id, "member"); // not granted this namespace
  const { oauth } = await startAuthorization(ns.id);
  const { browser, uid } = await openConsent(oauth.authorizationUrl!);
  await expect(
    approveConnection({ uid, member: outsider, access: ["read"], cookieHeader: browser.cookieHeader }),
  ).rejects.toMatchObject({ name: "NotFoundError" });

  // Another browser (a consent link sent to someone else) cannot answer it.
  const { member: admin } = await newMember(org.id, "admin");
  await expect(approveConnection({ uid, member: admin, access: ["read"], cookieHeader: "" })).rejects.toThrow(
    /started in another browser/,
  );
  // Denied: the client is told access_denied, and nothing was connected.
  const next = await denyConnection(uid, browser.cookieHeader);
  const callback = await browser.get(next);
  const redirect = new URL(callback.headers.get("location")!);
  expect(redirect.searchParams.get("error")).toBe("access_denied");
  expect(await listConnections(org.id)).toEqual([]);
  await expect(denyConnection(uid, browser.cookieHeader)).rejects.toThrow(/expired or was already answered/);
  void key;
});

test("authorization requests need PKCE S256 and a namespace endpoint of this gateway as resource", async () => {
  const { ns } = await setUp();
  const oauth = new MemoryOAuthClient("Test Agent");
  await startAuthorization(ns.id, oauth);
  const clientId = oauth.information!.client_id;
  const request = { client_id: clientId, redirect_uri: CLIENT_REDIRECT_URI, response_type: "code", scope: "mcp:read" };
  const authorize = (params: Record<string, string>) =>
    new Browser().get(`/oauth/authorize?${new URLSearchParams({ ...request, state: "s", ...params })}`);
  const withoutPkce = await authorize({ resource: endpointOf(ns.id) });
  expect(new URL(withoutPkce.headers.get("location")!).searchParams.get("error_description")).toMatch(/PKCE/);
  const plain = await authorize({
    resource: endpointOf(ns.id),
    code_challenge: "x".repeat(43),
    code_challenge_method: "plain",
  });
  expect(new URL(plain.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  const pkce = { code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256" };
  const foreign = await authorize({ resource: "https://attacker.example/api/v1/mcp/ns_1", ...pkce });
  expect(new URL(foreign.headers.get("location")!).searchParams.get("error")).toBe("invalid_target");
});

test("revoked in the console, or the person removed from the organization: the next request is a 401", async () => {
  const { org, ns, member } = await setUp();
  const first = await connect(ns.id, member);
  const [connection] = await listConnections(org.id);
  await revokeConnection(member, connection.id);
  expect(await mcpToolsListStatus(endpointOf(ns.id), first.oauth.saved!.access_token, routeRequest)).toBe(401);
  expect(await listConnections(org.id)).toEqual([]);
  // The refresh token died with it.
  const refreshed = await tokenRequest({
    grant_type: "refresh_token",
    refresh_token: first.oauth.saved!.refresh_token!,
    client_id: first.oauth.information!.client_id,
  });
  expect(refreshed.status).toBe(400);

  const second = await connect(ns.id, member);
  expect(await mcpToolsListStatus(endpointOf(ns.id), second.oauth.saved!.access_token, routeRequest)).toBe(200);
  await removeMember({ orgId: org.id, userId: member.userId, byRole: "owner" }, SYSTEM_ACTOR);
  expect(await mcpToolsListStatus(endpointOf(ns.id), second.oauth.saved!.access_token, routeRequest)).toBe(401);
});

test("past its hour a token is refused; its refresh token works once, and a replay revokes the chain", async () => {
  const { ns, member } = await setUp();
  const { oauth } = await connect(ns.id, member);
  const tokens = oauth.saved!;
  // It lives as long as its expires_in said, not a second more.
  const issued = Date.now();
  expect(tokens.expires_in).toBe(ACCESS_TOKEN_TTL_SECONDS);
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(issued + (ACCESS_TOKEN_TTL_SECONDS - 10) * 1000);
  expect(await mcpToolsListStatus(endpointOf(ns.id), tokens.access_token, routeRequest)).toBe(200);
  vi.setSystemTime(issued + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
  expect(await mcpToolsListStatus(endpointOf(ns.id), tokens.access_token, routeRequest)).toBe(401);
  // The hourly sweep deletes what has expired: every access token (all are over an hour old now), no refresh token.
  const prisma = await db();
  const before = await prisma.oauthRecord.groupBy({ by: ["model"], _count: true });
  expect(await sweepExpiredOauthRecords()).toBeGreaterThan(0);
  const after = await prisma.oauthRecord.groupBy({ by: ["model"], _count: true });
  const count = (rows: typeof before, model: string) => rows.find((row) => row.model === model)?._count ?? 0;
  expect(count(before, "AccessToken")).toBeGreaterThan(0);
  expect(count(after, "AccessToken")).toBe(0);
  expect(count(after, "RefreshToken")).toBe(count(before, "RefreshToken"));

  const refresh = {
    grant_type: "refresh_token",
    refresh_token: tokens.refresh_token!,
    client_id: oauth.information!.client_id,
  };
  const first = await tokenRequest(refresh);
  expect(first.status).toBe(200);
  const rotated = await first.json();
  expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
  // A refreshed token says its lifetime too, and lives exactly that long.
  expect(rotated).toMatchObject({ token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_SECONDS });
  expect(await mcpToolsListStatus(endpointOf(ns.id), rotated.access_token, routeRequest)).toBe(200);

  const replay = await tokenRequest(refresh);
  expect(replay.status).toBe(400);
  expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
  // The whole chain is dead: the new access token and the rotated refresh token too.
  expect(await mcpToolsListStatus(endpointOf(ns.id), rotated.access_token, routeRequest)).toBe(401);
  const afterReplay = await tokenRequest({ ...refresh, refresh_token: rotated.refresh_token });
  expect(afterReplay.status).toBe(400);
});

test("two refreshes with one token at the same instant: one may win, and the chain ends", async () => {
  const { ns, member } = await setUp();
  const { oauth } = await connect(ns.id, member);
  const refresh = {
    grant_type: "refresh_token",
    refresh_token: oauth.saved!.refresh_token!,
    client_id: oauth.information!.client_id,
  };
  const answers = await Promise.all([tokenRequest(refresh), tokenRequest(refresh)]);
  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses[1]).toBe(400);
  for (const answer of answers.filter((one) => one.status === 200)) {
    const { access_token: accessToken } = await answer.json();
    expect(await mcpToolsListStatus(endpointOf(ns.id), accessToken, routeRequest)).toBe(401);
  }
  expect(await listConnections(member.orgId)).toEqual([]);
});

test("a refresh naming another resource is refused without spending the refresh token", async () => {
  const { key, ns, member } = await setUp();
  const { oauth } = await connect(ns.id, member);
  const other = await createNamespace(key);
  const refresh = {
    grant_type: "refresh_token",
    refresh_token: oauth.saved!.refresh_token!,
    client_id: oauth.information!.client_id,
  };
  const elsewhere = await tokenRequest({ ...refresh, resource: endpointOf(other.id) });
  expect(elsewhere.status).toBe(400);
  expect(await elsewhere.json()).toMatchObject({ error: "invalid_target" });
  const retried = await tokenRequest({ ...refresh, resource: endpointOf(ns.id) });
  expect(retried.status).toBe(200);
  expect(await mcpToolsListStatus(endpointOf(ns.id), (await retried.json()).access_token, routeRequest)).toBe(200);
});

test("a client revoking its token, or the namespace deleted, ends the connection", async () => {
  const { key, org, ns, member } = await setUp();
  const { oauth } = await connect(ns.id, member);
  const revoked = await routeRequest(
    new Request(`${ORIGIN}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: oauth.saved!.access_token, client_id: oauth.information!.client_id }),
    }),
  );
  expect(revoked.status).toBe(200);
  await vi.waitFor(async () => expect(await listConnections(org.id)).toEqual([]));
  const refreshed = await tokenRequest({
    grant_type: "refresh_token",
    refresh_token: oauth.saved!.refresh_token!,
    client_id: oauth.information!.client_id,
  });
  expect(refreshed.status).toBe(400);

  const again = await connect(ns.id, member);
  expect(await listConnections(org.id)).toHaveLength(1);
  expect((await api("DELETE", `/namespaces/${ns.id}`, { key })).status).toBe(200);
  expect(await listConnections(org.id)).toEqual([]);
  const prisma = await db();
  expect(
    await prisma.oauthRecord.count({
      where: { grantId: { not: null }, payload: { path: ["accountId"], equals: member.userId } },
    }),
  ).toBe(0);
  void again;
});

test("open registration refuses plain http to another host, unreadable names, JWT client auth, floods", async () => {
  const register = (metadata: Record<string, unknown>, address = "203.0.113.7") =>
    routeRequest(
      new Request(`${ORIGIN}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-memgw-client-address": address },
        body: JSON.stringify({ client_name: "agent", token_endpoint_auth_method: "none", ...metadata }),
      }),
    );
  const http = await register({ redirect_uris: ["http://evil.example/cb"] });
  expect(http.status).toBe(400);
  expect(await http.json()).toMatchObject({ error: "invalid_redirect_uri" });
  const long = await register({ redirect_uris: [CLIENT_REDIRECT_URI], client_name: "x".repeat(201) });
  expect(await long.json()).toMatchObject({ error: "invalid_client_metadata" });
  const jwt = await register({
    redirect_uris: [CLIENT_REDIRECT_URI],
    token_endpoint_auth_method: "private_key_jwt",
    jwks_uri: "https://169.254.169.254/keys",
  });
  expect(jwt.status).toBe(400);
  const app = await register({
    application_type: "native",
    redirect_uris: ["cursor://anysphere.cursor-mcp/oauth/callback"],
  });
  expect(app.status).toBe(201);
  expect((await register({ redirect_uris: ["https://claude.ai/api/mcp/auth_callback"] })).status).toBe(201);

  // 30 registrations an hour from one address (as scripts/start.mjs's server reports it).
  vi.stubEnv("MEMGW_SERVER_SETS_CLIENT_ADDRESS", "1");
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await register({ redirect_uris: [CLIENT_REDIRECT_URI] }, "198.51.100.9")).status);
    expect(statuses.slice(0, 30).every((status) => status === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await register({ redirect_uris: [CLIENT_REDIRECT_URI] }, "198.51.100.10")).status).toBe(201);
  } finally {
    vi.unstubAllEnvs();
  }
});
