import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { serveAdminCommands } from "@/lib/admin/socket";
import { dataDir } from "@/lib/config";
import { db, getDatabase } from "@/lib/db";
import { readLockOwner } from "@/lib/db/lock";
import { createOrganization } from "@/lib/orgs/organizations";
import { api } from "../helpers/api";
import { memgw } from "../helpers/cli";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { onPostgres } from "../helpers/postgres";
import { newDataDir } from "../helpers/embedded-template";

function expectOneLineError(result: { code: number; stderr: string; stdout: string }, code: number, pattern: RegExp) {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^memgw: /);
  expect(lines[0]).toMatch(pattern);
}

describe("with no server running (the CLI opens the embedded database itself)", () => {
  const dir = newDataDir("memgw-cli-");
  const run = (...args: string[]) => memgw(args, { DATA_DIR: dir });

  // Five processes, each opening the embedded database (a copy of the run's migrated one) by itself.
  test("each command prints JSON, and an org, owner and key made by it work", { timeout: 180_000 }, async () => {
    const org = await run("org", "create", "--name", "Acme Robotics");
    expect(org.code).toBe(0);
    expect(org.json).toMatchObject({ name: "Acme Robotics", slug: "acme-robotics" });
    expect(org.json.id).toMatch(/^org_/);

    const user = await run("user", "create", "--email", "Ada@Example.com", "--password", "correct horse battery");
    expect(user.code).toBe(0);
    expect(user.json).toMatchObject({ email: "ada@example.com" });
    expect(user.stdout).not.toContain("correct horse");

    const member = await run("member", "add", "--org", "acme-robotics", "--user", "ada@example.com", "--role", "owner");
    expect(member.code).toBe(0);
    expect(member.json).toMatchObject({ org_id: org.json.id, user_id: user.json.id, role: "owner" });

    const key = await run(
      "key",
      "create",
      "--org",
      org.json.id,
      "--name",
      "support bot",
      "--permissions",
      "NAMESPACE_READ,NAMESPACE_WRITE",
      "--scope",
      "team=sales",
      "--scope=region=eu",
    );
    expect(key.code).toBe(0);
    expect(key.json).toMatchObject({
      org_id: org.json.id,
      name: "support bot",
      permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
      scopes: { team: "sales", region: "eu" },
      namespace_ids: [],
    });
    expect(key.json.secret).toMatch(/^mgw_/);
    expect(key.json.display).toBe(`mgw_…${key.json.secret.slice(-4)}`);

    const revoke = await run("key", "revoke", "--id", key.json.id);
    expect(revoke.code).toBe(0);
    expect(revoke.json).toMatchObject({ id: key.json.id, name: "support bot" });
    expect(new Date(revoke.json.revoked_at).getTime()).toBeLessThanOrEqual(Date.now());
    // The CLI let go of the data directory when it finished.
    expect(readLockOwner(dir)).toBeUndefined();
  });

  test.each([
    [["org", "create"], 2, /--name/],
    [["org", "create", "--name"], 2, /--name needs a value/],
    [["org", "create", "--name", ""], 2, /--name: must not be empty/],
    [["org", "create", "--name", "a", "--colour", "red"], 2, /colour/],
    [["org", "destroy", "--name", "x"], 2, /Unknown command "org destroy"/],
    [["user", "create", "--email", "not-an-email", "--password", "long enough"], 2, /--email: must be a valid email/],
    [["user", "create", "--email", "short@example.com", "--password", "123"], 2, /--password: must be at least 8/],
    [
      ["member", "add", "--org", "nope", "--user", "nobody@example.com", "--role", "owner"],
      1,
      /Organization nope not found/,
    ],
    [["member", "add", "--org", "x", "--user", "y", "--role", "emperor"], 2, /--role/],
    [["key", "create", "--org", "x", "--name", "k", "--permissions", "NAMESPACE_READ,FLY"], 2, /--permissions/],
    [
      ["key", "create", "--org", "x", "--name", "k", "--permissions", "NAMESPACE_READ", "--scope", "noequals"],
      2,
      /key=value/,
    ],
    [
      ["key", "create", "--org", "missing-org", "--name", "k", "--permissions", "NAMESPACE_READ"],
      1,
      /Organization missing-org not found/,
    ],
    [["key", "revoke", "--id", "key_nope"], 1, /API key key_nope not found/],
  ])("memgw %j → exit %i with a one-line message", async (args, code, pattern) => {
    expectOneLineError(await run(...args), code, pattern);
  });

  test("a command with a wrong flag is refused before the database is opened", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-cli-untouched-"));
    try {
      const refused = await memgw(["user", "create", "--email", "not-an-email", "--password", "long enough"], {
        DATA_DIR: empty,
        DATABASE_URL: undefined,
      });
      expectOneLineError(refused, 2, /--email: must be a valid email/);
      // No database was created in the empty data directory, and no lock taken.
      expect(fs.readdirSync(empty)).toEqual([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  // Five processes in turn, as above: each opens the embedded database by itself (10 to 14 s on a busy 2-core machine).
  test("a duplicate user and a duplicate membership are refused", { timeout: 180_000 }, async () => {
    await run("org", "create", "--name", "Dupes");
    expect((await run("user", "create", "--email", "twice@example.com", "--password", "long enough")).code).toBe(0);
    expectOneLineError(
      await run("user", "create", "--email", "twice@example.com", "--password", "long enough"),
      1,
      /already exists/,
    );
    expect((await run("member", "add", "--org", "dupes", "--user", "twice@example.com", "--role", "admin")).code).toBe(
      0,
    );
    expectOneLineError(
      await run("member", "add", "--org", "dupes", "--user", "twice@example.com", "--role", "member"),
      1,
      /already a member/,
    );
  });

  test("key create --grant must name namespaces of that organization", async () => {
    const org = await run("org", "create", "--name", "Granting");
    expectOneLineError(
      await run(
        "key",
        "create",
        "--org",
        org.json.id,
        "--name",
        "k",
        "--permissions",
        "NAMESPACE_READ",
        "--grant",
        "ns_nope",
      ),
      1,
      /ns_nope/,
    );
  });

  test("--help lists every command; no arguments prints help and exits 2", async () => {
    const help = await run("--help");
    expect(help.code).toBe(0);
    for (const command of ["org create", "user create", "member add", "key create", "key revoke"])
      expect(help.stdout).toContain(command);
    expect((await run()).code).toBe(2);
  });
});

// On PostgreSQL the CLI talks to the database directly, as tests/db/postgres.test.ts shows.
describe.skipIf(onPostgres())("while the server runs (the CLI goes through the process that owns the data)", () => {
  test("commands are carried out by the owner, and their keys work at once", { timeout: 180_000 }, async () => {
    // This test process is the owner, serving admin commands as the server's start-up does.
    await serveAdminCommands(await getDatabase());
    const owner = readLockOwner(dataDir());
    expect(owner?.pid).toBe(process.pid);
    expect(owner?.socketPath).toBeTruthy();

    const org = await memgw(["org", "create", "--name", "Live Org"]);
    expect(org.code).toBe(0);
    const key = await memgw([
      "key",
      "create",
      "--org",
      org.json.id,
      "--name",
      "live",
      "--permissions",
      "NAMESPACE_READ,NAMESPACE_MANAGE",
    ]);
    expect(key.code).toBe(0);
    const created = await api("POST", "/namespaces", { key: key.json.secret, body: { name: "made-live" } });
    expect(created.status).toBe(201);

    // The key can be granted a namespace made by another key of the same organization.
    const other = await createTenant();
    const ns = await createNamespace(other.key);
    const granted = await memgw([
      "key",
      "create",
      "--org",
      other.org.slug,
      "--name",
      "g",
      "--permissions",
      "NAMESPACE_READ",
      "--grant",
      ns.id,
    ]);
    expect(granted.json.namespace_ids).toEqual([ns.id]);
    expect((await api("GET", `/namespaces/${ns.id}`, { key: granted.json.secret })).status).toBe(200);

    const revoked = await memgw(["key", "revoke", "--id", key.json.id]);
    expect(revoked.code).toBe(0);
    expect((await api("GET", "/namespaces", { key: key.json.secret })).status).toBe(401);

    // Errors come back from the owner just the same.
    expectOneLineError(
      await memgw(["member", "add", "--org", "nope", "--user", "x@example.com", "--role", "owner"]),
      1,
      /not found/,
    );
  });

  test("no write is lost when the CLI and the server write at the same time", async () => {
    const prisma = await db();
    const before = await prisma.organization.count();
    const serverWrites = (async () => {
      for (let i = 0; i < 40; i++) await createOrganization(`server ${i}`, { type: "system" });
    })();
    const cliWrites = Promise.all(Array.from({ length: 4 }, (_, i) => memgw(["org", "create", "--name", `cli ${i}`])));
    const [, results] = await Promise.all([serverWrites, cliWrites]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(await prisma.organization.count()).toBe(before + 44);
  });
});
