// The limits on next-auth's sign-in requests, answered as its client expects: a JSON body with the
// page to go to (`url`) and the error, and `Retry-After` on a 429.
import { countSignInAttempt, normalizeSignInEmail, type SignInAttempt } from "@/lib/auth/sign-in-limits";
import { publicUrl } from "@/lib/config";
import { DomainError, InvalidError } from "@/lib/errors";
import { describeError } from "@/lib/http/errors";
import { clientAddress } from "@/lib/net/client-address";

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

/** The attempt a next-auth request is, if it is one that is counted. */
function attemptOf(action?: string, providerId?: string): SignInAttempt | null {
  if (action === "callback" && providerId === "credentials") return "password";
  if (action === "signin" && providerId === "email") return "magic_link";
  return null;
}

/**
 * A 429 for a password sign-in or magic-link request over its limits (per client address and per
 * email), a 400 for one naming the email twice; null when the request may go on to next-auth.
 */
export async function signInRateLimit(
  request: Request,
  action?: string,
  providerId?: string,
): Promise<Response | null> {
  if (request.method !== "POST") return null;
  const attempt = attemptOf(action, providerId);
  if (!attempt) return null;
  const email = await emailOf(request);
  try {
    if (email === REPEATED_EMAIL) throw new InvalidError("The email field is given more than once.");
    await countSignInAttempt(attempt, email, clientAddress(request.headers));
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const { code, status, message, headers } = describeError(error);
    const page = code === "RATE_LIMITED" ? "RateLimited" : "AccessDenied";
    const body = { url: `${publicUrl()}/sign-in?error=${page}`, error: { code, message } };
    return Response.json(body, { status, headers });
  }
}
