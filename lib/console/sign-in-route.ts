// The console's sign-in endpoints (next-auth: password, magic link and each organization's SSO), with the
// sign-in rate limit in front and the client's address and user agent handed to the audit of each sign-in.
import NextAuth from "next-auth";
import { authOptions } from "@/lib/console/auth";
import { signInRateLimit } from "@/lib/console/sign-in-rate-limit";
import { clientAddress } from "@/lib/net/client-address";

export type SignInRouteContext = { params: Promise<{ nextauth: string[] }> };

export async function signInRoute(request: Request, context: SignInRouteContext): Promise<Response> {
  const [action, providerId] = (await context.params).nextauth ?? [];
  const limited = await signInRateLimit(request, action, providerId);
  if (limited) return limited;
  const client = { userAgent: request.headers.get("user-agent"), clientAddress: clientAddress(request.headers) };
  return NextAuth(request as never, context as never, await authOptions(providerId, client));
}
