// Any other /api/v1 path — a 404 in the envelope rather than an HTML page
import { apiErrorResponse } from "@/lib/api/envelope";

function notFound(request: Request) {
  const { pathname } = new URL(request.url);
  return apiErrorResponse("NOT_FOUND", `No API route ${request.method} ${pathname}. See /api/v1/openapi.json.`);
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
