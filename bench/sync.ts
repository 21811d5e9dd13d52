// Recall while an integration syncs, over HTTP against the production build (`npm start`): one namespace
// holds 2,000 SciFact abstracts that a client recalls from, one query after another; a GitHub connection
// (the loopback fake of the tests, seeded with 500 more abstracts as Markdown files) syncs into another
// namespace of the same organization. Recall latency is measured idle, then while the first sync embeds.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startGithubFake } from "../tests/helpers/providers/github";
import { freePort, startServer } from "../tests/helpers/server";
import { loadDataset } from "./lib/beir";
import { apiCaller, describeFigures, embeddingsReady, figuresRow, type RecallFigures } from "./lib/api-client";
import { RECALLED_MEMORIES, recallingClient } from "./lib/recalling-client";

export interface SyncResult {
  /** Memories of the namespace recalled from. */
  memories: number;
  /** Markdown files seeded into the fake GitHub repository (the sync also stores its few issues and files). */
  seededFiles: number;
  /** Documents the connection holds after its first sync. */
  documentsSynced: number;
  /** From the request that completes the connection (and queues the sync) to the sync's own end time. */
  syncSeconds: number;
  documentsPerSecond: number;
  idle: RecallFigures;
  duringSync: RecallFigures;
}

const SEEDED_FILES = 500;

export async function measureSync(options: { datasetsDir: string; log: (line: string) => void }): Promise<SyncResult> {
  const scifact = loadDataset(options.datasetsDir, "scifact");
  // Distinct abstracts for the repository, so that the sync embeds prose the recalled namespace does not hold.
  const extraMarkdownFiles = Object.fromEntries(
    scifact.docs
      .slice(RECALLED_MEMORIES, RECALLED_MEMORIES + SEEDED_FILES)
      .map((d) => [`papers/${d.id}.md`, `# ${d.title || d.id}\n\n${d.text}\n`]),
  );

  const github = await startGithubFake({ extraMarkdownFiles });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-sync-"));
  const apiKey = "mgw_benchmarkSyncKey00000000000000000000000";
  const server = await startServer({
    DATA_DIR: dataDir,
    PORT: process.env.BENCH_PORT || String(await freePort()),
    MEMGW_INIT_ORG_NAME: "Research lab",
    MEMGW_INIT_USER_EMAIL: "bench@example.com",
    MEMGW_INIT_USER_PASSWORD: "benchmark password",
    MEMGW_INIT_API_KEY: apiKey,
    GITHUB_CLIENT_ID: github.clientId,
    GITHUB_CLIENT_SECRET: github.clientSecret,
    GITHUB_AUTH_URL: github.endpoints.authUrl,
    GITHUB_TOKEN_URL: github.endpoints.tokenUrl,
    GITHUB_API_URL: github.endpoints.apiUrl,
  });
  try {
    const call = apiCaller(server.base, apiKey);
    await embeddingsReady(server.base);

    const client = await recallingClient(call, scifact, options.log);
    const synced = await call("POST", "/namespaces", { name: "github" });

    const started = await call("POST", "/integrations/connections", {
      provider: "github",
      namespace_id: synced.id,
      options: github.content.connectOptions,
    });
    const { redirect } = await github.approve(started.authorization_url);
    const completeSent = Date.now();
    const connection = await call("POST", `/integrations/connections/${started.connection.id}/complete`, {
      code: redirect.searchParams.get("code"),
      state: redirect.searchParams.get("state"),
    });
    // The same client, still one request at a time: recalls, and between them the sync's status now and then,
    // until the sync has run (syncing, then active with its time) — the recalls are those made meanwhile.
    const { done, recall: duringSync } = await client.whileWorking(async () => {
      const status: { status: string; last_error: string; last_sync_at: string; documents_synced: number } = await call(
        "GET",
        `/integrations/connections/${connection.id}`,
      );
      if (status.status === "error" || status.status === "revoked")
        throw new Error(`sync failed: ${status.last_error}`);
      return status.status === "active" && status.last_sync_at ? status : undefined;
    });
    const syncSeconds = (Date.parse(done.last_sync_at) - completeSent) / 1000;
    const result: SyncResult = {
      memories: client.memories,
      seededFiles: SEEDED_FILES,
      documentsSynced: done.documents_synced,
      syncSeconds,
      documentsPerSecond: done.documents_synced / syncSeconds,
      idle: client.idle,
      duringSync,
    };
    options.log(
      `  sync of ${result.documentsSynced} documents: ${syncSeconds.toFixed(1)} s ` +
        `(${result.documentsPerSecond.toFixed(1)} documents/s)\n` +
        `  recall during the sync: ${describeFigures(duringSync)}\n\n` +
        "  | recall, 1 client, sequential | requests | p50 ms | p95 ms | p99 ms |\n" +
        "  |---|---|---|---|---|\n" +
        `  | idle | ${figuresRow(client.idle)} |\n` +
        `  | during the sync | ${figuresRow(duringSync)} |`,
    );
    return result;
  } finally {
    await server.stop();
    await github.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
