// Answers a known API path called with a method it does not have with a 405 in the envelope
// (Next's own 405 has an empty body).
import { NextResponse, type NextRequest } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { errorResponse } from "@/lib/api/envelope";
import { allowedMethods } from "@/lib/api/methods";

export function proxy(request: NextRequest) {
  const allowed = allowedMethods(request.nextUrl.pathname.replace(/^\/api\/v1/, ""));
  if (!allowed || allowed.includes(request.method)) return NextResponse.next();
  const error = new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; use ${allowed.filter((m) => m !== "HEAD" && m !== "OPTIONS").join(", ")}.`, undefined, {
    allow: allowed.join(", "),
  });
  return errorResponse(error);
}

export const config = { matcher: "/api/v1/:path*" };
