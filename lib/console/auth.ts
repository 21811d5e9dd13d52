import type { AuthOptions, User } from "next-auth";
import { decode as decodeJwt } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import EmailProvider from "next-auth/providers/email";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { TokenSet } from "openid-client";
import { z } from "zod";
// The console's sign-in: next-auth's options (providers, session cookie, callbacks and events), an adapter
// over the domain's sign-in (lib/orgs/sign-in.ts) and console sessions (lib/auth/console-sessions.ts).
import { Email } from "@/lib/auth/account-schemas";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import {
  CONSOLE_SESSION_MAX_AGE_SECONDS,
  consoleSessionActive,
  endConsoleSession,
  startConsoleSession,
  type SessionClient,
  type SignInMethod,
} from "@/lib/auth/console-sessions";
import { MAGIC_LINK_MAX_AGE_SECONDS } from "@/lib/auth/magic-link";
import { sendMail } from "@/lib/auth/mail";
import { normalizeSignInEmail } from "@/lib/auth/sign-in-limits";
import { emailDomain, orgIdOfSsoProvider, ssoProviderId, ssoSignInConnection } from "@/lib/auth/sso";
import { defaultNextAuthUrl } from "@/lib/config";
import { outboundHttpOptions } from "@/lib/net/outbound";
import {
  accountExists,
  consoleAccountsAdapter,
  recordSignIn,
  signInWithPassword,
  ssoProfileFields,
} from "@/lib/orgs/sign-in";
import { serverSecret } from "@/lib/secrets";

const PasswordSignIn = z.object({ email: Email, password: z.string().max(256) });

async function authorizePassword(credentials: Record<string, string> | undefined): Promise<User> {
  const parsed = PasswordSignIn.safeParse(credentials ?? {});
  if (!parsed.success) throw new Error("InvalidCredentials");
  const signedIn = await signInWithPassword(parsed.data.email, parsed.data.password);
  if ("refused" in signedIn) throw new Error(signedIn.refused);
  return signedIn.user;
}

type SsoConnection = NonNullable<Awaited<ReturnType<typeof ssoSignInConnection>>>;

function ssoProvider(connection: SsoConnection): OAuthConfig<Record<string, unknown>> {
  return {
    id: ssoProviderId(connection.org.id),
    name: `${connection.org.name} SSO`,
    type: "oauth",
    wellKnown: `${connection.issuer}/.well-known/openid-configuration`,
    clientId: connection.clientId,
    clientSecret: connection.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    // The issuer is typed by an organization's owner: discovery, token and userinfo requests may only
    // reach public https addresses (lib/net/outbound.ts).
    httpOptions: outboundHttpOptions(),
    // Some providers put the email only in the userinfo response, not in the ID token.
    userinfo: {
      async request({ client, tokens }) {
        // next-auth's type says plain parameters; at run time it is openid-client's TokenSet.
        const tokenSet = tokens as TokenSet;
        const claims = tokenSet.claims();
        return claims.email ? claims : { ...claims, ...(await client.userinfo(tokenSet)) };
      },
    },
    // No linking by email: any organization's owner can make an identity provider assert any address.
    // An identity signs in to an existing account only once that account linked it (from /account,
    // signed in); otherwise next-auth refuses with OAuthAccountNotLinked.
    profile(profile) {
      return { id: String(profile.sub), ...ssoProfileFields(profile) };
    },
  };
}

/**
 * next-auth's options. JWT sessions (the Credentials provider requires them); the session carries the
 * user and how they signed in, and every console request re-reads membership, role and the
 * organization's policy from the database, so a removal or a policy change applies at once.
 * `providerId`: the provider a request to /api/auth is for, so that an organization's SSO provider
 * is built only when that organization's sign-in is under way.
 */
export async function authOptions(providerId?: string, client: SessionClient = {}): Promise<AuthOptions> {
  defaultNextAuthUrl();
  const ssoOrgId = orgIdOfSsoProvider(providerId);
  const connection = ssoOrgId ? await ssoSignInConnection(ssoOrgId) : null;
  // The session this browser had when it signs in again (a magic link, linking SSO from /account):
  // its cookie is replaced, so its row is ended rather than left listed as active.
  let replacedSession: { uid: string; sid: string; method?: SignInMethod } | null = null;
  // Set when this sign-in uses a copied invitation link: the organization that issued it.
  let copiedInvitationOrgId: string | null = null;
  return {
    secret: serverSecret("NEXTAUTH_SECRET"),
    adapter: await consoleAccountsAdapter({
      onCopiedInvitation: (orgId) => {
        copiedInvitationOrgId = orgId;
      },
      linkingRefusal: () =>
        replacedSession?.method === "invitation_link"
          ? "A session opened by a copied invitation link cannot link single sign-on: " +
            "sign in with a link mailed to you first."
          : null,
    }),
    session: { strategy: "jwt", maxAge: CONSOLE_SESSION_MAX_AGE_SECONDS },
    jwt: {
      // A session cookie stands only while its console_sessions row does: signing out, "sign out
      // everywhere" and a password change end it on the server. Every reader of the cookie goes
      // through here (getServerSession, /api/auth/session, sign-out, and linking an SSO identity).
      // next-auth's OAuth check cookies are JWTs too, decoded with their cookie name as salt.
      async decode(params) {
        const token = await decodeJwt(params);
        if (!token || params.salt) return token;
        if (!(await consoleSessionActive(token.sid, token.uid))) return null;
        replacedSession = { uid: token.uid!, sid: token.sid!, method: token.method };
        return token;
      },
    },
    pages: { signIn: "/sign-in", error: "/sign-in", verifyRequest: "/sign-in?check_email=1" },
    logger: {
      error(code, metadata) {
        // The cookie of an ended session (signed out elsewhere, revoked, expired) is expected, not an error.
        const message = (metadata as { message?: string } | undefined)?.message;
        if (code === "JWT_SESSION_ERROR" && message === "JWT invalid") return;
        console.error(`[next-auth][error][${code}]`, metadata);
      },
    },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Password",
        credentials: { email: {}, password: {} },
        authorize: authorizePassword,
      }),
      EmailProvider({
        maxAge: MAGIC_LINK_MAX_AGE_SECONDS,
        // The same normalization as the per-email rate limit, so the limit counts the address mailed.
        normalizeIdentifier(identifier) {
          const email = normalizeSignInEmail(identifier);
          if (!email) throw new Error("Invalid email address format.");
          return email;
        },
        // The same reply whether or not an account has the address: mail goes only to existing users.
        async sendVerificationRequest({ identifier, url }) {
          if (!(await accountExists(identifier))) return;
          await sendMail({
            to: identifier,
            subject: "Your Memory Gateway sign-in link",
            text:
              `Sign in to Memory Gateway:\n${url}\n\n` +
              "The link works once, for 10 minutes. If you did not ask for it, ignore this email.",
            html:
              `<p>Sign in to Memory Gateway:</p><p><a href="${url}">Sign in</a></p>` +
              "<p>The link works once, for 10 minutes. If you did not ask for it, ignore this email.</p>",
          });
        },
      }),
      ...(connection ? [ssoProvider(connection)] : []),
    ],
    callbacks: {
      // Only back to this server: `callbackUrl=//evil.example` or `/\evil.example` ends on the home page.
      async redirect({ url, baseUrl }) {
        return new URL(safeCallbackPath(url, baseUrl), baseUrl).toString();
      },
      async signIn({ user, account, profile, email }) {
        if (account?.provider === "email") {
          // Asking for a link always succeeds (mail goes only to existing accounts, see above); using one
          // needs the account, so a link never creates one.
          if (email?.verificationRequest) return true;
          return accountExists(String(user.email));
        }
        if (connection && account?.provider === ssoProviderId(connection.org.id)) {
          const email = String(user.email ?? "");
          if (!email) return "/sign-in?error=SsoEmailInvalid";
          const verified = (profile as { email_verified?: boolean } | undefined)?.email_verified;
          if (verified === false) return "/sign-in?error=SsoUnverified";
          if (!connection.allowedDomains.includes(emailDomain(email))) return "/sign-in?error=SsoDomain";
        }
        return true;
      },
      async jwt({ token, user, account }) {
        if (user && account) {
          const method: SignInMethod =
            account.provider === "credentials"
              ? "password"
              : account.provider === "email"
                ? copiedInvitationOrgId
                  ? "invitation_link"
                  : "magic_link"
                : "sso";
          token.uid = user.id;
          token.method = method;
          token.ssoOrgId = method === "invitation_link" ? copiedInvitationOrgId : orgIdOfSsoProvider(account.provider);
          token.sid = await startConsoleSession(user.id, method, client);
          if (replacedSession) await endConsoleSession(replacedSession.uid, replacedSession.sid);
        }
        return token;
      },
      async session({ session, token }) {
        const { uid: userId, method, sid: sessionId } = token;
        return { ...session, userId, method, ssoOrgId: token.ssoOrgId ?? null, sessionId };
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sid === "string" && typeof token.uid === "string") {
          await endConsoleSession(token.uid, token.sid);
        }
      },
      async signIn({ user, account }) {
        // A magic link confirms a pending sign-up (without its password); a first SSO sign-in joins.
        await recordSignIn(user.id, {
          magicLink: account?.provider === "email",
          ssoOrgId: orgIdOfSsoProvider(account?.provider),
        });
      },
    },
  };
}
