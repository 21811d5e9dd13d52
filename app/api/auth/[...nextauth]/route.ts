// GET|POST /api/auth/* — console sign-in (next-auth): password, magic link and each organization's SSO
import NextAuth from "next-auth";
import { authOptions } from "@/lib/console/auth";
import { signInRateLimit } from "@/lib/console/sign-in-rate-limit";
import { clientAddress } from "@/lib/net/client-address";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context) {
  const [action, providerId] = (await context.params).nextauth ?? [];
  const limited = await signInRateLimit(request, action, providerId);
  if (limited) return limited;
  const client = { userAgent: request.headers.get("user-agent"), clientAddress: clientAddress(request.headers) };
  return NextAuth(request as never, context as never, await authOptions(providerId, client));
}

export { handler as GET, handler as POST };
