import { clientAddress, rateLimitAddress } from "@/lib/net/client-address";
import { hitRateLimit } from "@/lib/rate-limit/limiter";

/** Registrations one client address may make per hour: an MCP client registers once per person and server. */
const REGISTRATIONS_PER_HOUR = 30;
const CLIENT_NAME_MAX = 200;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * What the gateway refuses of an open client registration (RFC 7591) before oidc-provider sees it: too many
 * from one address (429), a name longer than anyone reads, and redirect URIs that would send a code over
 * plain http to another machine (https, http on loopback for desktop clients, or an app's own scheme).
 * A refusal is the RFC's error body; null lets the registration through.
 */
export async function registrationRefusal(headers: Headers, body: string): Promise<Response | null> {
  const verdict = await hitRateLimit(
    { name: "oauth-registrations-per-ip", limit: REGISTRATIONS_PER_HOUR, windowMs: 60 * 60_000 },
    rateLimitAddress(clientAddress(headers)),
  );
  if (!verdict.allowed) {
    return Response.json(
      { error: "too_many_requests", error_description: "Too many client registrations from this address." },
      { status: 429, headers: { "retry-after": String(verdict.resetSeconds), "cache-control": "no-store" } },
    );
  }
  let metadata: unknown;
  try {
    metadata = JSON.parse(body);
  } catch {
    return null; // oidc-provider answers a body that is not JSON
  }
  if (typeof metadata !== "object" || metadata === null) return null;
  const { client_name: clientName, redirect_uris: redirectUris } = metadata as Record<string, unknown>;
  if (typeof clientName === "string" && clientName.length > CLIENT_NAME_MAX) {
    return refusal("invalid_client_metadata", `client_name is longer than ${CLIENT_NAME_MAX} characters.`);
  }
  const plainHttp = Array.isArray(redirectUris)
    ? redirectUris.find((uri) => typeof uri === "string" && isPlainHttpToAnotherMachine(uri))
    : undefined;
  if (plainHttp) {
    return refusal(
      "invalid_redirect_uri",
      "redirect_uris must use https, http on localhost / 127.0.0.1 / [::1], or an application's own scheme.",
    );
  }
  return null;
}

function isPlainHttpToAnotherMachine(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false; // oidc-provider refuses what is not a URL
  }
}

function refusal(error: string, description: string) {
  return Response.json(
    { error, error_description: description },
    { status: 400, headers: { "cache-control": "no-store" } },
  );
}
