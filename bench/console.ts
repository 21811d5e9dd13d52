// The console's server render time against the production build (`npm start`): one organization with
// 100,000 memories and 1,000,000 activity rows; the owner signed in; each page fetched in turn and timed
// from request to the last byte of its HTML (what the server spends rendering it, on loopback).
//
// The data is written with SQL, not through POST /remember: embedding 100,000 memories takes hours here,
// and the pages measured read memories, activity and grants, never vectors. Memories therefore have no
// chunks; everything the console reads of them (rows, counts, identities, scopes, metadata) is real.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatabase, getDatabase } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { bootstrapFromEnv } from "@/lib/startup";
import { freePort, startServer, type RunningServer } from "../tests/helpers/server";
import { loadDataset } from "./lib/beir";
import { percentile } from "./lib/percentile";

export interface ConsolePageLatency {
  page: string;
  path: string;
  requests: number;
  p50: number;
  p95: number;
  max: number;
}

export interface ConsoleResult {
  memories: number;
  activityRows: number;
  namespaces: number;
  identities: number;
  /** When the data was kept from an earlier run (BENCH_CONSOLE_DATA_DIR). */
  reusedLoadFrom?: string;
  loadSeconds?: number;
  pages: ConsolePageLatency[];
}

const MEMORIES = 100_000;
const ACTIVITY_ROWS = 1_000_000;
const NAMESPACES = 20;
/** Most memories are in one namespace: the explorer's first page is measured there. */
const MAIN_NAMESPACE_SHARE = 0.8;
const IDENTITIES = 2_000;
const ACTIVITY_DAYS = 90;
const REQUESTS_PER_PAGE = 40;
const WARM_UP_REQUESTS = 5;

/** What the load wrote, kept beside the data: when, and what the pages measured address. */
interface LoadedData {
  loadedAt: string;
  loadSeconds: number;
  slug: string;
  namespaceId: string;
  identityId: string;
}

const OWNER = { email: "console-bench@example.com", password: "console benchmark password" };
const KEY = "mgw_consoleBenchKey000000000000000000000000";

export async function measureConsole(options: {
  datasetsDir: string;
  log: (line: string) => void;
}): Promise<ConsoleResult> {
  const keptDir = process.env.BENCH_CONSOLE_DATA_DIR;
  const dataDir = keptDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-console-"));
  const loadedFile = path.join(dataDir, "bench-console-loaded.json");
  const env = {
    DATA_DIR: dataDir,
    MEMGW_INIT_ORG_NAME: "Console bench",
    MEMGW_INIT_USER_EMAIL: OWNER.email,
    MEMGW_INIT_USER_PASSWORD: OWNER.password,
    MEMGW_INIT_API_KEY: KEY,
    // The sign-in and API limits stay on; the benchmark signs in once.
  };
  let loaded: LoadedData | undefined;
  let reusedLoadFrom: string | undefined;
  if (fs.existsSync(loadedFile)) {
    loaded = JSON.parse(fs.readFileSync(loadedFile, "utf8"));
    reusedLoadFrom = loaded!.loadedAt;
    options.log(`  reusing the console data loaded in ${dataDir}`);
  } else {
    const started = performance.now();
    const targets = await loadData(env, options);
    const loadSeconds = (performance.now() - started) / 1000;
    loaded = { loadedAt: new Date().toISOString(), loadSeconds, ...targets };
    fs.writeFileSync(loadedFile, JSON.stringify(loaded));
    options.log(`  loaded in ${loadSeconds.toFixed(0)} s`);
  }

  const server = await startServer({ ...env, PORT: String(await freePort()) });
  try {
    const cookie = await signIn(server);
    const target = loaded!;
    const pages: [string, string][] = [
      ["Overview", `/${target.slug}`],
      ["Namespaces", `/${target.slug}/namespaces`],
      ["Namespace overview", `/${target.slug}/namespaces/${target.namespaceId}`],
      ["Memory explorer, first page", `/${target.slug}/namespaces/${target.namespaceId}/memories`],
      ["Identities", `/${target.slug}/identities`],
      ["Identity page (the busiest identity)", `/${target.slug}/identities/${encodeURIComponent(target.identityId)}`],
      ["Scopes", `/${target.slug}/scopes`],
      ["Audit log", `/${target.slug}/audit`],
    ];
    const results: ConsolePageLatency[] = [];
    for (const [page, pagePath] of pages) {
      for (let i = 0; i < WARM_UP_REQUESTS; i++) await render(server, pagePath, cookie);
      const times: number[] = [];
      for (let i = 0; i < REQUESTS_PER_PAGE; i++) times.push(await render(server, pagePath, cookie));
      times.sort((a, b) => a - b);
      const row = {
        page,
        path: pagePath,
        requests: times.length,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        max: times[times.length - 1],
      };
      results.push(row);
      const figures = `p50 ${row.p50.toFixed(1)} ms · p95 ${row.p95.toFixed(1)} ms · max ${row.max.toFixed(1)} ms`;
      options.log(`  ${page}: ${figures}`);
    }
    return {
      memories: MEMORIES,
      activityRows: ACTIVITY_ROWS,
      namespaces: NAMESPACES,
      identities: IDENTITIES,
      reusedLoadFrom,
      loadSeconds: loaded?.loadSeconds,
      pages: results,
    };
  } finally {
    await server.stop();
    if (!keptDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One page's HTML, timed to its last byte; anything but a 200 stops the benchmark. */
async function render(server: RunningServer, pagePath: string, cookie: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.base}${pagePath}`, { headers: { cookie }, redirect: "manual" });
  const html = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${pagePath}: ${response.status}\n${html.slice(0, 500)}`);
  return elapsed;
}

/** Signs the owner in with their password, as the sign-in form does; returns the session cookie. */
async function signIn(server: RunningServer): Promise<string> {
  const csrf = await fetch(`${server.base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = cookiesOf(csrf);
  const response = await fetch(`${server.base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: csrfCookie,
      origin: server.base,
    },
    body: new URLSearchParams({ csrfToken, email: OWNER.email, password: OWNER.password, json: "true" }),
  });
  const session = cookiesOf(response)
    .split("; ")
    .filter((c) => c.startsWith("next-auth.session-token="));
  if (session.length === 0) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return session.join("; ");
}

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * Writes the organization's namespaces, memories and activity with SQL, in statements of bounded size
 * (PGlite runs on one thread).
 */
async function loadData(
  env: Record<string, string>,
  options: { datasetsDir: string; log: (line: string) => void },
): Promise<Omit<LoadedData, "loadedAt" | "loadSeconds">> {
  const previousDataDir = process.env.DATA_DIR;
  process.env.DATA_DIR = env.DATA_DIR;
  process.env.MEMGW_PROCESS_ROLE = "benchmark";
  const { prisma } = await getDatabase();
  try {
    // The organization, its owner and a key, as a headless first start creates them (MEMGW_INIT_*).
    await bootstrapFromEnv({ ...process.env, ...env });
    const org = await prisma.organization.findFirstOrThrow({ where: { name: "Console bench" } });
    const key = await prisma.apiKey.findFirstOrThrow({ where: { orgId: org.id } });
    const scifact = loadDataset(options.datasetsDir, "scifact");
    const corpus = scifact.docs.map((d) => (d.title ? `${d.title}\n${d.text}` : d.text));

    const namespaceIds = Array.from({ length: NAMESPACES }, (_, i) => `ns_consolebench${String(i).padStart(3, "0")}`);
    for (const [i, id] of namespaceIds.entries()) {
      await prisma.namespace.create({
        data: {
          id,
          orgId: org.id,
          name: i === 0 ? "support-main" : `team-${i}`,
          description: i === 0 ? "Most of the memories" : null,
          grants: { create: { id: `grt_consolebench${i}`, orgId: org.id, apiKeyId: key.id } },
        },
      });
    }

    options.log(`  writing ${MEMORIES} memories…`);
    const batch = 2_000;
    const now = Date.now();
    for (let start = 0; start < MEMORIES; start += batch) {
      const rows = Array.from({ length: Math.min(batch, MEMORIES - start) }, (_, j) => start + j);
      const namespaceOf = (i: number) =>
        i % 1000 < MAIN_NAMESPACE_SHARE * 1000 ? namespaceIds[0] : namespaceIds[1 + (i % (NAMESPACES - 1))];
      const ids = rows.map((i) => `mem_consolebench${String(i).padStart(7, "0")}`);
      const contents = rows.map((i) => corpus[i % corpus.length]);
      const metadata = rows.map((i) =>
        JSON.stringify({ source: ["chat", "email", "ticket"][i % 3], priority: String(i % 5) }),
      );
      const scopes = rows.map((i) => JSON.stringify({ team: ["alpha", "beta", "gamma", "delta"][i % 4] }));
      const identities = rows.map((i) => `user-${String(identityOf(i)).padStart(4, "0")}`);
      const created = rows.map((i) => new Date(now - (MEMORIES - i) * 60_000).toISOString());
      await prisma.$executeRaw(
        Prisma.sql`INSERT INTO memories (id, org_id, namespace_id, content, metadata, scopes, identity_id, api_key_id,
                               chunk_count, created_at, updated_at)
         SELECT id, ${org.id}, ns, content, metadata::jsonb, scopes::jsonb, identity, ${key.id}, 1, created, created
         FROM unnest(${ids}::text[], ${rows.map(namespaceOf)}::text[], ${contents}::text[], ${metadata}::text[],
                     ${scopes}::text[], ${identities}::text[], ${created}::timestamptz[])
           AS t(id, ns, content, metadata, scopes, identity, created)`,
      );
    }

    options.log(`  writing ${ACTIVITY_ROWS} activity rows…`);
    const activityBatch = 100_000;
    for (let start = 0; start < ACTIVITY_ROWS; start += activityBatch) {
      // Deterministic spread: operations, statuses, namespaces, identities and times from the row number.
      await prisma.$executeRaw(
        Prisma.sql`INSERT INTO activity_logs (id, org_id, namespace_id, api_key_id, identity_id, operation, status,
                                    latency_ms, details, created_at)
         SELECT 'act_consolebench' || lpad(g::text, 8, '0'), ${org.id},
                (${namespaceIds}::text[])[1 + CASE WHEN g % 10 < 8 THEN 0 ELSE 1 + (g % (${NAMESPACES} - 1)) END],
                ${key.id},
                'user-' || lpad(((g::bigint * 7919) % ${IDENTITIES})::text, 4, '0'),
                (ARRAY['recall','recall','recall','remember','remember','ask','get_memory','forget'])[1 + g % 8],
                CASE WHEN g % 37 = 0 THEN 404 WHEN g % 101 = 0 THEN 500 ELSE 200 END,
                5 + (g::bigint * 31) % 120,
                '{}'::jsonb,
                now() - make_interval(secs => (g::float8 / ${ACTIVITY_ROWS}) * ${ACTIVITY_DAYS} * 86400)
         FROM generate_series(${start + 1}::int, ${Math.min(start + activityBatch, ACTIVITY_ROWS)}::int) g`,
      );
    }
    await prisma.$executeRaw(Prisma.sql`ANALYZE`);
    // identityOf(i) is 0 for the most memories; every identity has about as much activity.
    return { slug: org.slug, namespaceId: namespaceIds[0], identityId: "user-0000" };
  } finally {
    await closeDatabase();
    if (previousDataDir === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = previousDataDir;
  }
}

/** Identities follow a skewed spread: a few are busy, most are seen a few times. */
function identityOf(i: number): number {
  return Math.floor(IDENTITIES * Math.pow(((i * 2654435761) % 1_000_003) / 1_000_003, 2));
}
