import { publicUrl } from "@/lib/config";
import { Email } from "@/lib/orgs/users";
import { signInLimits, type RateLimiter } from "./rate-limit";

/** The client address: the first X-Forwarded-For hop (Next.js sets it from the socket when no proxy does). */
export function clientAddress(request: Request): string {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}

/**
 * A 429 for a password sign-in or magic-link request over its limits (per client address and per
 * email), shaped as next-auth's client expects (`{ url }` with the error) and with `Retry-After`.
 */
export async function signInRateLimit(request: Request, action?: string, providerId?: string): Promise<Response | null> {
  if (request.method !== "POST") return null;
  const limits: [RateLimiter, RateLimiter] | null =
    action === "callback" && providerId === "credentials"
      ? [signInLimits.passwordPerIp, signInLimits.passwordPerEmail]
      : action === "signin" && providerId === "email"
        ? [signInLimits.magicLinkPerIp, signInLimits.magicLinkPerEmail]
        : null;
  if (!limits) return null;
  const form = new URLSearchParams(await request.clone().text());
  const email = Email.safeParse(form.get("email") ?? "");
  const [perAddress, perEmail] = limits;
  const verdicts = [perAddress.hit(clientAddress(request)), ...(email.success ? [perEmail.hit(email.data)] : [])];
  const refused = verdicts.find((verdict) => !verdict.allowed);
  if (!refused || refused.allowed) return null;
  const minutes = Math.ceil(refused.retryAfterSeconds / 60);
  const message = `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  return Response.json(
    { url: `${publicUrl()}/sign-in?error=RateLimited`, error: { code: "RATE_LIMITED", message } },
    { status: 429, headers: { "retry-after": String(refused.retryAfterSeconds) } },
  );
}
