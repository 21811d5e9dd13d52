// POST /api/v1/forget — delete memories by ids, identity, scopes, metadata or all
// Served without Next's router by the production server (lib/api/direct-routes.ts); through it under `next dev`.
import { DIRECT_ROUTES } from "@/lib/api/direct-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = DIRECT_ROUTES["/api/v1/forget"];
