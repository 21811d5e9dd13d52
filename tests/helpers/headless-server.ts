// A production server for the client libraries' tests: `npm start` (scripts/start.mjs) on a data directory of
// its own, started headless (an organization, its owner and a full-permission key made at its first start).
import { afterAll, beforeAll } from "vitest";
import { MemoryGateway } from "@memory-gateway/client";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { newDataDir } from "./embedded-template";
import { freePort, startServer, type RunningServer } from "./server";

export interface HeadlessServer {
  server: RunningServer;
  /** The secret of the full-permission key made at the first start. */
  apiKey: string;
  dataDir: string;
}

/** Starts it for the tests named `name` (which names its organization, owner and key), with `env` added. */
export async function startHeadlessServer(name: string, env: Record<string, string> = {}): Promise<HeadlessServer> {
  // The build directory the other files that start the production server share (builds take turns).
  process.env.MEMGW_DIST_DIR = ".next-test-server";
  buildIfNeeded({ quiet: true });
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const apiKey = `mgw_${slug.replace(/-/g, "")}TestsBootstrapKey0123456789`;
  const dataDir = newDataDir(`memgw-${slug}-`);
  const server = await startServer({
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    MEMGW_INIT_ORG_NAME: `${name} Tests`,
    MEMGW_INIT_USER_EMAIL: `${slug}@tests.example`,
    MEMGW_INIT_USER_PASSWORD: `a long password for the ${name} tests`,
    MEMGW_INIT_API_KEY: apiKey,
    ...env,
  });
  return { server, apiKey, dataDir };
}

/**
 * The server of a test file that uses the TypeScript SDK: started before its tests, stopped after them; its
 * fields are set once the file's tests run (`mg` is a client with the full-permission key).
 */
export function useHeadlessServer(name: string, env: Record<string, string> = {}) {
  const started = {} as HeadlessServer & { mg: MemoryGateway };
  beforeAll(async () => {
    Object.assign(started, await startHeadlessServer(name, env));
    started.mg = new MemoryGateway({ apiKey: started.apiKey, baseUrl: started.server.base });
  }, 600_000);
  afterAll(async () => {
    await started.server?.stop();
  });
  return started;
}

let names = 0;
/** A name no other call of this process gives: `prefix-<time>-<n>`. */
export const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${names++}`;

/** Runs `call`, expecting it to throw; returns what it threw. */
export async function thrown(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}
