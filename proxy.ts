// Console server actions from another site (or none) get 403, not the 500 Next answers on its own check.
import type { NextRequest } from "next/server";
import { errorResponse } from "@/lib/http/envelope";
import { errorReport } from "@/lib/http/errors";
import { serverActionOriginProblem } from "@/lib/console/origin";

export function proxy(request: NextRequest) {
  if (request.method !== "POST") return;
  const problem = serverActionOriginProblem(request.headers);
  if (!problem) return;
  return errorResponse(errorReport("FORBIDDEN", `${problem} Console actions are accepted only from this site.`));
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
