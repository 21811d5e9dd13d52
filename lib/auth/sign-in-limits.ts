import { publicUrl } from "@/lib/config";
import { clientAddress, rateLimitAddress } from "@/lib/net/client-address";
import { Email } from "@/lib/orgs/users";
import { firstRefusal, type RateLimitRule, type RateLimitVerdict } from "@/lib/rate-limit/limiter";

const FIFTEEN_MINUTES = 15 * 60_000;
const ONE_HOUR = 60 * 60_000;

/**
 * Console sign-in limits, each counted per client address and per email address, in the database so
 * that every server instance counts together.
 */
export const SIGN_IN_RULES = {
  passwordPerIp: { name: "password-per-ip", limit: 100, windowMs: FIFTEEN_MINUTES },
  passwordPerEmail: { name: "password-per-email", limit: 10, windowMs: FIFTEEN_MINUTES },
  magicLinkPerIp: { name: "magic-link-per-ip", limit: 30, windowMs: FIFTEEN_MINUTES },
  magicLinkPerEmail: { name: "magic-link-per-email", limit: 5, windowMs: FIFTEEN_MINUTES },
  signUpPerIp: { name: "sign-up-per-ip", limit: 20, windowMs: ONE_HOUR },
  signUpPerEmail: { name: "sign-up-per-email", limit: 3, windowMs: ONE_HOUR },
} satisfies Record<string, RateLimitRule>;

/**
 * An email address as the magic-link provider reads it (also its `normalizeIdentifier`), so that the
 * per-email limit counts exactly the address mail would go to: NFKC, trimmed, lower case, and
 * anything after a comma in the domain dropped. Null when it is not an address.
 */
export function normalizeSignInEmail(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.normalize("NFKC").trim().toLowerCase();
  if ((trimmed.match(/@/g) ?? []).length !== 1 || trimmed.includes('"')) return null;
  const [local, domain] = trimmed.split("@");
  const parsed = Email.safeParse(`${local}@${domain.split(",")[0]}`);
  return parsed.success ? parsed.data : null;
}

/** A body that names `email` more than once: refused, since readers disagree on which one counts. */
const REPEATED_EMAIL = Symbol("repeated email");

/**
 * The email a next-auth POST names, read the way next-auth reads the body (next-auth/next/utils.js
 * getBody: JSON, or form-encoded through Object.fromEntries, where the last of repeated fields wins).
 * A repeated form field is refused outright, so no reader can count one address and mail another.
 * Anything that is not an address is counted as it was sent, so a malformed value cannot dodge the
 * limit either.
 */
async function emailOf(request: Request): Promise<string | null | typeof REPEATED_EMAIL> {
  const type = request.headers.get("content-type") ?? "";
  let raw: unknown;
  try {
    if (type.includes("application/json")) raw = ((await request.clone().json()) as { email?: unknown } | null)?.email;
    else if (type.includes("application/x-www-form-urlencoded")) {
      const values = new URLSearchParams(await request.clone().text()).getAll("email");
      if (values.length > 1) return REPEATED_EMAIL;
      raw = values[0];
    }
  } catch {
    return null;
  }
  if (raw === undefined || raw === null) return null;
  return normalizeSignInEmail(raw) ?? JSON.stringify(raw).slice(0, 1000);
}

/** "Too many attempts. Try again in 3 minutes." */
export function rateLimitMessage(verdict: RateLimitVerdict): string {
  const minutes = Math.ceil(verdict.resetSeconds / 60);
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * A 429 for a password sign-in or magic-link request over its limits (per client address and per
 * email), shaped as next-auth's client expects (`{ url }` with the error) and with `Retry-After`.
 */
export async function signInRateLimit(
  request: Request,
  action?: string,
  providerId?: string,
): Promise<Response | null> {
  if (request.method !== "POST") return null;
  const rules: [RateLimitRule, RateLimitRule] | null =
    action === "callback" && providerId === "credentials"
      ? [SIGN_IN_RULES.passwordPerIp, SIGN_IN_RULES.passwordPerEmail]
      : action === "signin" && providerId === "email"
        ? [SIGN_IN_RULES.magicLinkPerIp, SIGN_IN_RULES.magicLinkPerEmail]
        : null;
  if (!rules) return null;
  const email = await emailOf(request);
  if (email === REPEATED_EMAIL) {
    return Response.json(
      {
        url: `${publicUrl()}/sign-in?error=AccessDenied`,
        error: { code: "BAD_REQUEST", message: "The email field is given more than once." },
      },
      { status: 400 },
    );
  }
  const [perAddress, perEmail] = rules;
  const checks: [RateLimitRule, string][] = [[perAddress, rateLimitAddress(clientAddress(request.headers))]];
  if (email) checks.push([perEmail, email]);
  const refused = await firstRefusal(checks);
  if (!refused) return null;
  return Response.json(
    {
      url: `${publicUrl()}/sign-in?error=RateLimited`,
      error: { code: "RATE_LIMITED", message: rateLimitMessage(refused) },
    },
    { status: 429, headers: { "retry-after": String(refused.resetSeconds) } },
  );
}
