// Console sign-in under attack (issue 12): SSRF through the SSO issuer, open redirects, spoofed client
// addresses, rate limits that a JSON body or a forged header dodged, and sessions that outlived sign-out.
import dns from "node:dns";
import https from "node:https";
import { encode } from "next-auth/jwt";
import { custom, Issuer } from "openid-client";
import { afterEach, describe, expect, test, vi } from "vitest";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { changePassword } from "@/lib/auth/account";
import { authOptions } from "@/lib/console/auth";
import { ssoProfileFields } from "@/lib/orgs/sign-in";
import {
  consoleSessionActive,
  endConsoleSessions,
  listConsoleSessions,
  startConsoleSession,
} from "@/lib/auth/console-sessions";
import { signInRateLimit } from "@/lib/console/sign-in-rate-limit";
import { saveOidcConnection, ssoProviderId } from "@/lib/auth/sso";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { clientAddress, rateLimitAddress } from "@/lib/net/client-address";
import { checkOutboundUrl, outboundHttpOptions } from "@/lib/net/outbound";
import { createOrganization, updateSignInPolicy } from "@/lib/orgs/organizations";
import { createUser } from "@/lib/orgs/users";
import { serverSecret } from "@/lib/secrets";

const unique = () => Math.random().toString(36).slice(2, 8);
// What scripts/start.mjs declares when it sets x-memgw-client-address from the socket.
process.env.MEMGW_SERVER_SETS_CLIENT_ADDRESS = "1";
const savedEnv = {
  ALLOW_PRIVATE_OUTBOUND: process.env.ALLOW_PRIVATE_OUTBOUND,
  TRUSTED_PROXIES: process.env.TRUSTED_PROXIES,
};
afterEach(() => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  vi.restoreAllMocks();
});

describe("open redirect after sign-in (item 11)", () => {
  const base = "http://gateway.test";
  test.each([
    "//evil.example/steal",
    "/\\evil.example/steal",
    "\t//evil.example",
    "/\\/evil.example",
    "https://evil.example/",
    "javascript:alert(document.cookie)",
    "http://gateway.test.evil.example/",
    "http://gateway.test:8080/",
  ])("%j ends on this server's home page", async (callbackUrl) => {
    expect(safeCallbackPath(callbackUrl, base)).toBe("/");
    const options = await authOptions();
    expect(await options.callbacks!.redirect!({ url: callbackUrl, baseUrl: base })).toBe(`${base}/`);
  });

  test("paths on this server are kept, and cannot turn protocol-relative", async () => {
    expect(safeCallbackPath("/acme/keys?tab=1#new", base)).toBe("/acme/keys?tab=1#new");
    expect(safeCallbackPath(`${base}/acme/members`, base)).toBe("/acme/members");
    expect(safeCallbackPath("/.//evil.example/x", base)).toBe("/evil.example/x");
    const options = await authOptions();
    expect(await options.callbacks!.redirect!({ url: "/acme/keys", baseUrl: base })).toBe(`${base}/acme/keys`);
  });
});

describe("outbound requests to user-set URLs (item 10)", () => {
  test("only https, unless the operator allows plain http and private addresses; metadata never", () => {
    for (const url of [
      "http://idp.example.com",
      "javascript:alert(1)",
      "file:///etc/passwd",
      "https://127.0.0.1",
      "https://[::1]",
      "https://10.1.2.3",
      "https://169.254.169.254/latest",
      "https://[::ffff:127.0.0.1]",
      "https://[::ffff:7f00:1]",
      "https://100.64.0.1",
      "https://192.168.1.1",
      "https://localhost",
      "https://user:pw@idp.example.com",
    ]) {
      expect(() => checkOutboundUrl(url, "issuer"), url).toThrow(/The issuer must/);
    }
    expect(checkOutboundUrl("https://idp.example.com/realms/acme").hostname).toBe("idp.example.com");
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    expect(checkOutboundUrl("http://127.0.0.1:2592").port).toBe("2592");
    expect(() => checkOutboundUrl("https://169.254.169.254/latest", "issuer")).toThrow(/metadata/);
    // The same address written as IPv6 (IPv4-mapped, hex or dotted) is refused as well.
    for (const url of ["http://[::ffff:169.254.169.254]/latest", "http://[::ffff:a9fe:a9fe]/latest"]) {
      expect(() => checkOutboundUrl(url, "issuer"), url).toThrow(/metadata/);
    }
    expect(() => checkOutboundUrl("javascript:alert(1)", "issuer")).toThrow(/https/);
  });

  test("saving an SSO connection with a plain-http or loopback issuer is a field error; nothing is saved", async () => {
    const org = await createOrganization(`Ssrf ${unique()}`, SYSTEM_ACTOR);
    const form = { client_id: "gateway", client_secret: "secret", allowed_domains: ["acme.test"] };
    for (const issuer of ["http://idp.acme.test", "https://127.0.0.1:8080", "https://[fd00::1]"]) {
      const refused = await saveOidcConnection(org.id, { ...form, issuer }, SYSTEM_ACTOR).catch((error) => error);
      expect(refused).toMatchObject({ name: "OutboundUrlError", details: [{ field: "issuer" }] });
    }
    const prisma = await db();
    expect(await prisma.oidcConnection.findUnique({ where: { orgId: org.id } })).toBeNull();
  });

  test("a name resolving to a private address is refused on connect, as are IP literals and plain http", async () => {
    const realLookup = dns.lookup;
    // The issuer passed the check when saved; now its name points inside the network (DNS rebinding).
    vi.spyOn(dns, "lookup").mockImplementation(((
      hostname: string,
      options: dns.LookupOptions,
      callback: (...args: unknown[]) => void,
    ) => {
      if (hostname === "idp.rebound.test") return callback(null, [{ address: "10.0.0.5", family: 4 }]);
      return (realLookup as unknown as (...args: unknown[]) => void)(hostname, options, callback);
    }) as never);
    const org = await createOrganization(`Ssrf ${unique()}`, SYSTEM_ACTOR);
    await saveOidcConnection(
      org.id,
      {
        issuer: "https://idp.rebound.test",
        client_id: "gateway",
        client_secret: "secret",
        allowed_domains: ["rebound.test"],
      },
      SYSTEM_ACTOR,
    );
    await updateSignInPolicy(org.id, { allowPassword: true, allowMagicLink: true, allowSso: true }, SYSTEM_ACTOR);
    const provider = (await authOptions(ssoProviderId(org.id))).providers.find(
      (p) => p.id === ssoProviderId(org.id),
    ) as unknown as { wellKnown: string; httpOptions: object };
    // What next-auth's OAuth client does before each SSO sign-in (next-auth/core/lib/oauth/client.js).
    custom.setHttpOptionsDefaults(provider.httpOptions);
    await expect(Issuer.discover(provider.wellKnown)).rejects.toThrow(
      /Refused to connect to idp.rebound.test \(10.0.0.5\)/,
    );

    const get = (url: string) =>
      new Promise<void>((resolve, reject) =>
        https.get(url, outboundHttpOptions(), () => resolve()).on("error", reject),
      );
    await expect(get("https://127.0.0.1:9/")).rejects.toThrow(/Refused to connect to 127.0.0.1/);
    await expect(get("https://[::ffff:a9fe:a9fe]:9/")).rejects.toThrow(/metadata/);
    custom.setHttpOptionsDefaults(outboundHttpOptions());
    await expect(Issuer.discover("http://idp.example.com")).rejects.toThrow(/Protocol "http:" not supported/);
  });

  test("no SSO provider (and so no discovery request) for an organization whose SSO is off", async () => {
    const org = await createOrganization(`Ssrf ${unique()}`, SYSTEM_ACTOR);
    await saveOidcConnection(
      org.id,
      {
        issuer: "https://idp.example.com",
        client_id: "gateway",
        client_secret: "secret",
        allowed_domains: ["example.com"],
      },
      SYSTEM_ACTOR,
    );
    const ids = async () => (await authOptions(ssoProviderId(org.id))).providers.map((p) => p.id);
    expect(await ids()).toEqual(["credentials", "email"]);
    await updateSignInPolicy(org.id, { allowPassword: true, allowMagicLink: true, allowSso: true }, SYSTEM_ACTOR);
    expect(await ids()).toEqual(["credentials", "email", ssoProviderId(org.id)]);
    // A connection stored before the outbound rules (here written straight to the table) is not used either.
    const prisma = await db();
    await prisma.oidcConnection.update({
      where: { orgId: org.id },
      data: { issuer: "http://169.254.169.254/latest/meta-data" },
    });
    expect(await ids()).toEqual(["credentials", "email"]);
  });
});

describe("client address and sign-in rate limits (item 12)", () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  test("X-Forwarded-For is ignored unless TRUSTED_PROXIES names the peer; then read right to left", () => {
    const spoofed = { "x-memgw-client-address": "203.0.113.7", "x-forwarded-for": "1.2.3.4" };
    expect(clientAddress(headers(spoofed))).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "1.2.3.4" }))).toBe("unknown");
    expect(clientAddress(headers({ "x-memgw-client-address": "::ffff:198.51.100.9" }))).toBe("198.51.100.9");
    // Under a server that does not set the header (next start), a client could have written it.
    delete process.env.MEMGW_SERVER_SETS_CLIENT_ADDRESS;
    expect(clientAddress(headers(spoofed))).toBe("unknown");
    process.env.MEMGW_SERVER_SETS_CLIENT_ADDRESS = "1";

    process.env.TRUSTED_PROXIES = "10.0.0.0/8, 192.168.1.1";
    // The client wrote "1.2.3.4" itself; the proxy appended the address it saw.
    const proxied = { "x-memgw-client-address": "10.0.0.2", "x-forwarded-for": "1.2.3.4, 198.51.100.20, 192.168.1.1" };
    expect(clientAddress(headers(proxied))).toBe("198.51.100.20");
    expect(clientAddress(headers({ ...spoofed }))).toBe("203.0.113.7");
    expect(
      clientAddress(headers({ "x-memgw-client-address": "10.0.0.2", "x-forwarded-for": "garbage, 10.0.0.3" })),
    ).toBe("10.0.0.3");
  });

  function magicLinkRequest(body: string, type: string, address: string, forwardedFor = "") {
    return new Request("http://gateway.test/api/auth/signin/email", {
      method: "POST",
      headers: {
        "content-type": type,
        "x-memgw-client-address": address,
        ...(forwardedFor && { "x-forwarded-for": forwardedFor }),
      },
      body,
    });
  }

  test("JSON-body magic-link requests count per email too (5 per 15 min), however the address is spelled", async () => {
    const email = `json-${unique()}@example.com`;
    const spellings = [email, email.toUpperCase(), ` ${email} `, `${email},evil.example`, email];
    for (const [i, spelling] of spellings.entries()) {
      const limited = await signInRateLimit(
        magicLinkRequest(JSON.stringify({ email: spelling, json: "true" }), "application/json", `198.51.100.${i}`),
        "signin",
        "email",
      );
      expect(limited, spelling).toBeNull();
    }
    const refused = await signInRateLimit(
      magicLinkRequest(JSON.stringify({ email, json: "true" }), "application/json", "198.51.100.99"),
      "signin",
      "email",
    );
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused?.json()).toMatchObject({ error: { code: "RATE_LIMITED" } });
    // The form-encoded request for the same address is refused as well: one counter.
    const form = await signInRateLimit(
      magicLinkRequest(new URLSearchParams({ email }).toString(), "application/x-www-form-urlencoded", "198.51.100.98"),
      "signin",
      "email",
    );
    expect(form?.status).toBe(429);
  });

  test("a forged X-Forwarded-For does not give a client a fresh per-address budget", async () => {
    const address = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    let refused: Response | null = null;
    for (let i = 0; i < 31 && !refused; i++) {
      const body = new URLSearchParams({ email: `someone-${unique()}@example.com` }).toString();
      refused = await signInRateLimit(
        magicLinkRequest(body, "application/x-www-form-urlencoded", address, `10.9.${i}.1`),
        "signin",
        "email",
      );
      if (i < 30) expect(refused).toBeNull();
    }
    expect(refused?.status).toBe(429);
  });
});

describe("rate limits that a repeated field or a new IPv6 address dodged (review of issue 12)", () => {
  function authRequest(path: string, body: string, address: string) {
    return new Request(`http://gateway.test/api/auth/${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-memgw-client-address": address },
      body,
    });
  }

  test("a form naming the email twice gets 400 (next-auth mails the last, the limit counts the first)", async () => {
    const victim = `victim-${unique()}@example.com`;
    // The victim's per-email budget is used up.
    for (let i = 0; i < 5; i++) {
      expect(
        await signInRateLimit(
          authRequest("signin/email", `email=${victim}`, `198.51.100.${150 + i}`),
          "signin",
          "email",
        ),
      ).toBeNull();
    }
    const body = `email=${encodeURIComponent(`decoy-${unique()}@example.com`)}&email=${encodeURIComponent(victim)}`;
    const refused = await signInRateLimit(authRequest("signin/email", body, "198.51.100.160"), "signin", "email");
    expect(refused?.status).toBe(400);
    expect(await refused?.json()).toMatchObject({ error: { code: "BAD_REQUEST" } });
    const password = await signInRateLimit(
      authRequest("callback/credentials", `${body}&password=guess`, "198.51.100.161"),
      "callback",
      "credentials",
    );
    expect(password?.status).toBe(400);
    // One email field is read as next-auth reads it.
    const single = await signInRateLimit(
      authRequest("signin/email", `email=${victim}`, "198.51.100.162"),
      "signin",
      "email",
    );
    expect(single?.status).toBe(429);
  });

  test("IPv6 clients are counted by their /64 prefix; the session list keeps the full address", async () => {
    expect(rateLimitAddress("198.51.100.7")).toBe("198.51.100.7");
    expect(rateLimitAddress("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(rateLimitAddress("2001:0db8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(rateLimitAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(rateLimitAddress("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitAddress("64:ff9b::198.51.100.7")).toBe("64:ff9b:0:0::/64");
    expect(rateLimitAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(rateLimitAddress("unknown")).toBe("unknown");
    const full = "2001:db8:5:6:1:2:3:4";
    expect(clientAddress(new Headers({ "x-memgw-client-address": `[${full}]` }))).toBe(full);

    // 30 magic-link requests an address per 15 minutes: a new address of the same /64 each time is no way round.
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    let refused: Response | null = null;
    for (let i = 0; i < 31 && !refused; i++) {
      const body = new URLSearchParams({ email: `rotating-${unique()}@example.com` }).toString();
      refused = await signInRateLimit(
        authRequest("signin/email", body, `${prefix}:${i.toString(16)}:1:2:3`),
        "signin",
        "email",
      );
      if (i < 30) expect(refused).toBeNull();
    }
    expect(refused?.status).toBe(429);
  });
});

describe("SSO profile data (review of issue 12)", () => {
  test("the email is checked like every other address and the name like every other name", () => {
    expect(ssoProfileFields({ email: "Ann@Acme.test", name: "  Ann Lee " })).toEqual({
      email: "ann@acme.test",
      name: "Ann Lee",
    });
    for (const name of ["Ann\u0000", "Ann\ud800", "Ann\u202egnp.exe", "x".repeat(1_000_000), "", 42, null, undefined]) {
      expect(ssoProfileFields({ email: "ann@acme.test", name }).name).toBeNull();
    }
    for (const email of [
      "not an email",
      "ann@acme.test\u0000",
      "ann@acme.test,evil.example",
      `${"a".repeat(300)}@acme.test`,
      7,
      undefined,
    ]) {
      expect(ssoProfileFields({ email, name: "Ann" }).email).toBe("");
    }
  });

  test("an invalid email fails SSO sign-in with its own message; the adapter stores no unchecked profile", async () => {
    const org = await createOrganization(`Profile ${unique()}`, SYSTEM_ACTOR);
    await saveOidcConnection(
      org.id,
      {
        issuer: "https://idp.example.com",
        client_id: "gateway",
        client_secret: "secret",
        allowed_domains: ["acme.test"],
      },
      SYSTEM_ACTOR,
    );
    await updateSignInPolicy(org.id, { allowPassword: true, allowMagicLink: true, allowSso: true }, SYSTEM_ACTOR);
    const options = await authOptions(ssoProviderId(org.id));
    const provider = options.providers.find((p) => p.id === ssoProviderId(org.id)) as unknown as {
      profile: (profile: Record<string, unknown>) => { id: string; email: string; name: string | null };
    };
    const user = provider.profile({ sub: "idp-1", email: "ann@acme.test\u0000", name: "Ann\u202e" });
    expect(user).toEqual({ id: "idp-1", email: "", name: null });
    const account = { provider: ssoProviderId(org.id), type: "oauth" as const, providerAccountId: "idp-1" };
    expect(await options.callbacks!.signIn!({ user, account, profile: { email_verified: true } as never })).toBe(
      "/sign-in?error=SsoEmailInvalid",
    );

    const adapter = options.adapter!;
    await expect(
      adapter.createUser!({ email: "not an email", name: "Ann", emailVerified: null } as never),
    ).rejects.toThrow("SsoEmailInvalid");
    const email = `ann-${unique()}@acme.test`;
    const created = await adapter.createUser!({
      email: email.toUpperCase(),
      name: `Ann${"\ud800"}`,
      emailVerified: null,
    } as never);
    expect(created).toMatchObject({ email, name: null });
  });
});

describe("console sessions end on the server (item 13)", () => {
  async function sessionCookie(userId: string, sid: string) {
    return encode({
      token: { sub: userId, uid: userId, sid, method: "password" },
      secret: serverSecret("NEXTAUTH_SECRET"),
    });
  }

  test("after sign-out the old session cookie no longer signs anyone in", async () => {
    const user = await createUser({ email: `cookie-${unique()}@example.com`, password: "a long password" });
    const sid = await startConsoleSession(user.id, "password", {
      userAgent: "Mozilla/5.0 (X11; Linux) Chrome/140",
      clientAddress: "198.51.100.1",
    });
    const cookie = await sessionCookie(user.id, sid);
    const options = await authOptions();
    const decode = (token: string) => options.jwt!.decode!({ token, secret: serverSecret("NEXTAUTH_SECRET") });
    expect(await decode(cookie)).toMatchObject({ uid: user.id, sid });

    await options.events!.signOut!({ token: (await decode(cookie))!, session: undefined as never });
    expect(await decode(cookie)).toBeNull();
    expect(await listConsoleSessions(user.id)).toEqual([]);

    // A cookie naming another user's session does not work either.
    const other = await createUser({ email: `cookie-${unique()}@example.com` });
    const otherSid = await startConsoleSession(other.id, "magic_link");
    expect(await decode(await sessionCookie(user.id, otherSid))).toBeNull();
    expect(await consoleSessionActive(otherSid, other.id)).toBe(true);
  });

  test("a password change needs the current password and signs out every other session", async () => {
    const user = await createUser({ email: `change-${unique()}@example.com`, password: "the old password" });
    const [current, laptop, phone] = [
      await startConsoleSession(user.id, "password"),
      await startConsoleSession(user.id, "password"),
      await startConsoleSession(user.id, "magic_link"),
    ];
    const change = (currentPassword: string) =>
      changePassword({ userId: user.id, currentSessionId: current, currentPassword, newPassword: "the new password" });
    await expect(change("a wrong guess")).rejects.toMatchObject({
      name: "InvalidError",
      details: [{ field: "current_password" }],
    });
    expect(await listConsoleSessions(user.id)).toHaveLength(3);

    expect(await change("the old password")).toEqual({ endedSessions: 2 });
    expect((await listConsoleSessions(user.id)).map((s) => s.id)).toEqual([current]);
    expect(await consoleSessionActive(laptop, user.id)).toBe(false);
    expect(await consoleSessionActive(phone, user.id)).toBe(false);
    const authorize = (
      (await authOptions()).providers[0] as unknown as { options: { authorize: (c: object) => Promise<unknown> } }
    ).options.authorize;
    await expect(authorize({ email: user.email, password: "the old password" })).rejects.toThrow("InvalidCredentials");
    await expect(authorize({ email: user.email, password: "the new password" })).resolves.toMatchObject({
      id: user.id,
    });

    expect(await endConsoleSessions(user.id)).toBe(1);
    expect(await consoleSessionActive(current, user.id)).toBe(false);
  });
});
