import type { SignInMethod } from "@/lib/auth/console-sessions";

declare module "next-auth" {
  interface Session {
    userId: string;
    method: SignInMethod;
    /**
     * The one organization the session opens: for SSO, the organization whose identity provider signed the
     * user in; for a copied invitation link, the organization that issued it.
     */
    ssoOrgId: string | null;
    /** The console_sessions row of this sign-in (lib/auth/console-sessions.ts). */
    sessionId: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    method?: SignInMethod;
    ssoOrgId?: string | null;
    sid?: string;
  }
}
