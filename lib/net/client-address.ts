import net from "node:net";
import { type ProxyEntry, setting } from "@/lib/config";

/**
 * The header in which the server (scripts/start.mjs) hands the socket's peer address to route handlers
 * and server actions, which cannot see the socket. The server deletes any copy a client sent before
 * setting it, and says so by setting MEMGW_SERVER_SETS_CLIENT_ADDRESS=1 in its environment; under any
 * other server (`next start`, `next dev`) a client could write the header itself, so it is not read.
 */
export const CLIENT_ADDRESS_HEADER = "x-memgw-client-address";

type HeaderSource = Pick<Headers, "get">;

function normalize(address: string): string {
  const bare = address.trim().replace(/^\[|\]$/g, "");
  // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; one client, one key.
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(bare) ? bare.slice(7) : bare.toLowerCase();
}

let cachedEntries: ProxyEntry[] | undefined;
let cachedList: net.BlockList | null = null;

/** TRUSTED_PROXIES: the reverse proxies in front of the server (null: none), built again only when it changes. */
function trustedProxies(): net.BlockList | null {
  const entries = setting("TRUSTED_PROXIES");
  if (entries === cachedEntries) return cachedList;
  cachedEntries = entries;
  cachedList = null;
  if (!entries.length) return null;
  const list = new net.BlockList();
  for (const { address, bits, family } of entries) {
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  cachedList = list;
  return list;
}

function isTrusted(list: net.BlockList, address: string): boolean {
  const family = net.isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The socket's peer as the server handed it over, or null under a server that does not (see above). */
function socketPeer(headers: HeaderSource): string | null {
  const peer = setting("MEMGW_SERVER_SETS_CLIENT_ADDRESS") ? headers.get(CLIENT_ADDRESS_HEADER) : null;
  return peer && net.isIP(normalize(peer)) ? normalize(peer) : null;
}

/**
 * Whether a connection's peer is one of TRUSTED_PROXIES: the one rule for every forwarded header
 * (X-Forwarded-For, -Host, -Proto, -Port, Forwarded). Only a trusted proxy's are read; anyone else could have
 * written them. scripts/http-server.mjs removes the others before Next or any route sees the request.
 */
export function isTrustedProxy(address: string): boolean {
  const trusted = trustedProxies();
  return trusted !== null && isTrusted(trusted, normalize(address));
}

/** The scheme and host a client addressed a request to. */
export interface RequestedOrigin {
  protocol: "http" | "https";
  /** As the Host header (or a trusted proxy's X-Forwarded-Host) has it: a name or address and maybe a port. */
  host: string | null;
}

/**
 * Where the client addressed a request (what a browser's Origin header names for this site): from a trusted
 * proxy (isTrustedProxy), the X-Forwarded-Host and -Proto it wrote; otherwise the Host header over http, this
 * server speaking plain HTTP. A forwarded header from any other peer, or under a server that does not hand the
 * peer over (`next dev`), is ignored. Of a list, the last value counts: a proxy that appends rather than
 * replaces leaves what its own client sent to the left of what it saw itself.
 */
export function requestedOrigin(headers: HeaderSource): RequestedOrigin {
  const host = headers.get("host");
  const peer = socketPeer(headers);
  if (!peer || !isTrustedProxy(peer)) return { protocol: "http", host };
  const proto = lastValue(headers.get("x-forwarded-proto"))?.toLowerCase();
  return { protocol: proto === "https" ? "https" : "http", host: lastValue(headers.get("x-forwarded-host")) ?? host };
}

/** The last of a header's comma-separated values, or undefined when there is none. */
function lastValue(header: string | null | undefined): string | undefined {
  return header?.split(",").at(-1)?.trim() || undefined;
}

/**
 * The address of the client that sent a request, for rate limits and the session list: the socket's
 * peer, unless TRUSTED_PROXIES names that peer; only then X-Forwarded-For is read, right to left,
 * skipping the trusted proxies, and the first address that is not one of them is the client. Anything
 * to the left of it was written by the client itself and is ignored. "unknown" when the server did not
 * say (a server other than scripts/start.mjs): every such client then shares one budget.
 */
export function clientAddress(headers: HeaderSource): string {
  const peer = socketPeer(headers);
  if (!peer) return "unknown";
  let client = peer;
  const trusted = trustedProxies();
  if (!trusted || !isTrusted(trusted, client)) return client;
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map(normalize).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!net.isIP(hops[i])) break;
    client = hops[i];
    if (!isTrusted(trusted, client)) break;
  }
  return client;
}

/** The eight 16-bit groups of an IPv6 address (embedded IPv4 included), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (net.isIP(address) !== 6) return null;
  let text = address.replace(/%.*$/, "");
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The key a client address is counted under by every per-address rate limit (sign-in, magic links,
 * sign-up). An IPv4 address is one client; an IPv6 client usually holds a whole /64 (SLAAC, privacy
 * addresses) and can take a new address from it for each request, so it is counted by its /64 prefix.
 * The session list keeps showing the full address.
 */
export function rateLimitAddress(address: string): string {
  const groups = ipv6Groups(address);
  if (!groups) return address;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
