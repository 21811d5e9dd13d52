import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Files that never open the database: a run on PostgreSQL (`npm run test:postgres`) leaves them to the
// embedded run rather than run them twice.
const DATABASE_FREE = [
  "tests/memory/embeddings/native-matmul.test.ts",
  "tests/memory/embeddings/embedding-pool.test.ts",
  "tests/memory/store/chunking.test.ts",
  "tests/bench/bench-datasets.test.ts",
  "tests/startup/start-builds.test.ts",
  "tests/tools/lint-boundaries.test.ts",
  "tests/secrets.test.ts",
  "tests/docs/newcomer.test.ts",
  "tests/console/operations-chart.test.ts",
  "tests/api/client-types.test.ts",
  "tests/clients/client-packages.test.ts",
  "packages/client/test/types.test.ts",
];

// The client libraries and their examples: they test what a client does with the server's answers over HTTP,
// which the database behind the server does not change; the API itself runs on PostgreSQL in every other file.
const CLIENT_SIDE = [
  "packages/*/test/**/*.test.ts",
  "tests/clients/sdk-python.test.ts",
  "tests/clients/example-*.test.ts",
];

// The files that take longest (they start production servers, CLI processes or both, and the first of them
// builds) start first: run last, one of them kept a worker busy alone for minutes after the other finished.
const LONGEST_FIRST = [
  "tests/oauth/oauth-production.test.ts",
  "tests/admin/cli.test.ts",
  "tests/memory/store/crash-writes.test.ts",
  "tests/startup/process.test.ts",
  "tests/portability/export-import.test.ts",
  "tests/startup/server.test.ts",
  "tests/db/database.test.ts",
];

// On PostgreSQL an event is held back from the feed and from webhooks while any older transaction of the server
// is open (lib/events/event-access.ts), another test file's too: one left open for seconds beside them failed
// their timed deliveries. So in the run on PostgreSQL they wait for the other files to end, then run one at a
// time (`npm run test:postgres` runs them second, with MEMGW_TEST_PASS=deliveries).
const DELIVERY_TIMING = ["tests/events/**"];
const onPostgres = process.env.MEMGW_TEST_DATABASE === "postgres";
const deliveriesPass = onPostgres && process.env.MEMGW_TEST_PASS === "deliveries";

class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(path.relative(import.meta.dirname, file.moduleId));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: {
    alias: {
      "@memory-gateway/client": path.resolve(import.meta.dirname, "packages/client/src/index.ts"),
      "@memory-gateway/ai-sdk": path.resolve(import.meta.dirname, "packages/ai-sdk/src/index.ts"),
      "@memory-gateway/langchain": path.resolve(import.meta.dirname, "packages/langchain/src/index.ts"),
      "@": path.resolve(import.meta.dirname),
    },
  },
  test: {
    include: deliveriesPass ? DELIVERY_TIMING : ["tests/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    exclude: [
      ...configDefaults.exclude,
      ...(onPostgres ? [...DATABASE_FREE, ...CLIENT_SIDE] : []),
      ...(onPostgres && !deliveriesPass ? DELIVERY_TIMING : []),
      // The image and compose files need a Docker engine: `npm run test:containers` runs them alone.
      ...(process.env.MEMGW_TEST_CONTAINERS === "1" ? [] : ["tests/containers/**"]),
    ],
    environment: "node",
    globalSetup: ["tests/helpers/global-setup.ts"],
    setupFiles: ["tests/helpers/setup.ts"],
    pool: "forks",
    // Two files at a time, on purpose: a file spends much of its time waiting (for a server it started, a
    // child process, a timer), and vitest's default on two cores is one. Measured on this 2-core machine:
    // the embedded suite takes 656 s with two, 1,139 s with one.
    maxWorkers: 2,
    fileParallelism: !deliveriesPass,
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
