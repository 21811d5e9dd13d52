import { setting } from "@/lib/config";
import { RateLimitedError } from "@/lib/errors";
import { rateLimitAddress } from "@/lib/net/client-address";
import { Email } from "./account-schemas";
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
  signUpPerEmail: { name: "sign-up-per-email", limit: 3, windowMs: ONE_HOUR },
} satisfies Record<string, RateLimitRule>;

/**
 * The per-address sign-up rule: its limit is a setting (SIGN_UP_RATE_LIMIT_PER_HOUR) because many people
 * behind one address (an office NAT, a test suite) sign up more than its default allows.
 */
export function signUpRulePerAddress(): RateLimitRule {
  return { name: "sign-up-per-ip", limit: setting("SIGN_UP_RATE_LIMIT_PER_HOUR"), windowMs: ONE_HOUR };
}

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

/** "Too many attempts. Try again in 3 minutes." */
export function rateLimitMessage(verdict: RateLimitVerdict): string {
  const minutes = Math.ceil(verdict.resetSeconds / 60);
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** The sign-in attempts counted against limits: a password sign-in, a magic-link request. */
export type SignInAttempt = "password" | "magic_link";

const ATTEMPT_RULES: Record<SignInAttempt, [perAddress: RateLimitRule, perEmail: RateLimitRule]> = {
  password: [SIGN_IN_RULES.passwordPerIp, SIGN_IN_RULES.passwordPerEmail],
  magic_link: [SIGN_IN_RULES.magicLinkPerIp, SIGN_IN_RULES.magicLinkPerEmail],
};

/**
 * Counts a sign-in attempt against its limits: per client address and, when the attempt names one, per
 * email (as normalizeSignInEmail has it, or as sent when it is no address). Throws RateLimitedError past either.
 */
export async function countSignInAttempt(attempt: SignInAttempt, email: string | null, address: string): Promise<void> {
  const [perAddress, perEmail] = ATTEMPT_RULES[attempt];
  const checks: [RateLimitRule, string][] = [[perAddress, rateLimitAddress(address)]];
  if (email) checks.push([perEmail, email]);
  const refused = await firstRefusal(checks);
  if (refused) throw new RateLimitedError(rateLimitMessage(refused), refused.resetSeconds);
}
