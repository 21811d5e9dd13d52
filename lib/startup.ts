import { z } from "zod";
import { activityRetentionDays, startActivityPruning } from "@/lib/activity/retention";
import { serveAdminCommands } from "@/lib/admin/socket";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { hashKeySecret } from "@/lib/auth/api-keys/key-secrets";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import {
  dataDir,
  databaseUrl,
  publicUrl,
  setting,
  SettingsError,
  settingsProblems,
  settingsWarnings,
  type SettingsSource,
} from "@/lib/config";
import { closeDatabase, db, getDatabase, giveUpDatabase } from "@/lib/db";
import { issueDetails } from "@/lib/errors";
import { documentJobRunners } from "@/lib/documents/ingest-document";
import { pruneEvents } from "@/lib/events/prune-events";
import { startWebhookDelivery } from "@/lib/events/webhooks/deliver";
import { integrationJobRunners } from "@/lib/integrations/sync";
import { requeueAbandonedJobs, startJobWorker, type JobRunner } from "@/lib/jobs/queue";
import { closeEmbedder, embedder, warmUpEmbedder } from "@/lib/memory/embeddings";
import { entityJobRunners, requestEntityReextraction } from "@/lib/memory/entities/reextract-entities";
import { requestWordBreakReindex, wordBreakJobRunners } from "@/lib/memory/store/word-break-reindex";
import { extractionJobRunners } from "@/lib/memory/inference/run-extraction";
import { LocalEmbeddingProvider } from "@/lib/memory/embeddings/local";
import { sweepAbandonedParts } from "@/lib/documents/document-originals";
import { startExpirySweeps } from "@/lib/memory/forget/expiry";
import { rollBackAbandonedWrites, startWriteIntentSweeps } from "@/lib/memory/store/write-intents";
import { isTrustedProxy } from "@/lib/net/client-address";
import { directRoutes, type DirectRoutes } from "@/lib/api/direct-routes";
import { sweepExpiredOauthRecords } from "@/lib/oauth/adapter";
import { addMember } from "@/lib/orgs/members";
import { createOrganization, OrganizationName } from "@/lib/orgs/organizations";
import { createUser, Email, Password } from "@/lib/orgs/users";
import { signUpAllowed } from "@/lib/orgs/sign-up";
import { activityWritten } from "@/lib/activity/activity";

const InitEnv = z.object({
  MEMGW_INIT_ORG_NAME: OrganizationName,
  MEMGW_INIT_USER_EMAIL: Email,
  MEMGW_INIT_USER_PASSWORD: Password,
  MEMGW_INIT_API_KEY: z.string().regex(/^\S{24,}$/, "must be at least 24 characters without spaces"),
});

const INIT_SETTINGS = Object.keys(InitEnv.shape) as (keyof typeof InitEnv.shape)[];

/**
 * The MEMGW_INIT_* settings, checked as the accounts they make are: null when none is set. Wrong or
 * incomplete ones are `problem`, in a line that names all four.
 */
function headlessStartSettings(
  env?: SettingsSource,
): { init: z.infer<typeof InitEnv>; problem?: undefined } | { problem: string } | null {
  const values = Object.fromEntries(INIT_SETTINGS.map((name) => [name, setting(name, env)]));
  if (!INIT_SETTINGS.some((name) => values[name])) return null;
  const parsed = InitEnv.safeParse(values);
  if (parsed.success) return { init: parsed.data };
  const problems = issueDetails(parsed.error.issues)
    .map(({ field, message }) => `${field}: ${message}`)
    .join("; ");
  return { problem: `Headless start needs all of ${INIT_SETTINGS.join(", ")}. ${problems}` };
}

/**
 * Headless first start: with all four MEMGW_INIT_* variables set, creates that organization, its owner
 * and a full-permission key with that secret — once. Later starts find the key and change nothing.
 */
export async function bootstrapFromEnv(env?: SettingsSource): Promise<"created" | "exists" | "skipped"> {
  const headless = headlessStartSettings(env);
  if (!headless) return "skipped";
  if (headless.problem !== undefined) throw new SettingsError([headless.problem]);
  const { init } = headless;
  const prisma = await db();
  if (await prisma.apiKey.findUnique({ where: { secretHash: hashKeySecret(init.MEMGW_INIT_API_KEY) } }))
    return "exists";

  const user =
    (await prisma.user.findUnique({ where: { email: init.MEMGW_INIT_USER_EMAIL } })) ??
    (await createUser({ email: init.MEMGW_INIT_USER_EMAIL, password: init.MEMGW_INIT_USER_PASSWORD }));
  const owned = await prisma.organization.findFirst({
    where: { name: init.MEMGW_INIT_ORG_NAME, memberships: { some: { userId: user.id, role: "owner" } } },
  });
  const org = owned ?? (await createOrganization(init.MEMGW_INIT_ORG_NAME, SYSTEM_ACTOR));
  if (!owned) await addMember({ orgId: org.id, userId: user.id, role: "owner" }, SYSTEM_ACTOR);
  await createApiKey(
    {
      orgId: org.id,
      name: "Bootstrap key",
      permissions: [...PERMISSIONS],
      createdById: user.id,
      secret: init.MEMGW_INIT_API_KEY,
    },
    SYSTEM_ACTOR,
  );
  return "created";
}

function firstRunHelp(): string {
  const viaCli = [
    '  npx memgw org create --name "Acme"',
    "  npx memgw user create --email you@example.com --password 'choose-a-password'",
    "  npx memgw member add --org acme --user you@example.com --role owner",
    '  npx memgw key create --org acme --name "my app" ' +
      "--permissions NAMESPACE_READ,NAMESPACE_WRITE,NAMESPACE_MANAGE,INTEGRATION_MANAGE,WEBHOOK_MANAGE",
    "(or set MEMGW_INIT_ORG_NAME, MEMGW_INIT_USER_EMAIL, MEMGW_INIT_USER_PASSWORD and MEMGW_INIT_API_KEY " +
      "before starting)",
  ];
  if (!signUpAllowed()) {
    return ["", "The database is empty. Create the first organization, user and API key:", ...viaCli].join("\n");
  }
  return [
    "",
    `The database is empty. Open ${publicUrl()}/sign-up to create your account and its organization`,
    "(the very first account is ready at once), then make API keys in the console. Or, from the command line:",
    ...viaCli,
  ].join("\n");
}

function embedderDescription(): string {
  const provider = embedder();
  return provider instanceof LocalEmbeddingProvider
    ? `${provider.model}, matrix products on ${provider.kernels}`
    : provider.model;
}

/** The started gateway, as the HTTP server hosting it (scripts/start.mjs) uses it. */
export interface Gateway {
  /** Prints where the gateway is and starts loading the embedding model: once it accepts connections. */
  announce(): void;
  /** Closes the embedder and the database (PGlite writes everything out; the data directory is let go). */
  stop(): Promise<void>;
  /** Whether a connection's peer is one of TRUSTED_PROXIES, whose forwarded headers alone are read. */
  isTrustedProxy(address: string): boolean;
  /** The routes the host serves without Next's router (lib/api/direct-routes.ts); `next dev` has no host. */
  directRoutes: DirectRoutes;
}

/**
 * scripts/start.mjs is not bundled with the app, so it receives the gateway through a registered symbol:
 * it announces only once it listens. Under `next dev` there is no such host and the gateway announces itself.
 */
const HOST = Symbol.for("memgw.gateway-host");
type GatewayHost = { started(gateway: Gateway): void };

/**
 * Opens and migrates the database (taking the data directory) and runs the headless bootstrap. A
 * failure prints why and ends the process: it must never serve, not even its health check.
 */
export async function startGateway(): Promise<void> {
  let gateway: Gateway;
  try {
    // Every setting is checked before anything starts (a wrong one stops the start, not a request later),
    // and all the wrong ones are listed at once.
    const headlessProblem = headlessStartSettings()?.problem;
    const problems = [...settingsProblems(), ...(headlessProblem ? [headlessProblem] : [])];
    if (problems.length) throw new SettingsError(problems);
    const retentionDays = activityRetentionDays();
    const database = await getDatabase();
    // `npx memgw` reaches a running server through this socket (embedded database only).
    await serveAdminCommands(database);
    const bootstrap = await database.oneAtATime(() => bootstrapFromEnv());
    const thread = database.osThreadId ? ` (its own thread: ${database.osThreadId} in top -H)` : "";
    const where = databaseUrl() ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${dataDir()}${thread}`;
    const lines = [
      `Memory Gateway is ready at ${publicUrl()}`,
      signUpAllowed()
        ? `  Console: ${publicUrl()}/sign-up to create your account, ${publicUrl()}/sign-in to sign in`
        : `  Console: ${publicUrl()}/sign-in (sign-up is turned off: people join by invitation)`,
      `  API: ${publicUrl()}/api/v1 (OpenAPI: ${publicUrl()}/api/v1/openapi.json)`,
      `  Database: ${where}; migrations applied now: ${database.migrations.applied.length}`,
      ...settingsWarnings().map((warning) => `  Warning: ${warning}`),
    ];
    if (bootstrap === "created")
      lines.push("  Headless start: organization, owner and API key created from MEMGW_INIT_*.");
    lines.push(`  Embeddings: ${embedder().model} (${setting("EMBEDDING_PROVIDER")}), loading in the background`);
    if ((await database.prisma.organization.count()) === 0) lines.push(firstRunHelp());
    stopActivityPruning = startActivityPruning(retentionDays, [
      { name: "deleting expired OAuth codes, tokens and sessions", run: () => sweepExpiredOauthRecords() },
      { name: "deleting events past EVENT_RETENTION_DAYS", run: () => pruneEvents() },
      { name: "deleting the stored parts of uploads that never became documents", run: () => sweepAbandonedParts() },
    ]);
    // On the embedded database this process alone holds the data directory: a job left running was this
    // directory's previous process's (killed), so it is due again now. PostgreSQL waits for its lease to end.
    const resumed = databaseUrl() ? 0 : await requeueAbandonedJobs();
    if (resumed > 0) lines.push(`  Background jobs: ${resumed} interrupted by the last stop, resumed now.`);
    // Writes a killed process left unfinished (its own, on the embedded database; on PostgreSQL those whose
    // instance's lease ended) are rolled back before anything is served; later ones by the sweep.
    const rolledBack = await rollBackAbandonedWrites().catch((error) => {
      console.error("[memgw] rolling back unfinished writes failed (the sweep tries again):", error);
      return 0;
    });
    if (rolledBack > 0) lines.push(`  Unfinished writes: ${rolledBack} left by the last stop, rolled back now.`);
    stopWriteIntentSweeps = startWriteIntentSweeps();
    // Memories whose entities no extractor or an older one found are extracted again, on the job worker.
    if (await requestEntityReextraction())
      lines.push("  Entities: memories from before this extractor are being extracted again in the background.");
    // Chunks indexed before unspaced scripts were cut into words are indexed again, on the same worker.
    if (await requestWordBreakReindex())
      lines.push("  Search: memories in Chinese, Japanese, Thai and like scripts are being indexed again.");
    stopJobWorker = startJobWorkers();
    // Expired memories are deleted for real within a minute, on a worker of their own.
    stopExpirySweeps = startExpirySweeps();
    // Webhook deliveries have workers of their own: a slow receiver never holds up syncs or documents.
    stopWebhookDelivery = startWebhookDelivery();
    gateway = { announce: () => announce(lines), stop: stopGateway, isTrustedProxy, directRoutes: directRoutes() };
  } catch (error) {
    giveUpDatabase(error as Error);
    console.error(`[memgw] cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  const host = (globalThis as { [HOST]?: GatewayHost })[HOST];
  if (host) host.started(gateway);
  else gateway.announce();
}

/** A pool of job workers: `size` workers claiming the jobs of `runners`' kinds, `perOrg` as claimJob takes it. */
export interface JobPool {
  name: string;
  size: number;
  runners: Record<string, JobRunner>;
  perOrg?: number;
}

/**
 * The job workers' pools, one per kind of work, so that none waits behind another's (a 15-minute OCR never
 * delays a sync), each shared fairly between organizations (claimJob). A kind has a pool of its own because a
 * cap is per kind: in a pool of two kinds, one organization's sync and the entity re-extraction (one job for
 * every organization) held both workers, and another organization's sync waited for either to end.
 */
export function jobPools(): JobPool[] {
  return [
    {
      name: "documents",
      size: setting("DOCUMENT_WORKERS"),
      runners: documentJobRunners,
      perOrg: setting("DOCUMENT_WORKERS_PER_ORG"),
    },
    // A chat model's extraction of facts (`infer`): most of its time is the model's, so one organization's
    // writes hold at most INFER_WORKERS_PER_ORG of them.
    {
      name: "fact extraction",
      size: setting("INFER_WORKERS"),
      runners: extractionJobRunners,
      perOrg: setting("INFER_WORKERS_PER_ORG"),
    },
    // One organization's sync holds at most one of them: the other is always another's.
    { name: "integration syncs", size: 2, runners: integrationJobRunners, perOrg: 1 },
    // Jobs of no organization, one at a time: one worker.
    {
      name: "entity re-extraction and re-indexing",
      size: 1,
      runners: { ...entityJobRunners, ...wordBreakJobRunners },
    },
  ];
}

/** Starts the job workers of these pools (the server's unless given); returns what stops them all. */
export function startJobWorkers(pools: JobPool[] = jobPools()): () => Promise<void> {
  const stops = pools.map(({ size, runners, perOrg }) => startJobWorker(runners, { workers: size, perOrg }));
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

function announce(lines: string[]): void {
  console.log(lines.join("\n"));
  void warmUpEmbedder().then(
    () => console.log(`  Embeddings ready (${embedderDescription()}).`),
    (error) => console.error(`[memgw] the embedding model failed to load: ${(error as Error).message}`),
  );
}

/** Set once the gateway started: end the activity log's background pruning and the job worker. */
let stopActivityPruning: (() => Promise<void>) | undefined;
let stopJobWorker: (() => Promise<void>) | undefined;
let stopExpirySweeps: (() => Promise<void>) | undefined;
let stopWriteIntentSweeps: (() => Promise<void>) | undefined;
let stopWebhookDelivery: (() => Promise<void>) | undefined;

async function stopGateway(): Promise<void> {
  await stopActivityPruning?.();
  await stopJobWorker?.();
  await stopExpirySweeps?.();
  await stopWriteIntentSweeps?.();
  await stopWebhookDelivery?.();
  await closeEmbedder();
  // The activity rows of the requests drained, queued behind a write in flight (lib/activity/activity.ts).
  await activityWritten();
  await closeDatabase();
}
