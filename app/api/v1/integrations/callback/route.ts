// GET /api/v1/integrations/callback?code=&state= — where providers send the browser back: completes the
// connection the state names and opens the organization's integrations page, saying how it went.
import { toErrorResponse } from "@/lib/http/envelope";
import { apiRoute } from "@/lib/http/methods";
import { completeFromCallback } from "@/lib/integrations/connections";

async function callback(request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  try {
    const page = await completeFromCallback({
      code: query.get("code") ?? undefined,
      state: query.get("state") ?? undefined,
      error: query.get("error") ?? undefined,
    });
    return new Response(null, { status: 303, headers: { location: page.toString(), "cache-control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: callback });
