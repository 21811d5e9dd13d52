import { clientAddress, rateLimitAddress } from "@/lib/net/client-address";
import { hitRateLimit } from "@/lib/rate-limit/limiter";
import { LOOPBACK_HOSTS } from "./redirect-uris";

/** Registrations one client address may make per hour: an MCP client registers once per person and server. */
const REGISTRATIONS_PER_HOUR = 30;
const CLIENT_NAME_MAX = 200;

/**
 * The client metadata (RFC 7591 §2, and OpenID's `application_type`) a registration keeps; anything else is
 * dropped before oidc-provider sees it, as RFC 7591 lets a server ignore or replace what it does not use
 * (the answer lists what was registered). Among what is dropped: the signing and encryption algorithms of ID
 * tokens, request objects and responses the gateway never issues or reads; their HMAC and symmetric forms
 * would make oidc-provider hand a secret to a public client, a secret nothing then accepts. And `jwks` /
 * `jwks_uri`, which only the JWT client authentication methods use (not enabled).
 */
const KEPT_METADATA = new Set([
  "redirect_uris",
  "token_endpoint_auth_method",
  "grant_types",
  "response_types",
  "client_name",
  "client_uri",
  "logo_uri",
  "scope",
  "contacts",
  "tos_uri",
  "policy_uri",
  "application_type",
]);

/**
 * An open client registration (RFC 7591) as the gateway takes it, before oidc-provider sees it: refused
 * (`refused`, the RFC's error body, or 429 past REGISTRATIONS_PER_HOUR from one address) for a name longer
 * than anyone reads and for redirect URIs that would send a code over plain http to another machine (https,
 * http on loopback for desktop clients, or an app's own scheme); otherwise `body`, the metadata kept
 * (KEPT_METADATA) as JSON. A body that is not a JSON object goes through as it is: oidc-provider refuses it.
 */
export async function screenRegistration(
  headers: Headers,
  body: Buffer,
): Promise<{ refused: Response } | { body: Buffer }> {
  const verdict = await hitRateLimit(
    { name: "oauth-registrations-per-ip", limit: REGISTRATIONS_PER_HOUR, windowMs: 60 * 60_000 },
    rateLimitAddress(clientAddress(headers)),
  );
  if (!verdict.allowed) {
    const refused = Response.json(
      { error: "too_many_requests", error_description: "Too many client registrations from this address." },
      { status: 429, headers: { "retry-after": String(verdict.resetSeconds), "cache-control": "no-store" } },
    );
    return { refused };
  }
  let metadata: unknown;
  try {
    metadata = JSON.parse(body.toString("utf8"));
  } catch {
    return { body };
  }
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return { body };
  const kept = Object.fromEntries(Object.entries(metadata).filter(([key]) => KEPT_METADATA.has(key)));
  const { client_name: clientName, redirect_uris: redirectUris } = kept;
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
  return { body: Buffer.from(JSON.stringify(kept)) };
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
  const refused = Response.json(
    { error, error_description: description },
    { status: 400, headers: { "cache-control": "no-store" } },
  );
  return { refused };
}
