// GET|POST /api/auth/* — console sign-in (next-auth): password, magic link and each organization's SSO
import { signInRoute } from "@/lib/console/sign-in-route";

export { signInRoute as GET, signInRoute as POST };
