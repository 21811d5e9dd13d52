import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { MAIL_DIR } from "./mail-catcher";

/** The bodies of the mails caught for an address, oldest first (quoted-printable decoded). */
export function mailsTo(address: string): string[] {
  return fs
    .readdirSync(MAIL_DIR)
    .filter((file) => file.endsWith(`-${address}.eml`))
    .sort()
    .map((file) => decodeQuotedPrintable(fs.readFileSync(path.join(MAIL_DIR, file), "utf8")));
}

/** Waits for the next mail to an address and returns the sign-in link in it. */
export async function nextLinkTo(address: string, seen = 0): Promise<string> {
  return nextLink(address, seen, /https?:\/\/\S+\/api\/auth\/callback\/email\?\S+/);
}

/** Waits for the next mail to an address and returns the finish-sign-up link in it. */
export async function nextFinishLinkTo(address: string, seen = 0): Promise<string> {
  return nextLink(address, seen, /https?:\/\/\S+\/sign-up\/finish\?\S+/);
}

async function nextLink(address: string, seen: number, pattern: RegExp): Promise<string> {
  await expect.poll(() => mailsTo(address).length, { timeout: 10_000 }).toBeGreaterThan(seen);
  const mail = mailsTo(address)[seen];
  const link = pattern.exec(mail)?.[0];
  if (!link) throw new Error(`No ${pattern} link in:\n${mail}`);
  return link.replace(/&amp;/g, "&").replace(/["<>].*$/, "");
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}
