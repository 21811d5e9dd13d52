// GET /.well-known/openid-configuration — the same metadata, where clients that try OpenID discovery look.
import { handleOauthRequest } from "@/lib/oauth/http";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleOauthRequest(request, "/.well-known/openid-configuration");
export const OPTIONS = GET;
