// GET /api/v1/openapi.json — the OpenAPI 3.1 document, generated from the handlers' zod schemas
import { apiRoute } from "@/lib/http/methods";
import { openApiDocument } from "@/lib/api/openapi";

export const dynamic = "force-dynamic";

function openApiDocumentRoute() {
  return Response.json(openApiDocument());
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: openApiDocumentRoute });
