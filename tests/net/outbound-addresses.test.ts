// Where URLs that organizations type may lead (webhook endpoints, documents' URLs): only globally reachable
// unicast addresses, per the IANA IPv4 and IPv6 special-purpose registries, in every form an address can take
// in a URL (IPv4 in decimal, octal or hex; IPv6 forms that carry an IPv4 address: mapped, translated,
// compatible, NAT64 with both prefixes, 6to4, Teredo). Metadata addresses stay refused in all of them even with
// ALLOW_PRIVATE_OUTBOUND. IP literals are refused when saved; names when connecting, since a webhook's host
// that does not resolve yet is no reason to refuse it. A redirect the fetch refuses says where it led.
import dns from "node:dns";
import dnsPromises from "node:dns/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import { api } from "../helpers/api";
import { deliverWebhooks } from "../helpers/deliver-webhooks";
import { addDocument, processDocuments } from "../helpers/documents";
import { createNamespace, createTenant } from "../helpers/fixtures";

afterEach(() => {
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
  vi.restoreAllMocks();
});

/** What a URL that is refused when saved is refused for (the message of the 400). */
const REFUSED_WHEN_SAVED: [string, RegExp][] = [
  // The examples: IPv4-translated loopback, and the NAT64 forms of loopback and metadata.
  ["https://[::ffff:0:7f00:1]:3460/", /IPv4-translated form of 127\.0\.0\.1, a loopback address/],
  ["https://[64:ff9b:1::a9fe:a9fe]/", /local-use NAT64 form of 169\.254\.169\.254, a cloud metadata address/],
  ["https://[64:ff9b::7f00:1]/", /NAT64 form of 127\.0\.0\.1, a loopback address/],
  ["https://[64:ff9b:1::808:808]/", /local-use NAT64 address/],
  ["https://[64:ff9b:1:a9fe:a9:fe00::]/", /local-use NAT64 form of 169\.254\.169\.254/],
  ["https://[::ffff:127.0.0.1]/", /IPv4-mapped form of 127\.0\.0\.1, a loopback address/],
  ["https://[::ffff:a00:1]/", /IPv4-mapped form of 10\.0\.0\.1, a private address/],
  ["https://[::7f00:1]/", /IPv4-compatible form of 127\.0\.0\.1, a loopback address/],
  ["https://[2002:7f00:1::]/", /6to4 form of 127\.0\.0\.1, a loopback address/],
  ["https://[2002:a9fe:a9fe::1]/", /6to4 form of 169\.254\.169\.254, a cloud metadata address/],
  ["https://[2002:808:808::1]/", /6to4 address/],
  ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", /Teredo form of 127\.0\.0\.1, a loopback address/],
  ["https://[fe80::5efe:a9fe:a9fe]/", /ISATAP form of 169\.254\.169\.254/],
  // IPv4 in the forms a URL parser reads as dotted ones.
  ["https://2130706433/", /127\.0\.0\.1: it is a loopback address/],
  ["https://0177.0.0.1/", /127\.0\.0\.1: it is a loopback address/],
  ["https://0x7f.1/", /127\.0\.0\.1: it is a loopback address/],
  ["https://0xa9fea9fe/latest/", /169\.254\.169\.254: it is a cloud metadata address/],
  ["https://0.0.0.0/", /unspecified/],
  ["https://[::]/", /unspecified/],
  ["https://224.0.0.1/", /multicast/],
  ["https://[ff02::1]/", /multicast/],
  ["https://255.255.255.255/", /broadcast/],
  ["https://192.0.2.10/", /documentation/],
  ["https://198.51.100.7/", /documentation/],
  ["https://203.0.113.9/", /documentation/],
  ["https://[2001:db8::1]/", /documentation/],
  ["https://[3fff::1]/", /documentation/],
  ["https://100.64.0.1/", /carrier-grade NAT/],
  ["https://[fd12::1]/", /unique-local/],
  ["https://[fe80::1]/", /link-local/],
  ["https://[4000::1]/", /global unicast range/],
  ["https://[fd00:ec2::254]/", /metadata/],
  ["https://localhost./", /localhost\.: it names this machine/],
];

/** Metadata addresses in every form: refused even where private addresses are allowed. */
const METADATA_FORMS = [
  "http://169.254.169.254/",
  "http://0xa9fea9fe/",
  "http://[64:ff9b:1::a9fe:a9fe]/",
  "http://[64:ff9b:1:a9fe:a9:fe00::]/",
  "http://[64:ff9b::a9fe:a9fe]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::ffff:0:a9fe:a9fe]/",
  "http://[::a9fe:a9fe]/",
  "http://[2002:a9fe:a9fe::]/",
  "http://[2001:0:4136:e378:8000:63bf:5601:5601]/",
  "http://[fd00:ec2::254]/",
  "http://[fd20:ce::254]/",
];

async function stored(orgId: string) {
  const prisma = await db();
  return {
    endpoints: await prisma.webhookEndpoint.count({ where: { orgId } }),
    documents: await prisma.document.count({ where: { orgId } }),
  };
}

describe("IP literals are refused when saved", () => {
  test("every non-public form is a 400 with the reason, for webhook endpoints and document URLs", async () => {
    const { key, org } = await createTenant("Outbound literals");
    const ns = await createNamespace(key);
    for (const [url, reason] of REFUSED_WHEN_SAVED) {
      const webhook = await api("POST", "/webhooks", { key, body: { url } });
      expect(webhook.status, url).toBe(400);
      expect(webhook.body.error.message, url).toMatch(reason);
      const document = await api("POST", "/documents", { key, body: { namespace_id: ns.id, url } });
      expect(document.status, url).toBe(400);
      expect(document.body.error.message, url).toMatch(reason);
    }
    expect(await stored(org.id)).toEqual({ endpoints: 0, documents: 0 });
  });

  test("a receiver on this machine or a private network is refused with the setting that allows it", async () => {
    const { key, org } = await createTenant("Outbound hint");
    const hint = "allowed when the server runs with ALLOW_PRIVATE_OUTBOUND=true";
    for (const [url, message] of [
      ["http://127.0.0.1:3450/hook", "The URL must start with https:// (plain http, and addresses on this machine"],
      ["https://localhost:3450/hook", "The URL must not point to localhost: it names this machine (plain http"],
      ["https://127.0.0.1:3450/hook", "The URL must not point to 127.0.0.1: it is a loopback address (plain http"],
      ["https://10.1.2.3/hook", "The URL must not point to 10.1.2.3: it is a private address (plain http"],
      ["http://hooks.example.com/", "The URL must start with https:// (plain http"],
    ]) {
      const response = await api("POST", "/webhooks", { key, body: { url } });
      expect(response.status, url).toBe(400);
      expect(response.body.error.message, url).toContain(message);
      expect(response.body.error.message, url).toContain(hint);
      expect(response.body.error.details, url).toEqual([{ field: "url", message: expect.stringContaining(hint) }]);
    }
    // The setting does not lift these: no hint that it would.
    for (const url of ["https://169.254.169.254/", "ftp://hooks.example.com/", "https://user:pw@hooks.example.com/"]) {
      const response = await api("POST", "/webhooks", { key, body: { url } });
      expect(response.status, url).toBe(400);
      expect(response.body.error.message, url).not.toContain("ALLOW_PRIVATE_OUTBOUND");
    }
    expect(await stored(org.id)).toEqual({ endpoints: 0, documents: 0 });
  });

  test("an update to a non-public literal is refused and changes nothing", async () => {
    const { key } = await createTenant("Outbound update");
    const created = await api("POST", "/webhooks", { key, body: { url: "https://93.184.215.14/hook" } });
    expect(created.status).toBe(201);
    const id = created.body.data.endpoint.id;
    for (const url of ["https://[::ffff:0:7f00:1]:3460/", "https://[64:ff9b:1::a9fe:a9fe]/"]) {
      const response = await api("PATCH", `/webhooks/${id}`, { key, body: { url } });
      expect(response.status, url).toBe(400);
    }
    expect((await api("GET", `/webhooks/${id}`, { key })).body.data.url).toBe("https://93.184.215.14/hook");
  });

  test("private outbound allowed: metadata stays refused in every form; other private addresses pass", async () => {
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    const { key, org } = await createTenant("Outbound metadata");
    const ns = await createNamespace(key);
    for (const url of METADATA_FORMS) {
      const webhook = await api("POST", "/webhooks", { key, body: { url } });
      expect(webhook.status, url).toBe(400);
      expect(webhook.body.error.message, url).toMatch(/metadata/);
      const document = await api("POST", "/documents", { key, body: { namespace_id: ns.id, url } });
      expect(document.status, url).toBe(400);
      expect(document.body.error.message, url).toMatch(/metadata/);
    }
    expect(await stored(org.id)).toEqual({ endpoints: 0, documents: 0 });
    // What the setting is for: loopback and private addresses, IPv6 forms included.
    for (const url of ["http://127.0.0.1:3460/", "http://[::ffff:0:7f00:1]:3460/", "http://10.0.0.8/"]) {
      expect((await api("POST", "/webhooks", { key, body: { url } })).status, url).toBe(201);
    }
  });

  test("public addresses pass, also as IPv4-mapped and well-known NAT64 forms of a public IPv4 address", async () => {
    const { key } = await createTenant("Outbound public");
    for (const url of [
      "https://93.184.215.14/hook",
      "https://[2606:4700::6810:84e5]/hook",
      "https://[::ffff:93.184.215.14]/hook",
      "https://[64:ff9b::5db8:d70e]/hook",
    ]) {
      expect((await api("POST", "/webhooks", { key, body: { url } })).status, url).toBe(201);
    }
  });
});

/** Makes `dns.lookup` (what connections use) answer each name with its address; any other name does not resolve. */
function resolveNames(addresses: Record<string, string>) {
  vi.spyOn(dns, "lookup").mockImplementation(((
    host: string,
    _options: unknown,
    callback: (error: NodeJS.ErrnoException | null, addresses: { address: string; family: number }[]) => void,
  ) => {
    const address = addresses[host];
    if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }), []);
    callback(null, [{ address, family: address.includes(":") ? 6 : 4 }]);
  }) as never);
}

/** Names, each resolving to a non-public address in one of its forms, and what a connection to it is refused for. */
const NAMES: [string, string, RegExp][] = [
  ["translated.example.org", "::ffff:0:7f00:1", /IPv4-translated form of 127\.0\.0\.1/],
  ["nat64-local.example.org", "64:ff9b:1::a9fe:a9fe", /local-use NAT64 form of 169\.254\.169\.254, a cloud metadata/],
  ["nat64.example.org", "64:ff9b::a00:1", /NAT64 form of 10\.0\.0\.1, a private address/],
  ["sixtofour.example.org", "2002:7f00:1::1", /6to4 form of 127\.0\.0\.1/],
  ["teredo.example.org", "2001:0:4136:e378:8000:63bf:80ff:fffe", /Teredo form of 127\.0\.0\.1/],
  ["compatible.example.org", "::7f00:1", /IPv4-compatible form of 127\.0\.0\.1/],
  ["unspecified.example.org", "0.0.0.0", /unspecified/],
  ["unspecified6.example.org", "::", /unspecified/],
  ["multicast.example.org", "239.1.2.3", /multicast/],
  ["broadcast.example.org", "255.255.255.255", /broadcast/],
  ["documentation.example.org", "2001:db8::7", /documentation/],
  ["alibaba.example.org", "100.100.100.200", /a cloud metadata address/],
  ["cgnat.example.org", "100.64.3.4", /carrier-grade NAT/],
];

describe("names are checked when connecting", () => {
  test("a webhook's name that does not resolve yet is saved; its delivery says the host does not resolve", async () => {
    const { key } = await createTenant("Outbound unresolved");
    const ns = await createNamespace(key);
    resolveNames({});
    const created = await api("POST", "/webhooks", { key, body: { url: "https://hooks.not-yet.example.org/in" } });
    expect(created.status).toBe(201);
    const id = created.body.data.endpoint.id;
    const updated = await api("PATCH", `/webhooks/${id}`, {
      key,
      body: { url: "https://hooks.still-not-yet.example.org/in" },
    });
    expect(updated.status).toBe(200);
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Anyone there?" } });
    process.env.WEBHOOK_RETRY_SCHEDULE = "3600";
    await deliverWebhooks();
    const log = await api("GET", `/webhooks/${id}/deliveries`, { key });
    expect(log.body.data[0]).toMatchObject({ status: "pending", attempts: 1, response_status: null });
    expect(log.body.data[0].last_error).toMatch(/does not resolve/);
  });

  test("a delivery to a name resolving to any non-public form is refused at connection, with the reason", async () => {
    const { key } = await createTenant("Outbound delivery");
    const ns = await createNamespace(key);
    resolveNames(Object.fromEntries(NAMES.map(([name, address]) => [name, address])));
    const ids: string[] = [];
    for (const [name] of NAMES) {
      const created = await api("POST", "/webhooks", { key, body: { url: `https://${name}/in` } });
      expect(created.status, name).toBe(201);
      ids.push(created.body.data.endpoint.id);
    }
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Where does this go?" } });
    process.env.WEBHOOK_RETRY_SCHEDULE = "3600";
    await deliverWebhooks();
    for (const [index, [name, address, reason]] of NAMES.entries()) {
      const log = await api("GET", `/webhooks/${ids[index]}/deliveries`, { key });
      expect(log.body.data[0], name).toMatchObject({ status: "pending", attempts: 1, response_status: null });
      expect(log.body.data[0].last_error, name).toContain(`Refused to connect to ${name} (${address})`);
      expect(log.body.data[0].last_error, name).toMatch(reason);
    }
  });

  test("with private outbound allowed, a name resolving to a metadata form is refused at delivery", async () => {
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    const { key } = await createTenant("Outbound delivery metadata");
    const ns = await createNamespace(key);
    resolveNames({ "meta.example.org": "64:ff9b:1::a9fe:a9fe" });
    const created = await api("POST", "/webhooks", { key, body: { url: "http://meta.example.org/in" } });
    expect(created.status).toBe(201);
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Credentials?" } });
    process.env.WEBHOOK_RETRY_SCHEDULE = "3600";
    await deliverWebhooks();
    const log = await api("GET", `/webhooks/${created.body.data.endpoint.id}/deliveries`, { key });
    expect(log.body.data[0].last_error).toMatch(
      /Refused to connect to meta\.example\.org \(64:ff9b:1::a9fe:a9fe\): it is the local-use NAT64 form of 169\.254\.169\.254, a cloud metadata address/,
    );
  });

  test("a document whose name resolves to a non-public form when fetched fails with the reason", async () => {
    const { key } = await createTenant("Outbound documents");
    const ns = await createNamespace(key);
    // Public when the URL is saved (documents' names are resolved then too)…
    vi.spyOn(dnsPromises, "lookup").mockResolvedValue([{ address: "93.184.215.14", family: 4 }] as never);
    const added = [];
    for (const [name] of NAMES) added.push(await addDocument(key, { namespace_id: ns.id, url: `https://${name}/doc` }));
    // …not when fetched.
    resolveNames(Object.fromEntries(NAMES.map(([name, address]) => [name, address])));
    await processDocuments();
    for (const [index, [name, address, reason]] of NAMES.entries()) {
      const document = (await api("GET", `/documents/${added[index].id}`, { key })).body.data;
      expect(document.status, name).toBe("failed");
      expect(document.error, name).toContain(`Refused to connect to ${name} (${address})`);
      expect(document.error, name).toMatch(reason);
    }
  });
});

describe("redirects a document's fetch refuses", () => {
  let server: http.Server;
  let origin: string;
  const targets: Record<string, string> = {
    "/to-file": "file:///etc/passwd",
    "/to-ftp": "ftp://user:secret@files.example.org/notes.txt",
    "/to-javascript": "javascript:alert(1)",
    "/to-nat64": "http://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/",
  };

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      response.writeHead(302, { location: targets[request.url ?? ""] ?? "/" }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("say where they led and why they are refused (never 'redirected to null'), without credentials", async () => {
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    const { key } = await createTenant("Outbound redirects");
    const ns = await createNamespace(key);
    const expected: [string, RegExp][] = [
      [
        "/to-file",
        /^The URL redirected to file:\/\/\/etc\/passwd, which is refused: the target must start with https:\/\/ or http:\/\/\.$/,
      ],
      [
        "/to-ftp",
        /^The URL redirected to ftp:\/\/files\.example\.org\/notes\.txt, which is refused: the target must start with https:\/\/ or http:\/\/\.$/,
      ],
      [
        "/to-javascript",
        /^The URL redirected to javascript:alert\(1\), which is refused: the target must start with https:\/\/ or http:\/\/\.$/,
      ],
      [
        "/to-nat64",
        /redirected to http:\/\/\[64:ff9b:1::a9fe:a9fe\]\/latest\/meta-data\/, which is refused: .*local-use NAT64 form of 169\.254\.169\.254, a cloud metadata address/,
      ],
    ];
    const added = [];
    for (const [path] of expected) added.push(await addDocument(key, { namespace_id: ns.id, url: `${origin}${path}` }));
    await processDocuments();
    for (const [index, [path, message]] of expected.entries()) {
      const document = (await api("GET", `/documents/${added[index].id}`, { key })).body.data;
      expect(document.status, path).toBe("failed");
      expect(document.error, path).toMatch(message);
      expect(document.error, path).not.toMatch(/null|secret/);
    }
  });
});
