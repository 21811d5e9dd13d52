-- Console sign-in: each organization's sign-in policy and OIDC connection, next-auth's linked accounts
-- and magic-link tokens, and password lock-out.
ALTER TABLE "organizations"
    ADD COLUMN "allow_password" BOOLEAN NOT NULL DEFAULT true,
    ADD COLUMN "allow_magic_link" BOOLEAN NOT NULL DEFAULT true,
    ADD COLUMN "allow_sso" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "users" ADD COLUMN "last_sign_in_at" TIMESTAMPTZ(3);

CREATE TABLE "oidc_connections" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_encrypted" TEXT NOT NULL,
    "allowed_domains" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "oidc_connections_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "oidc_connections_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "oidc_connections_org_id_key" ON "oidc_connections"("org_id");

CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "accounts_provider_provider_account_id_key" ON "accounts"("provider", "provider_account_id");
CREATE INDEX "accounts_user_id_idx" ON "accounts"("user_id");

CREATE TABLE "verification_tokens" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL
);
CREATE UNIQUE INDEX "verification_tokens_token_key" ON "verification_tokens"("token");
CREATE UNIQUE INDEX "verification_tokens_identifier_token_key" ON "verification_tokens"("identifier", "token");

CREATE TABLE "sign_in_lockouts" (
    "email" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "last_failure_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sign_in_lockouts_pkey" PRIMARY KEY ("email")
);
