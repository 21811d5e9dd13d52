import { createHash, randomBytes } from "node:crypto";
import { publicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { serverSecret } from "@/lib/secrets";
import { escapeHtml, sendMail } from "./mail";

export const MAGIC_LINK_MAX_AGE_SECONDS = 10 * 60;

/** How verification_tokens stores a token: as next-auth's email provider hashes it (SHA-256 of token + secret). */
export function emailTokenHash(token: string): string {
  return createHash("sha256")
    .update(`${token}${serverSecret("NEXTAUTH_SECRET")}`)
    .digest("hex");
}

/** A new single-use token for an address, valid for 10 minutes; only its hash is stored. */
export async function createEmailToken(email: string): Promise<string> {
  const token = randomBytes(32).toString("hex");
  const prisma = await db();
  await prisma.verificationToken.create({
    data: {
      identifier: email,
      token: emailTokenHash(token),
      expires: new Date(Date.now() + MAGIC_LINK_MAX_AGE_SECONDS * 1000),
    },
  });
  return token;
}

/** Whether a mailed token for the address is stored and not expired (it stays usable). */
export async function emailTokenValid(email: string, token: string): Promise<boolean> {
  const prisma = await db();
  const row = await prisma.verificationToken.findUnique({
    where: { identifier_token: { identifier: email, token: emailTokenHash(token) } },
  });
  return Boolean(row && row.expires > new Date());
}

/** Uses a mailed token up: true only for the one caller that deleted it while it was valid. */
export async function consumeEmailToken(email: string, token: string): Promise<boolean> {
  const prisma = await db();
  const { count } = await prisma.verificationToken.deleteMany({
    where: { identifier: email, token: emailTokenHash(token), expires: { gt: new Date() } },
  });
  return count === 1;
}

/**
 * A magic link that next-auth's email provider accepts, for mail the console sends itself
 * (invitations). Same token, hash, expiry and URL as next-auth's own sign-in mail
 * (next-auth/core/lib/email/signin.js), so its callback verifies and consumes it once.
 */
export async function createMagicLink(email: string, callbackPath: string): Promise<string> {
  return magicLinkUrl(email, await createEmailToken(email), callbackPath);
}

/** The link that signs in with a token stored for the address (next-auth's email callback). */
export function magicLinkUrl(email: string, token: string, callbackPath: string): string {
  const params = new URLSearchParams({ callbackUrl: `${publicUrl()}${callbackPath}`, token, email });
  return `${publicUrl()}/api/auth/callback/email?${params}`;
}

/** The invitation mail; `url` is the invitation's link (lib/orgs/invitation-link.ts), usable until `expiresAt`. */
export async function sendInvitation(input: {
  email: string;
  orgName: string;
  url: string;
  expiresAt: Date;
  invitedBy: string;
}) {
  const { url } = input;
  const intro = `${input.invitedBy} invited you to ${input.orgName} on Memory Gateway.`;
  const expiry =
    `The link signs you in once, until ${input.expiresAt.toUTCString()}; after that, ask ${input.invitedBy} ` +
    "for a new one, or ask for a sign-in link on the sign-in page.";
  await sendMail({
    to: input.email,
    subject: `You are invited to ${input.orgName} on Memory Gateway`,
    text: `${intro}\n\nJoin: ${url}\n\n${expiry}`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${url}">Join ${escapeHtml(input.orgName)}</a></p><p>${expiry}</p>`,
  });
}
