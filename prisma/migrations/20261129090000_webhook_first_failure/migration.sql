-- When a delivery's current run of failures began: a disabled endpoint's reason says how long its failures
-- actually spanned (a down server or a backlog stretches the retry schedule). Cleared when it is sent again.
ALTER TABLE "webhook_deliveries" ADD COLUMN "first_failed_at" TIMESTAMPTZ(3);
