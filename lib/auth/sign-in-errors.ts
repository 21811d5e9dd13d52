/** The sign-in errors the console explains (next-auth passes them as `?error=`, or in signIn()'s result). */
export const SIGN_IN_ERRORS: Record<string, string> = {
  InvalidCredentials: "The email or password is not right.",
  Locked: "Too many failed sign-ins for this email. Try again in 15 minutes, or sign in with a magic link.",
  RateLimited: "Too many attempts. Wait a few minutes before trying again.",
  SsoDomain: "Your identity provider signed you in, but your email domain is not allowed for this organization.",
  SsoEmailInvalid: "Your identity provider did not send a valid email address, so you cannot sign in with it.",
  SsoUnverified: "Your identity provider did not confirm your email address.",
  Verification: "This sign-in link has expired or was already used. Ask for a new one.",
  AccessDenied: "That sign-in was refused.",
  OAuthAccountNotLinked:
    "An account with this email already exists, and single sign-on is not linked to it. " +
    "To use single sign-on with it, " +
    "sign in with your password or magic link, then link single sign-on from your account page.",
};
