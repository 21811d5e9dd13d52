-- The first account of an empty server is ready without confirming its address (lib/orgs/sign-up.ts): the
-- database lets exactly one account hold that place, so of sign-ups that all found the server empty at once
-- only one skips the mailed link; the others fall back to it (before, each that counted no users skipped it).
ALTER TABLE "users" ADD COLUMN "first_account" BOOLEAN NOT NULL DEFAULT false;

CREATE UNIQUE INDEX "users_first_account_key" ON "users" ("first_account") WHERE "first_account";
