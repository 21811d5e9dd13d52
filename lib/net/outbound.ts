import dns from "node:dns";
import type http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import { setting } from "@/lib/config";
import { InvalidError } from "@/lib/errors";

/**
 * Guards for requests the server makes to URLs that users typed (an organization's SSO issuer, later
 * integrations): https only, and never to loopback, private, link-local, carrier-grade NAT, unique-local
 * or cloud metadata addresses. The address is checked when the connection is made (after DNS), so a
 * name that resolves somewhere else than it did when the URL was saved is refused too.
 *
 * ALLOW_PRIVATE_OUTBOUND=true relaxes both rules (plain http, private and loopback addresses) for tests
 * and private deployments whose identity provider lives on the internal network. Metadata endpoints stay
 * refused even then. URLs the operator sets in the environment do not go through this guard.
 */
export function privateOutboundAllowed(): boolean {
  return setting("ALLOW_PRIVATE_OUTBOUND");
}

// Cloud instance metadata services: credentials live there, so no setting opens them.
const METADATA_ADDRESSES = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]);

const nonPublic = new net.BlockList();
for (const [prefix, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  nonPublic.addSubnet(prefix, bits, "ipv4");
for (const [prefix, bits] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  nonPublic.addSubnet(prefix, bits, "ipv6");

/** The IPv4 address an IPv6 address carries (IPv4-mapped, IPv4-compatible, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const groups = expandIpv6(lower);
  if (!groups) return null;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const mappedOrCompatible = zeros(0, 5) && (groups[5] === 0xffff || (groups[5] === 0 && groups[6] !== 0));
  if (mappedOrCompatible) return v4(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
  return null;
}

function expandIpv6(address: string): number[] | null {
  if (net.isIPv6(address) !== true || address.includes(".")) return null;
  const [head, tail = ""] = address.split("::");
  const part = (text: string) => (text ? text.split(":").map((g) => parseInt(g, 16)) : []);
  const [left, right] = [part(head), address.includes("::") ? part(tail) : []];
  return [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}

/** Why an IP address may not be the destination of a user-set URL, or null when it may. */
export function refusedAddress(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = net.isIP(bare);
  if (!family) return "is not an IP address";
  if (METADATA_ADDRESSES.has(bare.toLowerCase())) return "is a cloud metadata address";
  // An IPv6 form of an IPv4 address (::ffff:169.254.169.254) is that address, metadata check included.
  const mapped = family === 6 ? embeddedIpv4(bare) : null;
  if (mapped) return refusedAddress(mapped);
  if (privateOutboundAllowed()) return null;
  if (nonPublic.check(bare, family === 4 ? "ipv4" : "ipv6")) return "is a private, loopback or link-local address";
  return null;
}

/** A refusal of an outbound URL or destination: a 400 naming the field the URL came from. */
export class OutboundUrlError extends InvalidError {
  constructor(message: string, field = "url") {
    super(`The ${field.replace(/_/g, " ")} ${message}.`, [{ field, message }]);
    this.name = "OutboundUrlError";
  }
}

/**
 * Checks a user-set URL before it is saved or used: http(s) only, https unless ALLOW_PRIVATE_OUTBOUND,
 * no credentials in it, and a host that is not a refused IP literal (names are checked at connection
 * time by `outboundLookup`). Returns the parsed URL.
 */
export function checkOutboundUrl(value: string, field = "url"): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OutboundUrlError("must be an absolute URL, like https://idp.example.com", field);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && privateOutboundAllowed())) {
    throw new OutboundUrlError("must start with https://", field);
  }
  if (url.username || url.password) throw new OutboundUrlError("must not contain a user name or password", field);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) {
    const reason = refusedAddress(host);
    if (reason) throw new OutboundUrlError(`must not point to ${host}: it ${reason}`, field);
  } else if (!privateOutboundAllowed() && (host === "localhost" || host.endsWith(".localhost"))) {
    throw new OutboundUrlError("must not point to this server", field);
  }
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

function refusal(hostname: string, address: string, reason: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`Refused to connect to ${hostname} (${address}): it ${reason}.`);
  error.code = "EOUTBOUNDREFUSED";
  return error;
}

/**
 * A `lookup` for net/http/https that resolves as usual, then refuses the connection when any address
 * the name resolves to is not allowed (checked at connection time, so DNS rebinding does not help).
 */
export function outboundLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "");
    for (const { address } of addresses) {
      const reason = refusedAddress(address);
      if (reason) return callback(refusal(hostname, address, reason), "");
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    callback(null, first.address, first.family);
  });
}

/**
 * An https agent for user-set URLs: hostnames go through `outboundLookup`, and IP literals (which Node
 * connects to without any lookup) are checked here. Being an https agent, it also refuses plain http
 * requests (Node rejects an agent of another protocol).
 */
class OutboundHttpsAgent extends https.Agent {
  createConnection(
    options: http.RequestOptions,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): Duplex | null | undefined {
    const host = String(options.host ?? "").replace(/^\[|\]$/g, "");
    const reason = net.isIP(host) ? refusedAddress(host) : null;
    if (reason) {
      callback?.(refusal(host, host, reason), undefined as unknown as Duplex);
      return undefined;
    }
    return super.createConnection({ ...options, lookup: outboundLookup as http.RequestOptions["lookup"] }, callback);
  }
}

/** The guarded https agent with the given options (a keep-alive one for webhook deliveries). */
export function guardedHttpsAgent(options: https.AgentOptions): https.Agent {
  return new OutboundHttpsAgent(options);
}

let agent: OutboundHttpsAgent | undefined;

/**
 * Options for http clients that fetch user-set URLs (openid-client's `httpOptions`): the guarded agent,
 * or with ALLOW_PRIVATE_OUTBOUND (which also permits plain http, and no agent can serve both protocols)
 * only the guarded lookup, which still refuses metadata addresses.
 */
export function outboundHttpOptions(): { agent?: https.Agent; lookup?: typeof outboundLookup; timeout: number } {
  if (privateOutboundAllowed()) return { lookup: outboundLookup, timeout: 5000 };
  agent ??= new OutboundHttpsAgent({ keepAlive: false });
  return { agent, timeout: 5000 };
}
