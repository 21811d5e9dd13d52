// GET /docs — the API reference, rendered in the browser from /api/v1/openapi.json (lib/api/reference-page.ts)
import { apiReferencePage } from "@/lib/api/reference-page";

export const dynamic = "force-dynamic";

export function GET() {
  return apiReferencePage();
}
