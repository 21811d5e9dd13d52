// GET|POST /api/auth/* — console sign-in (next-auth): password, magic link and each organization's SSO
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/console-auth";
import { signInRateLimit } from "@/lib/auth/sign-in-limits";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context) {
  const [action, providerId] = (await context.params).nextauth ?? [];
  const limited = await signInRateLimit(request, action, providerId);
  if (limited) return limited;
  return NextAuth(request as never, context as never, await authOptions(providerId));
}

export { handler as GET, handler as POST };
