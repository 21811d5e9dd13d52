import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { GITHUB_SETTINGS } from "./e2e/github-provider";
import { SMTP_PORT } from "./e2e/mail-catcher";

const port = Number(process.env.E2E_PORT || 3217);
export const E2E_API_KEY = "mgw_e2eBootstrapKey0123456789abcdefghij";

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  outputDir: process.env.E2E_OUTPUT_DIR || "test-results/e2e",
  timeout: 60_000,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download cannot reach its host here.
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "node scripts/start.mjs",
    url: `http://127.0.0.1:${port}/api/v1/health`,
    // The build runs first when the sources changed, queued behind any other build of this tree (a lock).
    timeout: 900_000,
    reuseExistingServer: false,
    env: {
      // The tests' own build (the server tests in tests/ make the same one, so `npm test` builds once), never
      // a developer's .next.
      MEMGW_DIST_DIR: ".next-test-server",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: path.join(os.tmpdir(), `memgw-e2e-${process.pid}`),
      KEY_PEPPER: "e2e-pepper",
      MEMGW_INIT_ORG_NAME: "E2E Org",
      MEMGW_INIT_USER_EMAIL: "e2e@example.com",
      MEMGW_INIT_USER_PASSWORD: "an e2e password",
      MEMGW_INIT_API_KEY: E2E_API_KEY,
      // e2e/mail-catcher.ts listens here and saves each message for the tests.
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}?ignoreTLS=true`,
      // The test identity provider (e2e/identity-provider.ts) is plain http on loopback: allowed only by this setting.
      ALLOW_PRIVATE_OUTBOUND: "true",
      // Every test signs up from this one address: the suite makes more sign-ups an hour than one person would.
      SIGN_UP_RATE_LIMIT_PER_HOUR: "200",
      // A failed webhook delivery is retried twice at once, then the endpoint is disabled (e2e/webhooks.spec.ts).
      WEBHOOK_RETRY_SCHEDULE: "0,0",
      // GitHub is e2e/github-provider.ts on loopback (started by the global setup).
      ...GITHUB_SETTINGS,
    },
  },
});
