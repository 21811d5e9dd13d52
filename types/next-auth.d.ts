import type { SignInMethod } from "@/lib/auth/console-sessions";

declare module "next-auth" {
  interface Session {
    userId: string;
    method: SignInMethod;
    /** For an SSO session: the organization whose identity provider signed the user in. */
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
