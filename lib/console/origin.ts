import { requestedOrigin } from "@/lib/net/client-address";

/**
 * The Origin rule of console server actions (CSRF protection), checked before Next runs the action:
 * Next refuses a foreign Origin by throwing, which answers 500. The Origin's host must be the host the
 * request was addressed to: the Host header, or the X-Forwarded-Host of a proxy named in TRUSTED_PROXIES
 * (requestedOrigin; from anyone else that header is ignored, or a forged one would vouch for any site).
 * Stricter than Next in one way: a POST without an Origin is refused too (every browser sends one on a POST;
 * only a handcrafted request lacks it). Returns why the request is refused, or null.
 */
export function serverActionOriginProblem(headers: Headers): string | null {
  const origin = headers.get("origin");
  if (!origin) return "The request has no Origin header.";
  let originHost: string;
  try {
    // "null" is what a sandboxed frame or a privacy-sensitive redirect sends: never this site.
    originHost = origin === "null" ? "null" : new URL(origin).host;
  } catch {
    return "The request's Origin header is not a URL.";
  }
  const { host } = requestedOrigin(headers);
  if (!host || originHost !== host) return "The request comes from another site (its Origin does not match this site).";
  return null;
}
