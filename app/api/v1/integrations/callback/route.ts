// GET /api/v1/integrations/callback?code=&state= — where providers send the browser back after consent
import { integrationCallback } from "@/lib/console/integration-callback";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: integrationCallback });
