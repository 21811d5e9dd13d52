// GET /api/v1/health — readiness: 200 once the database is open and migrated; says whether embeddings are loaded
// Served without Next's router by the production server (lib/api/direct-routes.ts); through it under `next dev`.
import { DIRECT_ROUTES } from "@/lib/api/direct-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = DIRECT_ROUTES["/api/v1/health"];
