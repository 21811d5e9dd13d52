// GET /api/v1/openapi.json — the OpenAPI 3.1 document, generated from the handlers' zod schemas
import { openApiDocument } from "@/lib/api/openapi";

export const dynamic = "force-dynamic";

export function GET() {
  return Response.json(openApiDocument());
}
