// /oauth/* — the authorization server of MCP clients (oidc-provider): authorize, token, register, revoke, jwks.
import { handleOauthRequest } from "@/lib/oauth/http";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleOauthRequest(request);
export const POST = GET;
export const OPTIONS = GET;
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
export const HEAD = GET;
