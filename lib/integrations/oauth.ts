// The OAuth 2.0 authorization code flow with each provider (RFC 6749, PKCE per RFC 7636): the
// authorization URL, exchanging the code, refreshing the access token. Token requests go to the
// deployment's TOKEN_URL setting; what comes back is handed to lib/integrations/connections.ts to encrypt.
import { createHash, randomBytes } from "node:crypto";
import { UpstreamError } from "@/lib/errors";
import type { ProviderDefinition } from "./providers";

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  /** A name for the account connected (Slack's team, Notion's workspace), when the provider says it. */
  account: string | null;
}

/** The provider refused the grant (a bad or used code, a refused refresh): the person must connect again. */
export class GrantRefusedError extends Error {
  constructor(readonly providerError: string) {
    super(`The provider refused the authorization (${providerError}).`);
    this.name = "GrantRefusedError";
  }
}

/** A 256-bit random value, URL-safe: the state and the PKCE verifier. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashState(state: string): string {
  return createHash("sha256").update(state).digest("hex");
}

export function authorizationUrl(
  provider: ProviderDefinition,
  authUrl: string,
  client: OAuthClient,
  request: { redirectUri: string; state: string; codeVerifier: string | null },
): string {
  const url = new URL(authUrl);
  url.searchParams.set("client_id", client.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("state", request.state);
  if (provider.scopes.length > 0) url.searchParams.set("scope", provider.scopes.join(provider.scopeSeparator));
  if (request.codeVerifier) {
    url.searchParams.set("code_challenge", createHash("sha256").update(request.codeVerifier).digest("base64url"));
    url.searchParams.set("code_challenge_method", "S256");
  }
  for (const [name, value] of Object.entries(provider.authorizationParameters ?? {})) url.searchParams.set(name, value);
  return url.toString();
}

export function exchangeCode(
  provider: ProviderDefinition,
  tokenUrl: string,
  client: OAuthClient,
  grant: { code: string; redirectUri: string; codeVerifier: string | null },
): Promise<TokenSet> {
  return tokenRequest(provider, tokenUrl, client, {
    grant_type: "authorization_code",
    code: grant.code,
    redirect_uri: grant.redirectUri,
    ...(grant.codeVerifier && { code_verifier: grant.codeVerifier }),
  });
}

export function refreshAccessToken(
  provider: ProviderDefinition,
  tokenUrl: string,
  client: OAuthClient,
  refreshToken: string,
): Promise<TokenSet> {
  return tokenRequest(provider, tokenUrl, client, { grant_type: "refresh_token", refresh_token: refreshToken });
}

const TOKEN_REQUEST_TIMEOUT_MS = 15_000;

async function tokenRequest(
  provider: ProviderDefinition,
  tokenUrl: string,
  client: OAuthClient,
  parameters: Record<string, string>,
): Promise<TokenSet> {
  const { clientAuthentication, encoding } = provider.tokenRequest;
  const fields = {
    ...parameters,
    ...(clientAuthentication === "body" && { client_id: client.clientId, client_secret: client.clientSecret }),
  };
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": encoding === "json" ? "application/json" : "application/x-www-form-urlencoded",
  };
  if (clientAuthentication === "basic") {
    const credentials = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
  }
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: "POST",
      headers,
      body: encoding === "json" ? JSON.stringify(fields) : new URLSearchParams(fields),
      signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
      redirect: "error",
    });
  } catch (error) {
    const message = `${provider.name}'s token endpoint could not be reached: ${(error as Error).message}`;
    throw new UpstreamError(message, undefined, { cause: error });
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  // GitHub and Slack answer a refused grant with 200 and the error in the body (Slack in `ok: false`).
  const refusal = typeof body?.error === "string" ? body.error : null;
  if (refusal || body?.ok === false || !response.ok) {
    if (refusal && response.status < 500) throw new GrantRefusedError(refusal);
    throw new UpstreamError(
      `${provider.name}'s token endpoint answered ${response.status}${refusal ? ` (${refusal})` : ""}.`,
    );
  }
  if (typeof body?.access_token !== "string" || body.access_token === "")
    throw new UpstreamError(`${provider.name}'s token endpoint answered without an access token.`);
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === "string" && body.refresh_token ? body.refresh_token : null,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null,
    account: accountName(body),
  };
}

function accountName(body: Record<string, unknown>): string | null {
  const team = body.team as { name?: unknown } | undefined;
  if (typeof team?.name === "string") return team.name;
  if (typeof body.workspace_name === "string") return body.workspace_name;
  return null;
}
