// The console's sign-in safeguards below the browser: secrets at rest, lock-out, rate limits, SSO set-up.
import { afterEach, describe, expect, test, vi } from "vitest";
import { clearFailedSignIns, lockedUntil, LOCKOUT_MS, recordFailedSignIn } from "@/lib/auth/lockout";
import { findSsoOrganization, getOidcConnection, oidcCredentials, saveOidcConnection } from "@/lib/auth/sso";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { decrypt, encrypt } from "@/lib/crypto/encryption";
import { db } from "@/lib/db";
import { createOrganization, updateSignInPolicy } from "@/lib/orgs/organizations";

const savedKeys = {
  ENCRYPTION_KEY: process.env.ENCRYPTION_KEY,
  ENCRYPTION_KEYS_RETIRED: process.env.ENCRYPTION_KEYS_RETIRED,
};
afterEach(() => {
  for (const [name, value] of Object.entries(savedKeys)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  vi.useRealTimers();
});

const unique = () => Math.random().toString(36).slice(2, 8);

describe("encryption of stored secrets", () => {
  test("a secret decrypts in its own context only, and never encrypts to the same text twice", () => {
    process.env.ENCRYPTION_KEY = "test encryption key";
    const first = encrypt("client secret", "oidc_connections:org_a:sso_1");
    const second = encrypt("client secret", "oidc_connections:org_a:sso_1");
    expect(first).not.toBe(second);
    expect(first).not.toContain("client secret");
    expect(decrypt(first, "oidc_connections:org_a:sso_1")).toBe("client secret");
    expect(() => decrypt(first, "oidc_connections:org_b:sso_1")).toThrow();
    const [format, keyId, iv, body] = first.split(":");
    const tampered = [format, keyId, iv, body.slice(0, -2) + (body.endsWith("AA") ? "BB" : "AA")].join(":");
    expect(() => decrypt(tampered, "oidc_connections:org_a:sso_1")).toThrow();
  });

  test("after a key rotation, old ciphertexts decrypt while the old key is listed as retired", () => {
    process.env.ENCRYPTION_KEY = "the old key";
    const old = encrypt("secret", "ctx");
    process.env.ENCRYPTION_KEY = "the new key";
    expect(() => decrypt(old, "ctx")).toThrow(/unknown format or key/);
    process.env.ENCRYPTION_KEYS_RETIRED = "something else, the old key";
    expect(decrypt(old, "ctx")).toBe("secret");
    const renewed = encrypt("secret", "ctx");
    expect(renewed.split(":")[1]).not.toBe(old.split(":")[1]);
    delete process.env.ENCRYPTION_KEYS_RETIRED;
    expect(decrypt(renewed, "ctx")).toBe("secret");
  });
});

describe("password lock-out", () => {
  test("five failures in a row lock an address for 15 minutes; a success clears the count", async () => {
    const email = `lock-${unique()}@example.com`;
    for (let i = 0; i < 4; i++) await recordFailedSignIn(email);
    expect(await lockedUntil(email)).toBeNull();
    await clearFailedSignIns(email);
    for (let i = 0; i < 4; i++) await recordFailedSignIn(email);
    expect(await lockedUntil(email)).toBeNull();
    const before = Date.now();
    await recordFailedSignIn(email);
    const until = await lockedUntil(email);
    expect(until!.getTime()).toBeGreaterThanOrEqual(before + LOCKOUT_MS);
    expect(until!.getTime()).toBeLessThanOrEqual(Date.now() + LOCKOUT_MS);
    expect(await lockedUntil(`other-${email}`)).toBeNull();
  });

  test("when a lock runs out the address is open, and counting starts again from zero", async () => {
    const email = `expiry-${unique()}@example.com`;
    for (let i = 0; i < 5; i++) await recordFailedSignIn(email);
    expect(await lockedUntil(email)).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + LOCKOUT_MS + 1000);
    expect(await lockedUntil(email)).toBeNull();
    await recordFailedSignIn(email);
    expect(await lockedUntil(email)).toBeNull();
    const prisma = await db();
    expect(await prisma.signInLockout.findUnique({ where: { email } })).toMatchObject({
      failures: 1,
      lockedUntil: null,
    });
  });
});

describe("SSO connection", () => {
  const connection = (domain: string) => ({
    issuer: "https://idp.example.com/",
    client_id: "gateway",
    client_secret: "s3cret-value",
    allowed_domains: [domain],
  });

  test("the client secret is stored encrypted, shown to nobody, and the audit log does not carry it", async () => {
    const org = await createOrganization(`Sso ${unique()}`, SYSTEM_ACTOR);
    await saveOidcConnection(org.id, connection("initech.test"), SYSTEM_ACTOR);
    const prisma = await db();
    const row = await prisma.oidcConnection.findUniqueOrThrow({ where: { orgId: org.id } });
    expect(row.clientSecretEncrypted).not.toContain("s3cret-value");
    expect(row.issuer).toBe("https://idp.example.com");
    expect(await getOidcConnection(org.id)).not.toHaveProperty("clientSecret");
    expect((await oidcCredentials(org.id))?.clientSecret).toBe("s3cret-value");
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { orgId: org.id, action: "sso.create" } });
    expect(JSON.stringify(audit)).not.toContain("s3cret-value");

    // An edit with an empty secret keeps the stored one.
    await saveOidcConnection(
      org.id,
      { ...connection("initech.test"), client_id: "gateway-2", client_secret: "" },
      SYSTEM_ACTOR,
    );
    expect(await oidcCredentials(org.id)).toMatchObject({ clientId: "gateway-2", clientSecret: "s3cret-value" });

    // Copied into another organization's row, the ciphertext does not decrypt.
    const other = await createOrganization(`Sso ${unique()}`, SYSTEM_ACTOR);
    await saveOidcConnection(other.id, connection("other.test"), SYSTEM_ACTOR);
    await prisma.oidcConnection.update({
      where: { orgId: other.id },
      data: { clientSecretEncrypted: row.clientSecretEncrypted },
    });
    await expect(oidcCredentials(other.id)).rejects.toThrow();
  });

  test(
    "a first connection needs a secret; SSO can be allowed only once connected; " + "sign-in finds the org only then",
    async () => {
      const org = await createOrganization(`Sso ${unique()}`, SYSTEM_ACTOR);
      const domain = `hooli-${unique()}.test`;
      await expect(
        saveOidcConnection(org.id, { ...connection(domain), client_secret: "" }, SYSTEM_ACTOR),
      ).rejects.toThrow("A client secret is needed");
      const policy = { allowPassword: true, allowMagicLink: true, allowSso: true };
      await expect(updateSignInPolicy(org.id, policy, SYSTEM_ACTOR)).rejects.toThrow("Set up the SSO connection");
      const prisma = await db();
      expect(await prisma.organization.findUniqueOrThrow({ where: { id: org.id } })).toMatchObject({ allowSso: false });

      await saveOidcConnection(org.id, connection(domain), SYSTEM_ACTOR);
      await expect(findSsoOrganization(`jared@${domain}`)).rejects.toThrow();
      await updateSignInPolicy(org.id, policy, SYSTEM_ACTOR);
      expect((await findSsoOrganization(`Jared@${domain.toUpperCase()}`)).id).toBe(org.id);
      expect((await findSsoOrganization(org.slug)).id).toBe(org.id);
      await expect(findSsoOrganization("jared@elsewhere.test")).rejects.toThrow();

      // A second organization listing the same (unverified) domain: the email no longer picks either.
      const squatter = await createOrganization(`Sso ${unique()}`, SYSTEM_ACTOR);
      await saveOidcConnection(squatter.id, connection(domain), SYSTEM_ACTOR);
      await updateSignInPolicy(squatter.id, policy, SYSTEM_ACTOR);
      await expect(findSsoOrganization(`jared@${domain}`)).rejects.toThrow("enter your organization's slug instead");
      expect((await findSsoOrganization(org.slug)).id).toBe(org.id);
    },
  );
});
