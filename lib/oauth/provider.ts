import { createHmac, generateKeyPairSync } from "node:crypto";
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { publicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { serverSecret } from "@/lib/secrets";
import { DatabaseAdapter, OAUTH_MODELS, spendAuthorizationCode } from "./adapter";
import { redirectUriAllowed } from "./redirect-uris";
import { namespaceIdOfResource } from "@/lib/namespaces/mcp-endpoint";

/** The OAuth scopes of an MCP endpoint: what a connection may do in its one namespace. */
export const MCP_SCOPES = { read: "mcp:read", write: "mcp:write" } as const;
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
const GRANT_TTL_SECONDS = 365 * 24 * 3600;
// The person approves every connection on the console page; the provider's own session only carries them
// from that page back to the authorization request.
const INTERACTION_TTL_SECONDS = 10 * 60;

/** Where the authorization server's endpoints are (oidc-provider serves them; app/oauth routes to it). */
export const OAUTH_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  registration: "/oauth/register",
  revocation: "/oauth/revoke",
  jwks: "/oauth/jwks",
} as const;

/** The consent page (app/consent/[uid]): where the provider sends the person to approve a connection. */
export function consentPath(uid: string) {
  return `/consent/${uid}`;
}

/** The authorization server's issuer: the gateway's public origin. */
export function oauthIssuer() {
  return new URL(publicUrl()).origin;
}

const holder = globalThis as typeof globalThis & { __memgwOauthProvider?: Provider };

/**
 * The gateway's OAuth 2.1 authorization server for MCP clients, built on oidc-provider (certified) and
 * kept in the database (DatabaseAdapter). What it allows:
 * - dynamic client registration (RFC 7591), open as MCP clients need it; public clients (no secret) included;
 * - the authorization code grant with PKCE S256 only, then refresh tokens that rotate on every use (a
 *   refresh token used twice revokes the whole grant: oidc-provider's reuse detection);
 * - a `resource` (RFC 8707) that must be one namespace's MCP endpoint: the token's audience is that
 *   endpoint and nothing else; access tokens are opaque, stored hashed, valid one hour;
 * - revocation (RFC 7009); no OpenID Connect sign-in (no `openid` scope, no ID tokens, no userinfo).
 * Every authorization goes through the console's consent page, which signs the person in as usual.
 */
export function oauthProvider(): Provider {
  holder.__memgwOauthProvider ??= createProvider();
  return holder.__memgwOauthProvider;
}

function createProvider(): Provider {
  const { Check } = interactionPolicy;
  const policy = interactionPolicy.base();
  // Approval is per connection (the client, the namespace, the permissions) and never carried over from an
  // earlier one: the console page runs on every authorization request, signs the person in and records the
  // grant in one step. The permissions chosen there may be fewer than the client asked for, which
  // oidc-provider's own consent checks would ask about again: they are replaced by this one.
  policy.get("consent")!.checks.clear();
  policy
    .get("login")!
    .checks.add(
      new Check("connection_not_approved", "the person approves each connection in the console", (ctx) =>
        ctx.oidc.result?.connection ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    );
  const configuration: Configuration = {
    adapter: DatabaseAdapter,
    clients: [],
    routes: OAUTH_ROUTES,
    scopes: [MCP_SCOPES.read, MCP_SCOPES.write],
    claims: {},
    responseTypes: ["code"],
    pkce: { required: () => true },
    // Public clients (the usual MCP client) and client secrets; not the JWT methods, whose `jwks_uri` would
    // have the gateway fetch a URL any registrant names.
    clientAuthMethods: ["none", "client_secret_basic", "client_secret_post"],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // RFC 7591's default for a registration that names no method: a client secret, sent in a Basic header.
      // The registration's answer says so and carries the secret; a public client asks for `none`.
      token_endpoint_auth_method: "client_secret_basic",
      id_token_signed_response_alg: "ES256",
    },
    enabledJWA: { idTokenSigningAlgValues: ["ES256"] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      // Not for MCP clients: no pushed requests, no sign-out of relying parties, bearer tokens only (the MCP
      // endpoint does not check DPoP proofs, so it must not issue DPoP-bound tokens).
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      dPoP: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client must name the namespace endpoint it connects to: there is no default namespace.
        defaultResource: () => undefined as unknown as string,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, resource) {
          if (!namespaceIdOfResource(resource)) {
            throw new errors.InvalidTarget("the resource must be a namespace's MCP endpoint of this gateway");
          }
          return {
            scope: `${MCP_SCOPES.read} ${MCP_SCOPES.write}`,
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: "opaque",
          };
        },
      },
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => consentPath(interaction.uid),
    },
    async findAccount(_ctx, accountId) {
      const prisma = await db();
      const user = await prisma.user.findUnique({ where: { id: accountId }, select: { id: true } });
      return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    // Every refresh rotates, except one that is refused anyway (a resource other than the token's): its
    // refresh token stays usable instead of being spent, and the client's retry is not taken for a replay.
    rotateRefreshToken: (ctx) => {
      const requested = ctx.oidc.params?.resource;
      const granted = ctx.oidc.entities.RefreshToken?.resource;
      return requested === undefined || requested === granted;
    },
    // Revoking any of a connection's tokens (RFC 7009) ends the connection: nothing is left half-usable.
    revokeGrantPolicy: () => true,
    // Tokens live by their own lifetimes and the connection, not by the provider's short browser session.
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Grant: GRANT_TTL_SECONDS,
      Interaction: INTERACTION_TTL_SECONDS,
      Session: INTERACTION_TTL_SECONDS,
    },
    cookies: { keys: [derivedSecret("oauth-cookies")] },
    // MCP clients that run in a browser (the MCP Inspector) call the token and registration endpoints.
    clientBasedCORS: () => true,
    // No ID token is ever issued (there is no `openid` scope): this key only fills the provider's JWKS.
    jwks: { keys: [signingKey()] },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = oauthErrorPage(out.error, out.error_description);
    },
  };
  const provider = new Provider(oauthIssuer(), configuration);
  // Storage, token kinds and revocation go by the models' class names: a build that stripped them (a bundled,
  // minified oidc-provider) must not serve at all (next.config.js keeps the package out of the bundle).
  for (const model of OAUTH_MODELS) {
    const found = (provider as unknown as Record<string, { name?: string } | undefined>)[model]?.name;
    if (found !== model) {
      throw new Error(`oidc-provider's ${model} model is named ${JSON.stringify(found)}: its class names were lost.`);
    }
  }
  // RFC 8252 §7.3: a loopback redirect URI matches on any port. oidc-provider allows that only to clients
  // registered as `native`, but MCP clients that listen on the person's machine often register as `web`
  // (OpenID's default; RFC 7591 has no application types): every client gets it, and nothing else is loosened.
  Object.defineProperty(provider.Client.prototype, "redirectUriAllowed", {
    value(this: { redirectUris: string[] }, uri: string) {
      return redirectUriAllowed(uri, this.redirectUris);
    },
  });
  provider.use(spendRefusedCodes);
  provider.on("server_error", (_ctx: KoaContextWithOIDC, error: Error) => {
    console.error("[memgw] OAuth server error:", error);
  });
  return provider;
}

/**
 * An authorization code is good for one try (OAuth 2.1 §4.1.3): a token request that presented one and was
 * refused as a bad request (a wrong `code_verifier` or `redirect_uri`, another client's code, a foreign
 * resource) spends it, so a stolen code cannot be tried against guessed verifiers, and the connection it
 * would have started ends. oidc-provider checks PKCE and the redirect URI before it consumes a code, so on
 * its own a refused code stayed good. A request whose client did not authenticate (401) never reached the
 * code and leaves it; a server error (5xx) is not the client's and leaves it too. Runs after the provider
 * answered and before the answer is sent, so the client's next request finds the code spent.
 */
async function spendRefusedCodes(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
  await next();
  const params = ctx.oidc?.params;
  if (ctx.oidc?.route !== "token" || ctx.status !== 400 || params?.grant_type !== "authorization_code") return;
  if (typeof params.code === "string" && params.code) {
    await spendAuthorizationCode(params.code, "its authorization code was refused at the token endpoint");
  }
}

function derivedSecret(label: string) {
  return createHmac("sha256", serverSecret("NEXTAUTH_SECRET")).update(label).digest("base64url");
}

function signingKey() {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { ...privateKey.export({ format: "jwk" }), kid: "memgw-oauth", use: "sig", alg: "ES256" };
}

/** The page the person's browser shows when the authorization server refuses a request. */
export function oauthErrorPage(error: string, description?: string) {
  const escape = (text: string) =>
    text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>Cannot connect</title></head>` +
    `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">` +
    `<h1>This client cannot connect</h1><p>${escape(description ?? error)}</p>` +
    `<p style="color:#64748b">OAuth error: <code>${escape(error)}</code></p></body></html>`
  );
}
