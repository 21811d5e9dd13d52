// Where a browser reached this console, for the commands the console shows (the try-it panel's curl).
import { headers } from "next/headers";
import { publicUrl, setting } from "@/lib/config";
import { requestedOrigin } from "@/lib/net/client-address";

/** A host header as a URL's host may have it (a name or an address, a port); anything else is not used. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * PUBLIC_URL when it is set (the installation's own address, which links and OAuth use too); otherwise the
 * origin the page was opened at (requestedOrigin: a trusted proxy's X-Forwarded-Host and -Proto, else the Host
 * over http), since the default http://localhost:PORT is wrong for anyone who opened the console at another address.
 */
export async function consoleOrigin(): Promise<string> {
  if (setting("PUBLIC_URL")) return publicUrl();
  const { protocol, host } = requestedOrigin(await headers());
  if (!host || !HOST.test(host)) return publicUrl();
  return `${protocol}://${host}`;
}
