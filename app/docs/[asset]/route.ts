// GET /docs/{asset} — the API reference's one script (vendor/scalar); any other name is a 404
import { SCALAR_BUNDLE, scalarBundle } from "@/lib/api/reference-page";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ asset: string }> }) {
  if ((await params).asset !== SCALAR_BUNDLE) return new Response("Not found", { status: 404 });
  return scalarBundle();
}
