import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  checkSettings,
  defaultSetting,
  INTEGRATION_SETTINGS_PREFIXES,
  publicUrl,
  setting,
  SETTING_DEFINITIONS,
  SettingsError,
  settingsProblems,
  settingsWarnings,
} from "@/lib/config";
import { PROVIDER_LIST, providerEndpoints, PROVIDERS } from "@/lib/integrations/providers";
import { KERNEL_SETTINGS } from "@/lib/memory/embeddings/native-kernels.mjs";
import { settingsDocument, SETTINGS_DOCUMENT } from "../../scripts/settings-doc";

afterEach(() => vi.unstubAllEnvs());

describe("reading a setting", () => {
  test("an unset or blank setting is its default", () => {
    for (const env of [{}, { PORT: "", API_RATE_LIMIT_PER_MINUTE: "  ", ALLOW_SIGNUP: "" }]) {
      expect(setting("PORT", env)).toBe(3000);
      expect(setting("API_RATE_LIMIT_PER_MINUTE", env)).toBe(3000);
      expect(setting("ALLOW_SIGNUP", env)).toBe(true);
      expect(setting("ALLOW_PRIVATE_OUTBOUND", env)).toBe(false);
      expect(setting("DATABASE_POOLER", env)).toBe("none");
      expect(setting("TRUSTED_PROXIES", env)).toEqual([]);
      expect(setting("SMTP_URL", env)).toBeUndefined();
      expect(setting("GITHUB_AUTH_URL", env)).toBe("https://github.com/login/oauth/authorize");
    }
  });

  test("a process's default (the CLI's page cache) fills an unset or blank setting, never one the operator set", () => {
    vi.stubEnv("PGLITE_CACHE_MB", undefined);
    defaultSetting("PGLITE_CACHE_MB", "64");
    expect(setting("PGLITE_CACHE_MB")).toBe(64);
    vi.stubEnv("PGLITE_CACHE_MB", " ");
    defaultSetting("PGLITE_CACHE_MB", "64");
    expect(setting("PGLITE_CACHE_MB")).toBe(64);
    vi.stubEnv("PGLITE_CACHE_MB", "1024");
    defaultSetting("PGLITE_CACHE_MB", "64");
    expect(setting("PGLITE_CACHE_MB")).toBe(1024);
  });

  test("a value is parsed to its type", () => {
    const env = {
      PORT: " 8080 ",
      ALLOW_SIGNUP: "false",
      MEMGW_SERVER_TIMING: "1",
      ENCRYPTION_KEYS_RETIRED: "old one, older ,",
      TRUSTED_PROXIES: "10.0.0.0/8, [::1], ::ffff:192.0.2.1",
      SLACK_API_URL: " http://127.0.0.1:9/api/ ",
    };
    expect(setting("PORT", env)).toBe(8080);
    expect(setting("ALLOW_SIGNUP", env)).toBe(false);
    expect(setting("MEMGW_SERVER_TIMING", env)).toBe(true);
    expect(setting("ENCRYPTION_KEYS_RETIRED", env)).toEqual(["old one", "older"]);
    expect(setting("TRUSTED_PROXIES", env)).toEqual([
      { address: "10.0.0.0", bits: 8, family: 4 },
      { address: "::1", family: 6 },
      { address: "192.0.2.1", family: 4 },
    ]);
    expect(setting("SLACK_API_URL", env)).toBe("http://127.0.0.1:9/api/");
  });

  test("a wrong value is refused with the setting's name, what it takes and what it got", () => {
    const refusal = (env: Record<string, string>, name: keyof typeof SETTING_DEFINITIONS) => {
      try {
        setting(name, env);
      } catch (error) {
        expect(error).toBeInstanceOf(SettingsError);
        return (error as Error).message;
      }
      throw new Error(`${name} was not refused`);
    };
    expect(refusal({ PGLITE_CACHE_MB: "abc" }, "PGLITE_CACHE_MB")).toBe(
      'PGLITE_CACHE_MB must be a whole number of megabytes from 16 to 1536, not "abc".',
    );
    expect(refusal({ PORT: "70000" }, "PORT")).toBe('PORT must be a port number from 1 to 65535, not "70000".');
    expect(refusal({ ALLOW_SIGNUP: "no" }, "ALLOW_SIGNUP")).toBe('ALLOW_SIGNUP must be "true" or "false", not "no".');
    expect(refusal({ LOCAL_EMBEDDING_KERNELS: "avx-512" }, "LOCAL_EMBEDDING_KERNELS")).toBe(
      'LOCAL_EMBEDDING_KERNELS must be one of native, avx512, avx2, portable, wasm, not "avx-512".',
    );
    expect(refusal({ PUBLIC_URL: "gateway.example.com" }, "PUBLIC_URL")).toBe(
      'PUBLIC_URL must be an http(s) URL, not "gateway.example.com".',
    );
    expect(refusal({ TRUSTED_PROXIES: "10.0.0.0/8, 10.0.0.0/33" }, "TRUSTED_PROXIES")).toBe(
      'TRUSTED_PROXIES: "10.0.0.0/33" is not an IP address or CIDR range.',
    );
  });

  test("a change of the environment is seen by the next read", () => {
    vi.stubEnv("PUBLIC_URL", "https://one.example/");
    expect(publicUrl()).toBe("https://one.example");
    vi.stubEnv("PUBLIC_URL", "https://two.example");
    expect(publicUrl()).toBe("https://two.example");
    vi.stubEnv("OPENAI_TIMEOUT_MS", "300");
    expect(setting("OPENAI_TIMEOUT_MS")).toBe(300);
    vi.stubEnv("OPENAI_TIMEOUT_MS", "nothing");
    expect(() => setting("OPENAI_TIMEOUT_MS")).toThrow(/^OPENAI_TIMEOUT_MS must be a whole number/);
  });
});

describe("the check at start", () => {
  test("every wrong setting is listed at once, in one error", () => {
    const env = {
      PORT: "abc",
      DATABASE_POOLER: "session",
      ALLOW_PRIVATE_OUTBOUND: "yes",
      GOOGLE_DRIVE_TOKEN_URL: "ftp://files.example",
      ACTIVITY_RETENTION_DAYS: "0",
      EMBEDDING_PROVIDER: "openai",
    };
    const problems = [
      'PORT must be a port number from 1 to 65535, not "abc".',
      'DATABASE_POOLER must be "none" or "transaction", not "session".',
      'ALLOW_PRIVATE_OUTBOUND must be "true" or "false", not "yes".',
      'ACTIVITY_RETENTION_DAYS must be a whole number of days from 1 to 36500, not "0".',
      'GOOGLE_DRIVE_TOKEN_URL must be an http(s) URL, not "ftp://files.example".',
    ];
    expect(settingsProblems(env)).toEqual(problems);
    let error: unknown;
    try {
      checkSettings(env);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).problems).toEqual(problems);
    expect((error as Error).message).toBe(`5 settings are wrong:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  });

  test("settings that are right alone but not together are refused too", () => {
    const pooled = { DATABASE_URL: "postgres://memgw@db.internal/memgw", DATABASE_POOLER: "transaction" };
    expect(settingsProblems(pooled)).toEqual([expect.stringMatching(/^DATABASE_POOLER=transaction needs DATABASE_/)]);
    expect(settingsProblems({ ...pooled, DATABASE_DIRECT_URL: "postgres://memgw@db.internal:5432/memgw" })).toEqual([]);
  });

  test("document worker settings that would make a document wait for another's are refused, or named at start", () => {
    const extractions =
      "DOCUMENT_EXTRACTION_CONCURRENCY (3) must be at least DOCUMENT_WORKERS (4): a worker's document would wait " +
      "for another's extraction to end, whichever organization's it is.";
    expect(settingsProblems({ DOCUMENT_WORKERS: "4", DOCUMENT_EXTRACTION_CONCURRENCY: "3" })).toEqual([extractions]);
    expect(() => checkSettings({ DOCUMENT_WORKERS: "3" })).toThrow(
      /DOCUMENT_EXTRACTION_CONCURRENCY \(2\) must be at least DOCUMENT_WORKERS \(3\)/,
    );
    // A cap per organization at or above this instance's workers starts (the cap counts across instances, and a
    // server of one organization may give it every worker), and the start says what it means.
    expect(settingsProblems({ DOCUMENT_WORKERS_PER_ORG: "2" })).toEqual([]);
    expect(settingsWarnings({ DOCUMENT_WORKERS_PER_ORG: "2" })).toEqual([
      "DOCUMENT_WORKERS_PER_ORG (2) is not below DOCUMENT_WORKERS (2): on this instance alone, one organization's " +
        "documents can take every document worker and another's wait behind its queue.",
    ]);
    // The defaults, a single worker and wider pools start without a word.
    expect(settingsWarnings({})).toEqual([]);
    expect(settingsWarnings({ DOCUMENT_WORKERS: "1", DOCUMENT_WORKERS_PER_ORG: "1" })).toEqual([]);
    const wide = { DOCUMENT_WORKERS: "8", DOCUMENT_WORKERS_PER_ORG: "3", DOCUMENT_EXTRACTION_CONCURRENCY: "8" };
    expect(settingsProblems(wide)).toEqual([]);
    expect(settingsWarnings(wide)).toEqual([]);
    // A value that does not read is named once, not again as a combination.
    expect(settingsProblems({ DOCUMENT_WORKERS: "many", DOCUMENT_EXTRACTION_CONCURRENCY: "1" })).toEqual([
      expect.stringMatching(/^DOCUMENT_WORKERS must be/),
    ]);
  });

  test("the test environment itself is right", () => {
    expect(settingsProblems()).toEqual([]);
  });
});

describe("the declarations", () => {
  test("the document is written from them: run `npm run docs:settings` after changing a setting", async () => {
    expect(fs.readFileSync(SETTINGS_DOCUMENT, "utf8")).toBe(await settingsDocument());
  });

  test("every setting has a description, a default and the values it takes", () => {
    for (const [name, definition] of Object.entries(SETTING_DEFINITIONS)) {
      expect(name).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(definition.description.length, name).toBeGreaterThan(10);
      expect(definition.shownDefault, name).not.toBe("");
      expect(definition.allowed, name).not.toBe("");
    }
  });

  test("LOCAL_EMBEDDING_KERNELS takes what the embedding worker reads (it checks it again itself)", () => {
    expect(SETTING_DEFINITIONS.LOCAL_EMBEDDING_KERNELS.allowed).toBe(
      KERNEL_SETTINGS.map((kernel) => `\`${kernel}\``).join(", "),
    );
  });

  test("each integration provider has its settings, and each settings prefix a provider", () => {
    expect(PROVIDER_LIST.map((provider) => provider.settingsPrefix).sort()).toEqual(
      [...INTEGRATION_SETTINGS_PREFIXES].sort(),
    );
    expect(providerEndpoints(PROVIDERS.notion)).toEqual({
      authUrl: "https://api.notion.com/v1/oauth/authorize",
      tokenUrl: "https://api.notion.com/v1/oauth/token",
      apiUrl: "https://api.notion.com",
    });
  });

  test("code in lib/ reads the environment through lib/config", () => {
    // The embedding worker is plain JavaScript on a thread of its own. Writes that hand a value on (a process's
    // role, next-auth's URL, the CLI's page cache) are lib/config's too.
    const allowed = new Set(["lib/memory/embeddings/local-worker.mjs"]);
    const readers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!["generated", "config"].includes(entry.name)) walk(file);
        } else if (/\.(ts|tsx|mjs)$/.test(entry.name) && fs.readFileSync(file, "utf8").includes("process.env")) {
          readers.push(path.relative(process.cwd(), file));
        }
      }
    };
    walk(path.resolve("lib"));
    expect(readers.filter((file) => !allowed.has(file))).toEqual([]);
  });
});
