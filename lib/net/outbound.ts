import dns from "node:dns";
import type http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import ipaddr from "ipaddr.js";
import { setting } from "@/lib/config";
import { InvalidError } from "@/lib/errors";

/**
 * Guards for requests the server makes to URLs that users typed (an organization's SSO issuer, documents'
 * URLs, webhook endpoints): https only, and only to globally reachable unicast addresses. The address is
 * checked when the connection is made (after DNS), so a name that resolves somewhere else than it did when
 * the URL was saved is refused too.
 *
 * ALLOW_PRIVATE_OUTBOUND=true relaxes both rules (plain http, private and loopback addresses) for tests
 * and private deployments whose identity provider lives on the internal network. Metadata endpoints stay
 * refused even then, in every form an IPv6 address can carry them. URLs the operator sets in the
 * environment do not go through this guard.
 */
export function privateOutboundAllowed(): boolean {
  return setting("ALLOW_PRIVATE_OUTBOUND");
}

// Cloud instance metadata services (AWS, GCP, Azure, OpenStack, DigitalOcean: 169.254.169.254; AWS ECS and
// EKS Pod Identity; Alibaba; Oracle's older one; Azure's WireServer; AWS's and GCP's IPv6 ones): credentials
// live there, so no setting opens them.
const METADATA = [
  "169.254.169.254",
  "169.254.170.2",
  "169.254.170.23",
  "100.100.100.200",
  "192.0.0.192",
  "168.63.129.16",
  "fd00:ec2::254",
  "fd00:ec2::23",
  "fd20:ce::254",
].map((address) => ipaddr.parse(address).toNormalizedString());

// The parts of the IANA special-purpose registries that ipaddr.js names, as a person reads them.
const RANGE_NAMES: Record<string, string> = {
  unspecified: "an unspecified address (this host or network)",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT (shared) address",
  private: "a private address",
  reserved: "a reserved address (documentation, benchmarking, IETF protocols or future use)",
  as112: "an AS112 (DNS sink) address",
  amt: "an AMT relay address",
  uniqueLocal: "a unique-local (private) address",
  deprecatedSiteLocal: "a site-local (private) address",
  discard: "a discard-only address",
  benchmarking: "a benchmarking address",
  as112v6: "an AS112 (DNS sink) address",
  deprecatedOrchid: "an ORCHID identifier, not an address",
  orchid2: "an ORCHID identifier, not an address",
  droneRemoteIdProtocolEntityTags: "a drone remote ID tag, not an address",
  segmentRouting: "a segment routing (SRv6) identifier",
  rfc6145: "an IPv4-translated address (stateless translation inside a network)",
  rfc6052: "a local-use NAT64 address (a translator inside a network)",
  "6to4": "a 6to4 address (a deprecated transition form, not globally reachable)",
  teredo: "a Teredo address (a transition form, not globally reachable)",
};

// IANA allocates only 2000::/3 as global unicast; the rest of the IPv6 space (the IPv4-compatible ::/96,
// RFC 9780's dummy prefix, anything unassigned) is reserved by the IETF and reaches no one on the internet.
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/** An IPv6 form that carries IPv4 addresses: its name, the addresses, and whether it reaches exactly them. */
interface EmbeddedIpv4 {
  form: string;
  /** The one it stands for first; then others it may carry (another NAT64 prefix length, a Teredo server). */
  addresses: ipaddr.IPv4[];
  /** The host connects to the IPv4 address itself (IPv4-mapped) or a public NAT64 does (64:ff9b::/96). */
  reachesIt: boolean;
}

const ipv4Of = (bytes: number[]) => new ipaddr.IPv4(bytes.map((byte) => byte & 255));
const last32 = (p: number[]) => ipv4Of([p[6] >> 8, p[6], p[7] >> 8, p[7]]);

/**
 * The IPv4 addresses an IPv6 address stands for or carries: IPv4-mapped and IPv4-translated (RFC 4291,
 * 6145), IPv4-compatible (RFC 4291, deprecated), NAT64 (RFC 6052's 64:ff9b::/96 and RFC 8215's local-use
 * 64:ff9b:1::/48, whose network may embed the address after a /48, /56, /64 or /96 prefix: every position
 * counts), 6to4 (RFC 3056) and Teredo (RFC 4380: the server, and the client's obfuscated address), and an
 * ISATAP interface identifier (RFC 5214). Null for an address that carries none.
 */
function embeddedIpv4(address: ipaddr.IPv6): EmbeddedIpv4 | null {
  const p = address.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  switch (address.range()) {
    case "ipv4Mapped":
      return { form: "IPv4-mapped", addresses: [last32(p)], reachesIt: true };
    case "rfc6145":
      return { form: "IPv4-translated", addresses: [last32(p)], reachesIt: false };
    case "rfc6052":
      if (p[2] === 0) return { form: "NAT64", addresses: [last32(p)], reachesIt: true };
      return {
        form: "local-use NAT64",
        addresses: [
          last32(p), // after a /96 prefix, the usual one
          ipv4Of([p[3] >> 8, p[3], p[4], p[5] >> 8]), // /48 (bits 64-71 are zero)
          ipv4Of([p[3], p[4], p[5] >> 8, p[5]]), // /56
          ipv4Of([p[4], p[5] >> 8, p[5], p[6] >> 8]), // /64
        ],
        reachesIt: false,
      };
    case "6to4":
      return { form: "6to4", addresses: [ipv4Of([p[1] >> 8, p[1], p[2] >> 8, p[2]])], reachesIt: false };
    case "teredo":
      return {
        form: "Teredo",
        addresses: [ipv4Of([~p[6] >> 8, ~p[6], ~p[7] >> 8, ~p[7]]), ipv4Of([p[2] >> 8, p[2], p[3] >> 8, p[3]])],
        reachesIt: false,
      };
  }
  if (zeros(0, 6) && (p[6] !== 0 || p[7] > 1))
    return { form: "IPv4-compatible", addresses: [last32(p)], reachesIt: false };
  if ((p[4] === 0 || p[4] === 0x200) && p[5] === 0x5efe)
    return { form: "ISATAP", addresses: [last32(p)], reachesIt: false };
  return null;
}

const isMetadata = (address: ipaddr.IPv4 | ipaddr.IPv6) => METADATA.includes(address.toNormalizedString());

/** Why an IPv4 address is not globally reachable unicast, or null when it is. */
function nonPublicIpv4(address: ipaddr.IPv4): string | null {
  const range = address.range();
  return range === "unicast" ? null : (RANGE_NAMES[range] ?? `a special-purpose address (${range})`);
}

/**
 * Why an IP address may not be the destination of a user-set URL (a sentence's end: "is a loopback
 * address"), or null when it may. Refused always: cloud metadata addresses, also inside an IPv6 address
 * (IPv4-mapped, -translated, -compatible, NAT64, 6to4, Teredo, ISATAP). Refused unless
 * ALLOW_PRIVATE_OUTBOUND: anything but globally reachable unicast per the IANA IPv4 and IPv6
 * special-purpose registries (an IPv4-mapped or well-known NAT64 address is judged by the IPv4 address it
 * reaches). Takes an address as Node reports it (brackets and an IPv6 zone are ignored).
 */
export function refusedAddress(address: string): string | null {
  return addressRefusal(address)?.reason ?? null;
}

/** refusedAddress's reason, and whether it stands even with ALLOW_PRIVATE_OUTBOUND (`always`). */
function addressRefusal(address: string): { reason: string; always: boolean } | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  // net.isIP first: ipaddr.js also takes shorthand IPv4 forms ("127.1") that no resolver returns.
  if (!net.isIP(bare)) return { reason: "is not an IP address", always: true };
  const parsed = ipaddr.parse(bare);
  const embedded = parsed.kind() === "ipv6" ? embeddedIpv4(parsed as ipaddr.IPv6) : null;
  if (isMetadata(parsed)) return { reason: "is a cloud metadata address", always: true };
  const hidden = embedded?.addresses.find(isMetadata);
  if (hidden) return { reason: `is the ${embedded!.form} form of ${hidden}, a cloud metadata address`, always: true };
  if (privateOutboundAllowed()) return null;
  const reason = nonPublicReason(parsed, embedded);
  return reason ? { reason, always: false } : null;
}

/** Why an address (no metadata one) is not globally reachable unicast, or null when it is. */
function nonPublicReason(parsed: ipaddr.IPv4 | ipaddr.IPv6, embedded: EmbeddedIpv4 | null): string | null {
  if (parsed.kind() === "ipv4") {
    const reason = nonPublicIpv4(parsed as ipaddr.IPv4);
    return reason && `is ${reason}`;
  }
  if (embedded) {
    const [inner] = embedded.addresses;
    const reason = nonPublicIpv4(inner);
    if (reason) return `is the ${embedded.form} form of ${inner}, ${reason}`;
    if (embedded.reachesIt) return null;
  }
  const range = (parsed as ipaddr.IPv6).range();
  if (range !== "unicast") return `is ${RANGE_NAMES[range] ?? `a special-purpose address (${range})`}`;
  if (!parsed.match(GLOBAL_UNICAST)) return "is outside the IPv6 global unicast range (2000::/3)";
  return null;
}

/** A refusal of an outbound URL or destination: a 400 naming the field the URL came from. */
export class OutboundUrlError extends InvalidError {
  constructor(message: string, field = "url") {
    super(`The ${field.replace(/_/g, " ").replace(/\burl\b/g, "URL")} ${message}.`, [{ field, message }]);
    this.name = "OutboundUrlError";
  }
}

/**
 * Checks a user-set URL before it is saved or used: http(s) only, https unless ALLOW_PRIVATE_OUTBOUND,
 * no credentials in it, and a host that is not a refused IP literal (the URL parser has already turned
 * decimal, octal and hex IPv4 forms into dotted ones). Names are not resolved here: they are checked at
 * connection time by `outboundLookup`. Returns the parsed URL; throws OutboundUrlError (a 400 naming `field`).
 */
export function checkOutboundUrl(value: string, field = "url"): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OutboundUrlError("must be an absolute URL, like https://idp.example.com", field);
  }
  const allowed = privateOutboundAllowed();
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowed)) {
    const plainHttp = url.protocol === "http:" ? PRIVATE_OUTBOUND_HINT : "";
    throw new OutboundUrlError(`must start with ${allowed ? "https:// or http://" : "https://"}${plainHttp}`, field);
  }
  if (url.username || url.password) throw new OutboundUrlError("must not contain a user name or password", field);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) {
    const refusal = addressRefusal(host);
    if (refusal)
      throw new OutboundUrlError(
        `must not point to ${host}: it ${refusal.reason}${refusal.always ? "" : PRIVATE_OUTBOUND_HINT}`,
        field,
      );
  } else if (!allowed && /(^|\.)localhost\.?$/i.test(host)) {
    throw new OutboundUrlError(`must not point to ${host}: it names this machine${PRIVATE_OUTBOUND_HINT}`, field);
  }
  return url;
}

/**
 * Said after a refusal that ALLOW_PRIVATE_OUTBOUND lifts: a receiver or identity provider on the operator's own
 * machine or network is a normal thing to try, and the setting is how to allow it.
 */
const PRIVATE_OUTBOUND_HINT =
  " (plain http, and addresses on this machine or a private network, are allowed when the server runs with " +
  "ALLOW_PRIVATE_OUTBOUND=true)";

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
