// Console server actions from another site (or none) get 403, and bodies past Next's limit 413, not the 500s
// Next answers on its own checks.
import type { NextRequest } from "next/server";
import { errorResponse } from "@/lib/http/envelope";
import { errorReport } from "@/lib/http/errors";
import { serverActionOriginProblem } from "@/lib/console/origin";

/** Next's own limit of a server action's body (`serverActions.bodySizeLimit`, 1 MB). */
const SERVER_ACTION_BODY_MAX_BYTES = 1024 * 1024;

export function proxy(request: NextRequest) {
  if (request.method !== "POST") return;
  const problem = serverActionOriginProblem(request.headers);
  if (problem) {
    return errorResponse(errorReport("FORBIDDEN", `${problem} Console actions are accepted only from this site.`));
  }
  // Next refuses a body past its limit by throwing, which answers 500: refused here first, by its declared
  // length (browsers always declare it; a body that does not is refused rather than read).
  const length = request.headers.get("content-length");
  if (length === null || !/^\d+$/.test(length)) {
    return errorResponse(errorReport("BAD_REQUEST", "A console action's request must declare its Content-Length."));
  }
  if (Number(length) > SERVER_ACTION_BODY_MAX_BYTES) {
    return errorResponse(
      errorReport("PAYLOAD_TOO_LARGE", `A console action's request is at most ${SERVER_ACTION_BODY_MAX_BYTES} bytes.`),
    );
  }
}

export const config = {
  // Only what Next may treat as a server action (a POST with `Next-Action`, or a multipart form post
  // before the page's script loaded) on console pages: the API and static files never pass through here.
  matcher: [
    { source: "/((?!api(?:/|$)|_next/).*)", has: [{ type: "header", key: "next-action" }] },
    {
      source: "/((?!api(?:/|$)|_next/).*)",
      has: [{ type: "header", key: "content-type", value: "multipart/form-data.*" }],
    },
  ],
};
