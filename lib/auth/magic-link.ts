import { createHash, randomBytes } from "node:crypto";
import { publicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { serverSecret } from "@/lib/secrets";
import { sendMail } from "./mail";

export const MAGIC_LINK_MAX_AGE_SECONDS = 10 * 60;

/**
 * A magic link that next-auth's email provider accepts, for mail the console sends itself
 * (invitations). Same token, hash (SHA-256 of token + secret), expiry and URL as next-auth's own
 * sign-in mail (next-auth/core/lib/email/signin.js), so its callback verifies and consumes it once.
 */
export async function createMagicLink(email: string, callbackPath: string): Promise<string> {
  const token = randomBytes(32).toString("hex");
  const prisma = await db();
  await prisma.verificationToken.create({
    data: {
      identifier: email,
      token: createHash("sha256").update(`${token}${serverSecret("NEXTAUTH_SECRET")}`).digest("hex"),
      expires: new Date(Date.now() + MAGIC_LINK_MAX_AGE_SECONDS * 1000),
    },
  });
  const params = new URLSearchParams({ callbackUrl: `${publicUrl()}${callbackPath}`, token, email });
  return `${publicUrl()}/api/auth/callback/email?${params}`;
}

export async function sendInvitation(input: { email: string; orgName: string; orgSlug: string; invitedBy: string }) {
  const url = await createMagicLink(input.email, `/${input.orgSlug}/keys`);
  const intro = `${input.invitedBy} invited you to ${input.orgName} on Memory Gateway.`;
  const expiry = "The link signs you in once, within 10 minutes; after that, ask for a new link on the sign-in page.";
  await sendMail({
    to: input.email,
    subject: `You are invited to ${input.orgName} on Memory Gateway`,
    text: `${intro}\n\nJoin: ${url}\n\n${expiry}`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${url}">Join ${escapeHtml(input.orgName)}</a></p><p>${expiry}</p>`,
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
