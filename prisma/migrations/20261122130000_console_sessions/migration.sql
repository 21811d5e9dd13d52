-- Console sessions that the server can end (sign-out, "sign out everywhere", password change), and
-- sign-ups whose address has not been confirmed yet.
ALTER TABLE "users" ADD COLUMN "sign_up_pending" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "console_sessions" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "user_agent" TEXT,
    "client_address" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "console_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "console_sessions_user_id_idx" ON "console_sessions"("user_id");
