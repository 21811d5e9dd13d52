// A newcomer's first steps in the console: the getting-started checklist of an invited member (their own
// keys, not the owner's; no namespace creation), the namespace page's try-it actions called directly as a
// browser could (any arguments: another organization's namespace, one not granted, blank text), and the
// copy-ready curl, run by a real shell, sending exactly the body the panel sent.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { api, routeRequest } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const { tryAsk, tryRecall, tryRemember } = await import("@/lib/console/actions/try-it");
const { curlCommand, shellQuote } = await import("@/lib/console/curl");
const { gettingStarted } = await import("@/lib/activity/overview");
const { createApiKey } = await import("@/lib/auth/api-keys/create-api-key");
const { memberPrincipal } = await import("@/lib/auth/principal");
const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { db } = await import("@/lib/db");
const { addMember } = await import("@/lib/orgs/members");
const { createUser } = await import("@/lib/orgs/users");

const run = promisify(execFile);
type Role = "owner" | "admin" | "member";

async function person(orgId: string, role: Role) {
  const user = await createUser({ email: `${role}-${Math.random().toString(36).slice(2)}@x.test` });
  await addMember({ orgId, userId: user.id, role }, SYSTEM_ACTOR);
  return user;
}

function signedInAs(userId: string) {
  getServerSession.mockResolvedValue({ userId, sessionId: "ses_test", method: "password" });
}

async function grant(key: string, namespaceId: string, userId: string) {
  const response = await api("POST", `/namespaces/${namespaceId}/grants`, { key, body: { user_id: userId } });
  expect(response.status).toBe(201);
}

describe("an invited member's checklist", () => {
  test("the key step ticks from their own keys only; the namespace step from a namespace granted to them", async () => {
    const { org, key } = await createTenant("Checklist member");
    const owner = await person(org.id, "owner");
    const member = await person(org.id, "member");
    const ns = await createNamespace(key);
    // The owner's key and the operator's key (createTenant's) exist: neither is the member's.
    await createApiKey(
      { orgId: org.id, name: "owner's", permissions: ["NAMESPACE_READ"], createdById: owner.id, namespaceIds: [ns.id] },
      SYSTEM_ACTOR,
    );
    const asMember = memberPrincipal({ orgId: org.id, userId: member.id, role: "member" });
    expect(await gettingStarted(asMember)).toEqual({
      keyCreated: false,
      namespaceCreated: false,
      remembered: false,
      mcpConnected: false,
      firstNamespaceId: null,
    });
    // The owner made one; the operator key counts for owners (whoever runs the installation made it).
    expect(await gettingStarted(memberPrincipal({ orgId: org.id, userId: owner.id, role: "owner" }))).toMatchObject({
      keyCreated: true,
      namespaceCreated: true,
    });

    await grant(key, ns.id, member.id);
    expect(await gettingStarted(asMember)).toMatchObject({
      keyCreated: false,
      namespaceCreated: true,
      firstNamespaceId: ns.id,
    });

    // A connected MCP client's key (OAuth) is not an API key the member made.
    const connection = await createApiKey(
      {
        orgId: org.id,
        name: "Claude",
        permissions: ["NAMESPACE_READ"],
        createdById: member.id,
        namespaceIds: [ns.id],
        oauth: { clientId: "client_1", grantId: `grant_${Math.random().toString(36).slice(2)}` },
      },
      SYSTEM_ACTOR,
    );
    expect(connection.key.oauthClientId).toBe("client_1");
    expect(await gettingStarted(asMember)).toMatchObject({ keyCreated: false });

    await createApiKey(
      { orgId: org.id, name: "mine", permissions: ["NAMESPACE_READ"], createdById: member.id, namespaceIds: [ns.id] },
      SYSTEM_ACTOR,
    );
    expect(await gettingStarted(asMember)).toMatchObject({ keyCreated: true });
  });

  test("an admin's checklist does not tick from another admin's key", async () => {
    const { org } = await createOrganization();
    const admin = await person(org.id, "admin");
    const other = await person(org.id, "admin");
    await createApiKey(
      { orgId: org.id, name: "theirs", permissions: ["NAMESPACE_READ"], createdById: other.id },
      SYSTEM_ACTOR,
    );
    const asAdmin = memberPrincipal({ orgId: org.id, userId: admin.id, role: "admin" });
    expect(await gettingStarted(asAdmin)).toMatchObject({ keyCreated: false });
  });
});

async function createOrganization() {
  const { createOrganization: create } = await import("@/lib/orgs/organizations");
  return { org: await create(`Org ${Math.random().toString(36).slice(2, 6)}`, SYSTEM_ACTOR) };
}

describe("the try-it panel's actions run the API's operations as the person", () => {
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let ns: { id: string };
  let slug: string;
  let owner: { id: string };

  beforeAll(async () => {
    tenant = await createTenant("Try it");
    ns = await createNamespace(tenant.key);
    owner = await person(tenant.org.id, "owner");
    slug = tenant.org.slug;
  });

  test("remember, then recall finds it with a score and a time; ask answers citing it", async () => {
    signedInAs(owner.id);
    const content = "Dana's standing order is a flat white with oat milk.";
    const remembered = await tryRemember(slug, { namespace_id: ns.id, content, identity_id: "dana" });
    if (!remembered.ok) throw new Error(remembered.error);
    expect(remembered.data.memory).toMatchObject({ content, identity_id: "dana" });
    expect(remembered.data.ms).toBeGreaterThanOrEqual(0);
    const stored = await (await db()).memory.findUniqueOrThrow({ where: { id: remembered.data.memory.id } });
    expect(stored).toMatchObject({ namespaceId: ns.id, orgId: tenant.org.id, identityId: "dana", content });

    const recalled = await tryRecall(slug, { namespace_id: ns.id, query: "What does Dana order?" });
    if (!recalled.ok) throw new Error(recalled.error);
    const first = recalled.data.matches[0];
    expect(first).toMatchObject({ memory_id: remembered.data.memory.id, content });
    expect(first.score).toBeGreaterThan(0);
    expect(Number.isInteger(recalled.data.ms)).toBe(true);

    const asked = await tryAsk(slug, { namespace_id: ns.id, query: "What is Dana's standing order?" });
    if (!asked.ok) throw new Error(asked.error);
    expect(asked.data.sources.map((source) => source.memory_id)).toContain(remembered.data.memory.id);
    expect(asked.data.answer).toMatch(/oat milk/);
    expect(asked.data.ms).toBeGreaterThanOrEqual(0);
  });

  test("the API's validation, field by field: blank text and a bad identity change nothing", async () => {
    signedInAs(owner.id);
    const before = await (await db()).memory.count({ where: { namespaceId: ns.id } });
    const blank = await tryRemember(slug, { namespace_id: ns.id, content: "   " });
    expect(blank).toMatchObject({ ok: false, fields: { content: expect.any(String) } });
    // Only invisible characters (zero-width space, word joiner, soft hyphen): as blank as white space.
    const invisible = await tryRemember(slug, { namespace_id: ns.id, content: "\u200b\u2060\u00ad" });
    expect(invisible).toMatchObject({ ok: false, fields: { content: expect.stringMatching(/invisible characters/) } });
    const badIdentity = await tryRemember(slug, { namespace_id: ns.id, content: "x", identity_id: "" });
    expect(badIdentity).toMatchObject({ ok: false, fields: { identity_id: expect.any(String) } });
    const blankQuery = await tryRecall(slug, { namespace_id: ns.id, query: "" });
    expect(blankQuery).toMatchObject({ ok: false, fields: { query: expect.any(String) } });
    const invisibleQuery = await tryAsk(slug, { namespace_id: ns.id, query: "\ufeff\u200d" });
    expect(invisibleQuery).toMatchObject({
      ok: false,
      fields: { query: expect.stringMatching(/invisible characters/) },
    });
    // Not the form's shape (an extra field, a number): refused before any operation runs.
    expect(await tryRemember(slug, { namespace_id: ns.id, content: "x", scopes: { a: "b" } })).toMatchObject({
      ok: false,
    });
    expect(await tryAsk(slug, { namespace_id: ns.id, query: 42 })).toMatchObject({ ok: false });
    expect(await (await db()).memory.count({ where: { namespaceId: ns.id } })).toBe(before);
  });

  test("another organization's namespace, or one not granted to a member, is not found and gets nothing", async () => {
    const other = await createTenant("Try it, other org");
    const foreign = await createNamespace(other.key);
    await api("POST", "/remember", { key: other.key, body: { namespace_id: foreign.id, content: "secret plans" } });
    signedInAs(owner.id);
    for (const attempt of [
      tryRemember(slug, { namespace_id: foreign.id, content: "planted" }),
      tryRecall(slug, { namespace_id: foreign.id, query: "secret plans" }),
      tryAsk(slug, { namespace_id: foreign.id, query: "what are the secret plans?" }),
    ]) {
      const result = await attempt;
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/not found/i);
    }
    expect(await (await db()).memory.count({ where: { namespaceId: foreign.id } })).toBe(1);

    const member = await person(tenant.org.id, "member");
    signedInAs(member.id);
    const refused = await tryRecall(slug, { namespace_id: ns.id, query: "Dana" });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/not found/i) });
    await grant(tenant.key, ns.id, member.id);
    expect(await tryRecall(slug, { namespace_id: ns.id, query: "Dana" })).toMatchObject({ ok: true });
    // Someone of another organization with this organization's slug: not a member.
    const stranger = await person(other.org.id, "owner");
    signedInAs(stranger.id);
    expect(await tryRecall(slug, { namespace_id: ns.id, query: "Dana" })).toMatchObject({ ok: false });
  });
});

describe("the copy-ready curl", () => {
  /**
   * Runs the command in bash with `curl` replaced by a function that prints its arguments (one JSON array),
   * so what the shell hands curl is checked without a network: the URL, the headers, the body.
   */
  async function argumentsOf(command: string, env: Record<string, string> = {}) {
    const shim = `curl() { node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- "$@"; }\n`;
    const { stdout } = await run("bash", ["-c", shim + command], { env: { ...process.env, ...env } });
    return JSON.parse(stdout) as string[];
  }

  test("quotes what a person may type: quotes, $, backticks, backslashes, newlines, emoji", async () => {
    for (const text of [`it's`, `'`, `''`, `a'b'c`, "$HOME `id` $(id) \\n \\", "two\nlines\ttab", "😀 café", "@file"]) {
      expect((await run("bash", ["-c", `printf %s ${shellQuote(text)}`])).stdout).toBe(text);
    }
  });

  test("the shell hands curl the exact body, the key from $MEMGW_API_KEY, and the URL", async () => {
    const body = {
      namespace_id: "ns_1",
      content: `Dana's "flat white" costs $4 \`today\`\nwith 'oat' milk \\o/`,
      identity_id: "dana",
    };
    const args = await argumentsOf(curlCommand("http://127.0.0.1:3000/api/v1/remember", body), {
      MEMGW_API_KEY: "mgw_secret",
    });
    expect(args).toEqual([
      "-sS",
      "-X",
      "POST",
      "http://127.0.0.1:3000/api/v1/remember",
      "-H",
      "Authorization: Bearer mgw_secret",
      "-H",
      "Content-Type: application/json",
      "--data-raw",
      JSON.stringify(body, null, 2),
    ]);
  });

  test("the request the shell makes, sent to the API with a real key, stores and recalls the same memory", async () => {
    const { key } = await createTenant("Curl");
    const ns = await createNamespace(key);
    const content = `O'Brien's order: "two sugars" — $3.50, no 'foam'.`;
    const origin = "http://gateway.test";
    const args = await argumentsOf(curlCommand(`${origin}/api/v1/remember`, { namespace_id: ns.id, content }), {
      MEMGW_API_KEY: key,
    });
    const header = (name: string) =>
      args.filter((_, i) => args[i - 1] === "-H").find((value) => value.toLowerCase().startsWith(`${name}:`));
    const response = await routeRequest(
      new Request(args[3], {
        method: args[2],
        headers: {
          authorization: header("authorization")!.slice("authorization:".length).trim(),
          "content-type": header("content-type")!.slice("content-type:".length).trim(),
        },
        body: args[args.indexOf("--data-raw") + 1],
      }),
    );
    expect(response.status).toBe(201);
    expect((await response.json()).data).toMatchObject({ content, namespace_id: ns.id });
    const recalled = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "O'Brien order" } });
    expect(recalled.body.data[0].content).toBe(content);
  });
});
