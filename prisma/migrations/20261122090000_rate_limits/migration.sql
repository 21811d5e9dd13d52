-- Rate-limit counters shared by every server instance: one fixed window per (rule, hashed key).
CREATE TABLE "rate_limit_counters" (
    "rule" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,
    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("rule", "key_hash")
);
CREATE INDEX "rate_limit_counters_window_start_idx" ON "rate_limit_counters"("window_start");
