// An OpenID Connect identity provider on loopback (the `oidc-provider` package), standing in for an
// organization's IdP in the SSO tests. Its built-in sign-in page accepts any login; the login is the
// person's email address, and a login starting with "unverified" gets `email_verified: false`.
// Tests register a client for their organization's redirect URI through dynamic registration, the
// way an IdP administrator would create an application.
import type { Server } from "node:http";
import Provider from "oidc-provider";

export const IDP_PORT = Number(process.env.E2E_IDP_PORT || 2592);
export const IDP_ISSUER = `http://127.0.0.1:${IDP_PORT}`;

export async function startIdentityProvider(): Promise<() => Promise<void>> {
  const provider = new Provider(IDP_ISSUER, {
    clients: [],
    features: { registration: { enabled: true }, devInteractions: { enabled: true } },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: ["memory gateway e2e identity provider"] },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    async findAccount(_ctx, login) {
      const email = login.toLowerCase();
      return {
        accountId: email,
        claims: async () => ({
          sub: email,
          email,
          email_verified: !email.startsWith("unverified"),
          name: email.split("@")[0],
        }),
      };
    },
  });
  const server: Server = provider.listen(IDP_PORT, "127.0.0.1");
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  return async () => new Promise<void>((resolve) => server.close(() => resolve()));
}
