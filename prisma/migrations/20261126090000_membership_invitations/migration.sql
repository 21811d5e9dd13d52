-- An invited member is "Invited" until they open the organization (joined_at), and the invitation has one
-- live link at a time (its verification token's hash), which an owner or admin may copy.
ALTER TABLE "memberships" ADD COLUMN "joined_at" TIMESTAMPTZ(3) DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "invitation_token_hash" TEXT,
ADD COLUMN "invitation_link_copied" BOOLEAN NOT NULL DEFAULT false;

CREATE UNIQUE INDEX "memberships_invitation_token_hash_key" ON "memberships"("invitation_token_hash");

-- Existing members joined when they became members, unless they have never signed in at all.
UPDATE "memberships" SET "joined_at" = "created_at";
UPDATE "memberships" AS m SET "joined_at" = NULL FROM "users" AS u WHERE u."id" = m."user_id" AND u."last_sign_in_at" IS NULL;
