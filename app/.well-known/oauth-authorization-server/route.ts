// GET /.well-known/oauth-authorization-server — the authorization server's metadata (RFC 8414).
import { handleOauthRequest } from "@/lib/oauth/http";

export const dynamic = "force-dynamic";

// oidc-provider's discovery document is a superset of RFC 8414's.
export const GET = (request: Request) => handleOauthRequest(request, "/.well-known/openid-configuration");
export const OPTIONS = GET;
