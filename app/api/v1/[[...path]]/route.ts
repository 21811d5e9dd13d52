// /api/v1 itself and any other path under it — a 404 in the envelope rather than an HTML page
import { errorResponse } from "@/lib/http/envelope";
import { errorReport } from "@/lib/http/errors";
import { withRequestId } from "@/lib/http/methods";

const notFound = withRequestId((request: Request) => {
  const { pathname } = new URL(request.url);
  const message = `No API route ${request.method} ${pathname}. See /api/v1/openapi.json.`;
  return errorResponse(errorReport("NOT_FOUND", message));
});

// OPTIONS too: Next's default would answer 204 and list every method for a path that does not exist.
export {
  notFound as GET,
  notFound as POST,
  notFound as PUT,
  notFound as PATCH,
  notFound as DELETE,
  notFound as OPTIONS,
};
