// Where a browser reached this console, for the commands the console shows (the try-it panel's curl).
import { headers } from "next/headers";
import { publicUrl, setting } from "@/lib/config";

/** A host header as a URL's host may have it (a name or an address, a port); anything else is not used. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * PUBLIC_URL when it is set (the installation's own address, which links and OAuth use too); otherwise the
 * origin the page was opened at (X-Forwarded-Host and -Proto from a proxy, else Host), since the default
 * http://localhost:PORT is wrong for anyone who opened the console at another address.
 */
export async function consoleOrigin(): Promise<string> {
  if (setting("PUBLIC_URL")) return publicUrl();
  const request = await headers();
  const forwarded = request.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = forwarded || request.get("host");
  if (!host || !HOST.test(host)) return publicUrl();
  const proto = forwarded ? request.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  return `${proto === "https" ? "https" : "http"}://${host}`;
}
