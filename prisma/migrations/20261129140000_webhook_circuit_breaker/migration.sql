-- A circuit breaker per webhook endpoint: after WEBHOOK_CIRCUIT_FAILURES attempts in a row without an answer
-- (timeouts, refused or reset connections), its deliveries wait without a request, and without holding a
-- delivery worker, until circuit_open_until; then one trial request closes it or opens it again for twice as long.
ALTER TABLE "webhook_endpoints" ADD COLUMN "consecutive_failures" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "webhook_endpoints" ADD COLUMN "circuit_open_until" TIMESTAMPTZ(3);
ALTER TABLE "webhook_endpoints" ADD COLUMN "circuit_openings" INTEGER NOT NULL DEFAULT 0;
