// GET /api/v1/health — readiness: 200 once the database is open and migrated; says whether embeddings are loaded
import { checkDatabase } from "@/lib/db";
import { successResponse, toErrorResponse } from "@/lib/http/envelope";
import { apiRoute } from "@/lib/http/methods";
import { embedderReady } from "@/lib/memory/embeddings";

export const dynamic = "force-dynamic";

async function healthRoute() {
  try {
    const database = await checkDatabase();
    return successResponse({ status: "ok", database, embeddings: embedderReady() ? "ready" : "loading" });
  } catch (error) {
    return toErrorResponse(error);
  }
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: healthRoute });
