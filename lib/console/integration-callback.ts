// Where providers send the browser back after an integration's consent: completes the connection the state
// names, if this browser started it (its flow cookie, or its console session), and opens the organization's
// integrations page, saying how it went.
import { memberOfOrganization } from "@/lib/console/session";
import { toErrorResponse } from "@/lib/http/envelope";
import { browserBindingCookie } from "@/lib/integrations/connections/bind-connection-to-browser";
import { completeFromCallback } from "@/lib/integrations/connections/complete-from-callback";

function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

export async function integrationCallback(request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  try {
    const page = await completeFromCallback(
      {
        code: query.get("code") ?? undefined,
        state: query.get("state") ?? undefined,
        error: query.get("error") ?? undefined,
      },
      {
        nonce: (connectionId) => cookieValue(request, browserBindingCookie(connectionId)),
        member: memberOfOrganization,
      },
    );
    const connectionId = page.searchParams.get("connected");
    const headers = new Headers({ location: page.toString(), "cache-control": "no-store" });
    // The flow is over: its cookie has nothing left to bind.
    if (connectionId)
      headers.append(
        "set-cookie",
        `${browserBindingCookie(connectionId)}=; Path=/api/v1/integrations/callback; Max-Age=0`,
      );
    return new Response(null, { status: 303, headers });
  } catch (error) {
    return toErrorResponse(error);
  }
}
