-- OAuth 2.1 for MCP clients (lib/oauth). The authorization server's state (oidc-provider's models: clients
-- registered dynamically, interactions, sessions, grants, codes, access and refresh tokens), one row per
-- model and id. Ids that are bearer values (tokens, codes, session cookies) are stored as an HMAC under
-- KEY_PEPPER, never in clear; payloads keep no copy of them, but for a session's (found again by its uid; it
-- lives ten minutes and grants nothing alone). Clients register before any organization is
-- known, so these rows carry none: the organization lives on the connection's API key below.
CREATE TABLE "oauth_records" (
    "model" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "uid" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    CONSTRAINT "oauth_records_pkey" PRIMARY KEY ("model", "id")
);
CREATE INDEX "oauth_records_grant_id_idx" ON "oauth_records"("grant_id");
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records"("uid");
CREATE INDEX "oauth_records_expires_at_idx" ON "oauth_records"("expires_at");

-- A connected MCP client acts through an API key of its own: the permissions and the one namespace the person
-- approved, created by that person (so their role and grants bound it, and it dies when they leave). These
-- columns say which client and which OAuth grant it stands for; such keys are listed as connected clients,
-- not on the API keys page.
ALTER TABLE "api_keys" ADD COLUMN "oauth_client_id" TEXT;
ALTER TABLE "api_keys" ADD COLUMN "oauth_grant_id" TEXT;
CREATE UNIQUE INDEX "api_keys_oauth_grant_id_key" ON "api_keys"("oauth_grant_id");
