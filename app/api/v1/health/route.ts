// GET /api/v1/health — readiness: 200 once the database is open and migrated; says whether embeddings are loaded
import { successResponse, toErrorResponse } from "@/lib/api/envelope";
import { apiRoute } from "@/lib/api/methods";
import { getDatabase } from "@/lib/db";
import { embedderReady } from "@/lib/memory/embeddings";

export const dynamic = "force-dynamic";

async function healthRoute() {
  try {
    const database = await getDatabase();
    await database.prisma.$queryRaw`SELECT 1`;
    return successResponse({ status: "ok", database: database.kind, embeddings: embedderReady() ? "ready" : "loading" });
  } catch (error) {
    return toErrorResponse(error);
  }
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: healthRoute });
