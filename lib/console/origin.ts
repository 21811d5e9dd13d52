/**
 * The Origin rule of console server actions (CSRF protection), checked before Next runs the action:
 * Next refuses a foreign Origin by throwing, which answers 500. The same rule as Next's own check
 * (the Origin's host must be the `X-Forwarded-Host`, else the `Host`), stricter in one way: a POST
 * without an Origin is refused too (every browser sends one on a POST; only a handcrafted request lacks it).
 * Returns why the request is refused, or null.
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
  const forwardedHost = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = forwardedHost || headers.get("host");
  if (!host || originHost !== host) return "The request comes from another site (its Origin does not match this site).";
  return null;
}
