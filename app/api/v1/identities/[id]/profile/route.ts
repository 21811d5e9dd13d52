// GET /api/v1/identities/{id}/profile — what holds of an identity: its facts, recent memories, entities, changes
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: withApiKey(operations.identityProfile) });
