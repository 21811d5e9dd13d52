import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { checkOutboundUrl, outboundHttpOptions, OutboundUrlError, refusedAddress } from "./outbound";

/** Redirects followed before giving up; each one's target passes the same checks as the URL itself. */
const MAX_REDIRECTS = 5;

export interface FetchedUrl {
  bytes: Buffer;
  /** The answer's Content-Type, as sent (parameters included), or null. */
  contentType: string | null;
  /** Where the body came from, after redirects. */
  finalUrl: string;
}

/** Why a user-set URL could not be fetched, in a sentence to show them. */
export class FetchRefusedError extends Error {
  constructor(
    message: string,
    /** The body was larger than allowed (the API answers 413 rather than 400). */
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = "FetchRefusedError";
  }
}

/**
 * Refuses a user-set URL before anything is queued for it: its form (checkOutboundUrl) and, for a name,
 * the addresses it resolves to now. The connection checks them again (a name may resolve elsewhere later).
 */
export async function checkOutboundDestination(value: string, field = "url"): Promise<URL> {
  const url = checkOutboundUrl(value, field);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) return url;
  let addresses: { address: string }[];
  try {
    addresses = await dns.lookup(host, { all: true });
  } catch {
    throw new OutboundUrlError(`names a host that does not resolve (${host})`, field);
  }
  for (const { address } of addresses) {
    const reason = refusedAddress(address);
    if (reason)
      throw new OutboundUrlError(`must not point to ${host}: it resolves to ${address}, which ${reason}`, field);
  }
  return url;
}

/**
 * GETs a URL a user gave, under the outbound rules (lib/net/outbound.ts): https only, public addresses only
 * (checked when connecting, after DNS), every redirect's target checked the same way, at most `maxBytes`
 * of body (refused as soon as more arrives) and `timeoutMs` for the whole exchange, redirects included.
 */
export async function fetchOutbound(
  value: string,
  limits: { maxBytes: number; timeoutMs: number; accept?: string },
): Promise<FetchedUrl> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  let url = checkOutboundUrl(value);
  for (let redirects = 0; ; redirects++) {
    const answer = await get(url, limits, deadline);
    if (answer.location === undefined) return { ...answer.body, finalUrl: url.toString() };
    if (redirects === MAX_REDIRECTS)
      throw new FetchRefusedError(`The URL redirected more than ${MAX_REDIRECTS} times.`);
    let next: URL;
    try {
      next = new URL(answer.location, url);
    } catch {
      throw new FetchRefusedError(`The URL redirected to an invalid address (${answer.location.slice(0, 200)}).`);
    }
    try {
      url = checkOutboundUrl(next.toString(), "target");
    } catch (error) {
      const detail = error instanceof OutboundUrlError ? error.details?.[0]?.message : undefined;
      const why = detail ? `the target ${detail}` : (error as Error).message;
      throw new FetchRefusedError(`The URL redirected to ${shown(next)}, which is refused: ${why}.`);
    }
  }
}

/**
 * A redirect's target as the person is shown it: whole (a non-http URL has no origin: `file:` is "null"),
 * without a user name or password, at most 200 characters.
 */
function shown(url: URL): string {
  const bare = new URL(url);
  bare.username = "";
  bare.password = "";
  const text = bare.href;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

type Answer = { location: string; body?: undefined } | { location?: undefined; body: Omit<FetchedUrl, "finalUrl"> };

function get(url: URL, limits: { maxBytes: number; timeoutMs: number; accept?: string }, deadline: AbortSignal) {
  return new Promise<Answer>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const { agent, lookup } = outboundHttpOptions();
    const request = client.get(
      url,
      {
        // The guarded agent is an https one: plain http (allowed only by ALLOW_PRIVATE_OUTBOUND) uses the lookup alone.
        ...(url.protocol === "https:" && agent ? { agent } : { lookup }),
        signal: deadline,
        headers: {
          accept: limits.accept ?? "*/*",
          "user-agent": "MemoryGateway/0.1 (+document fetch)",
          "accept-encoding": "identity",
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          return resolve({ location: response.headers.location });
        }
        if (status < 200 || status > 299) {
          response.resume();
          return reject(new FetchRefusedError(`The URL answered HTTP ${status}.`));
        }
        const declared = Number(response.headers["content-length"]);
        if (declared > limits.maxBytes) {
          response.destroy();
          return reject(tooLarge(limits.maxBytes));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) {
            response.destroy();
            reject(tooLarge(limits.maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({ body: { bytes: Buffer.concat(chunks), contentType: response.headers["content-type"] ?? null } }),
        );
        response.on("error", (error) => reject(fetchError(error, deadline, limits.timeoutMs)));
      },
    );
    request.on("error", (error) => reject(fetchError(error, deadline, limits.timeoutMs)));
  });
}

function tooLarge(maxBytes: number) {
  return new FetchRefusedError(`The URL's content is larger than ${maxBytes} bytes.`, true);
}

function fetchError(error: NodeJS.ErrnoException, deadline: AbortSignal, timeoutMs: number): Error {
  if (error instanceof FetchRefusedError) return error;
  if (deadline.aborted) return new FetchRefusedError(`Fetching the URL took longer than ${timeoutMs / 1000} s.`);
  if (error.code === "EOUTBOUNDREFUSED") return new FetchRefusedError(error.message);
  if (error.code === "ENOTFOUND") return new FetchRefusedError("The URL's host does not resolve.");
  return new FetchRefusedError(`The URL could not be fetched: ${error.code ?? error.message}.`);
}
