// An SMTP server on loopback that the gateway under test sends its mail to (SMTP_URL in
// playwright.config.ts). Each message is saved as a file that the tests read.
import fs from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export const MAIL_DIR = path.resolve(process.env.E2E_MAIL_DIR || "test-results/mail");
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT || 2591);

export async function startMailCatcher(): Promise<() => Promise<void>> {
  fs.rmSync(MAIL_DIR, { recursive: true, force: true });
  fs.mkdirSync(MAIL_DIR, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        fs.writeFileSync(path.join(MAIL_DIR, `${String(++count).padStart(4, "0")}-${to}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(SMTP_PORT, "127.0.0.1", resolve));
  return async () => new Promise<void>((resolve) => server.close(() => resolve()));
}
