import nodemailer from "nodemailer";
import { setting } from "@/lib/config";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** True when mail goes out over SMTP_URL; without it (development), links go to the server log. */
export function mailConfigured(): boolean {
  return Boolean(setting("SMTP_URL"));
}

let transport: nodemailer.Transporter | undefined;

export async function sendMail(mail: Mail): Promise<void> {
  const url = setting("SMTP_URL");
  if (!url) {
    console.log(`[memgw] mail to ${mail.to} (no SMTP_URL set, so it is printed here): ${mail.subject}\n${mail.text}`);
    return;
  }
  transport ??= nodemailer.createTransport(url);
  await transport.sendMail({
    from: setting("MAIL_FROM") || "Memory Gateway <no-reply@memory-gateway.local>",
    ...mail,
  });
}

/** Text put into a mail's HTML part. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
