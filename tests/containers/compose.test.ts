// The image and the compose files as a self-hoster runs them (issue 55): the image built from the Dockerfile,
// `docker compose up` with PostgreSQL and pgvector (two gateway replicas migrating one empty database at once),
// the first organization and key through the CLI inside the container, remember → recall → ask over HTTP, the
// data kept across `down` and `up`, `docker stop` finishing a request in flight, and the embedded database in one
// container with its volume. Run by `npm run test:containers` (Docker and the base images the Dockerfile and
// compose.yaml name must be there: .ci/container-images makes stand-ins where no registry is reachable).
// Containers are reached only at their addresses on the network compose made for the test's own project, and
// everything the test started is removed at the end.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const id = randomBytes(4).toString("hex");
// MEMGW_TEST_IMAGE: test an image built beforehand (kept afterwards) rather than build one from the checkout.
const prebuilt = process.env.MEMGW_TEST_IMAGE;
const image = prebuilt ?? `memgw-test-${id}:latest`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-containers-"));
const envFile = path.join(work, ".env");
const secret = () => randomBytes(32).toString("hex");
const projects: { name: string; file: string }[] = [];

/** The environment compose files are read with: the test's image, its .env, ports the system picks. */
const composeEnv = {
  ...process.env,
  MEMGW_IMAGE: image,
  MEMGW_ENV_FILE: envFile,
  MEMGW_BIND: "127.0.0.1",
  MEMGW_PORT: "0",
  POSTGRES_IMAGE: process.env.MEMGW_POSTGRES_IMAGE ?? "pgvector/pgvector:pg17",
};

async function docker(args: string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await run("docker", args, { cwd: root, timeout: timeoutMs, maxBuffer: 64 << 20 });
  return stdout.trim();
}

function compose(project: { name: string; file: string }, env: Record<string, string> = {}) {
  return async (args: string[], timeoutMs = 240_000): Promise<string> => {
    try {
      const { stdout } = await run(
        "docker-compose",
        ["-p", project.name, "-f", project.file, "--env-file", envFile, ...args],
        { cwd: root, timeout: timeoutMs, maxBuffer: 64 << 20, env: { ...composeEnv, ...env } },
      );
      return stdout.trim();
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`docker-compose ${args.join(" ")} failed:\n${stdout ?? ""}\n${stderr ?? ""}`, { cause: error });
    }
  };
}

/** The containers of a project's service, oldest first. */
async function containersOf(project: string, service: string): Promise<string[]> {
  const ids = await docker([
    "ps",
    "-a",
    "--filter",
    `label=com.docker.compose.project=${project}`,
    "--filter",
    `label=com.docker.compose.service=${service}`,
    "--format",
    "{{.ID}}",
  ]);
  return ids.split("\n").filter(Boolean).reverse();
}

/** The container's address on its project's network (the only network it is on). */
async function addressOf(container: string): Promise<string> {
  const address = await docker([
    "inspect",
    "-f",
    "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
    container,
  ]);
  expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  return `http://${address}:3000`;
}

/** Waits until the image's HEALTHCHECK (GET /api/v1/health) passes. */
async function healthy(container: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let status = "";
  while (Date.now() < deadline) {
    status = await docker(["inspect", "-f", "{{.State.Health.Status}}", container]);
    if (status === "healthy") return;
    if (status === "unhealthy") break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const logs = await run("docker", ["logs", "--tail", "40", container]).catch((error) => error);
  throw new Error(`container ${container} is ${status || "not healthy"}:\n${logs.stdout}\n${logs.stderr}`);
}

async function call(base: string, key: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  fs.writeFileSync(
    envFile,
    [
      `POSTGRES_PASSWORD=${secret()}`,
      `KEY_PEPPER=${secret()}`,
      `NEXTAUTH_SECRET=${secret()}`,
      `ENCRYPTION_KEY=${secret()}`,
      "PUBLIC_URL=http://localhost:3000",
      "",
    ].join("\n"),
  );
  const started = Date.now();
  if (!prebuilt) await docker(["build", "-q", "-t", image, "."], 1_800_000);
  const bytes = Number(await docker(["image", "inspect", "-f", "{{.Size}}", image]));
  console.log(
    `image ${image}: built in ${Math.round((Date.now() - started) / 1000)} s, ${(bytes / 1e6).toFixed(0)} MB`,
  );
}, 1_800_000);

afterAll(async () => {
  for (const project of projects) await compose(project)(["down", "-v", "--remove-orphans", "-t", "5"]).catch(() => {});
  if (!prebuilt) await docker(["image", "rm", "-f", image]).catch(() => {});
  fs.rmSync(work, { recursive: true, force: true });
}, 300_000);

test("the image runs as a non-root user with the build, the OCR data and no development packages", async () => {
  const inImage = (script: string) => docker(["run", "--rm", "--network", "none", image, "node", "-e", script]);
  expect(await inImage("console.log(process.getuid())")).not.toBe("0");
  const layout = JSON.parse(
    await inImage(
      "const fs=require('fs');console.log(JSON.stringify([" +
        "fs.existsSync('.next/BUILD_ID'),fs.existsSync('node_modules/@tesseract.js-data/eng')," +
        "fs.existsSync('node_modules/vitest'),fs.existsSync('node_modules/typescript'),process.env.DATA_DIR]))",
    ),
  );
  expect(layout).toEqual([true, true, false, false, "/data"]);
}, 120_000);

test("compose with PostgreSQL: replicas migrate one database, a key from the CLI, data kept, stop drains", async () => {
  const project = { name: `memgw-ci-pg-${id}`, file: "compose.yaml" };
  projects.push(project);
  const dc = compose(project);
  // Two replicas on an empty database: both migrate at start, one at a time, and both come up healthy.
  await dc(["up", "-d", "--no-build", "--scale", "gateway=2"]);
  const replicas = await containersOf(project.name, "gateway");
  expect(replicas).toHaveLength(2);
  await Promise.all(replicas.map((container) => healthy(container)));

  // The first organization, owner and key, with the CLI inside the running container.
  const cli = async (...args: string[]) =>
    JSON.parse(await dc(["exec", "-T", "--index=1", "gateway", "memgw", ...args]));
  const org = await cli("org", "create", "--name", "Container Co");
  await cli("user", "create", "--email", "owner@example.com", "--password", "a long enough password 1");
  await cli("member", "add", "--org", org.slug, "--user", "owner@example.com", "--role", "owner");
  const { secret: key } = await cli(
    "key",
    "create",
    "--org",
    org.slug,
    "--name",
    "ci",
    "--permissions",
    "NAMESPACE_READ,NAMESPACE_WRITE,NAMESPACE_MANAGE",
  );
  expect(key).toMatch(/^\S{24,}$/);

  const [first, second] = await Promise.all(replicas.map(addressOf));
  const namespace = await call(first, key, "POST", "/namespaces", { name: "travel" });
  expect(namespace.status).toBe(201);
  const ns = namespace.body.data.id;
  const remembered = await call(first, key, "POST", "/remember", {
    namespace_id: ns,
    content: "Maria moved to Lisbon in the spring of 2023 to work as a marine biologist.",
  });
  expect(remembered.status).toBe(201);
  // Written through one replica, read through the other: they share the PostgreSQL database.
  const recalled = await call(second, key, "POST", "/recall", { namespace_id: ns, query: "Where does Maria live?" });
  expect(recalled.status).toBe(200);
  expect(recalled.body.data[0].content).toMatch(/Lisbon/);
  const asked = await call(second, key, "POST", "/ask", { namespace_id: ns, query: "Where did Maria move to?" });
  expect(asked.status).toBe(200);
  expect(asked.body.data.answer).toMatch(/Lisbon/);
  expect(asked.body.data.sources[0].content).toMatch(/Lisbon/);
  // In the PostgreSQL database itself, read with psql in its container.
  const storedMemories = () =>
    dc(["exec", "-T", "postgres", "psql", "-U", "memgw", "-d", "memgw", "-Atc", "SELECT count(*) FROM memories"]);
  expect(await storedMemories()).toBe("1");

  // down and up again: the named volume keeps the database.
  await dc(["down", "-t", "20"]);
  await dc(["up", "-d", "--no-build"]);
  const [again] = await containersOf(project.name, "gateway");
  await healthy(again);
  const base = await addressOf(again);
  const kept = await call(base, key, "POST", "/recall", { namespace_id: ns, query: "Where does Maria live?" });
  expect(kept.status).toBe(200);
  expect(kept.body.data.map((m: { content: string }) => m.content)).toEqual([remembered.body.data.content]);

  // docker stop while a write of 100 memories is in flight (seconds of embedding): the write finishes and is
  // answered, then the process exits 0, well inside the grace period.
  const filler =
    "The shelf holds jars of honey, jam, pickled onions and dried beans, labelled by the month they were made.";
  const batch = Array.from({ length: 100 }, (_, i) => ({ content: `Inventory note ${i}. ${filler} ${filler}` }));
  const inFlight = call(base, key, "POST", "/remember", { namespace_id: ns, memories: batch }).then((answer) => ({
    ...answer,
    at: Date.now(),
  }));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const stopSent = Date.now();
  const stopped = docker(["stop", "-t", "20", again], 60_000);
  const written = await inFlight;
  await stopped;
  expect(written.status).toBe(201);
  expect(written.at).toBeGreaterThan(stopSent); // it was still in flight when the signal came
  expect(await docker(["inspect", "-f", "{{.State.ExitCode}}", again])).toBe("0");
  expect(await storedMemories()).toBe("101");
  expect((await run("docker", ["logs", again])).stdout).toMatch(/SIGTERM: finishing the requests in flight/);
}, 900_000);

test("compose.embedded.yaml: the embedded database in one container, a headless first start, a volume", async () => {
  const project = { name: `memgw-ci-embedded-${id}`, file: "compose.embedded.yaml" };
  projects.push(project);
  const key = `mgw_init_${secret()}`;
  const dc = compose(project, {
    MEMGW_INIT_ORG_NAME: "Trial",
    MEMGW_INIT_USER_EMAIL: "trial@example.com",
    MEMGW_INIT_USER_PASSWORD: "a long enough password 2",
    MEMGW_INIT_API_KEY: key,
  });
  await dc(["up", "-d", "--no-build"]);
  const [container] = await containersOf(project.name, "gateway");
  await healthy(container);
  let base = await addressOf(container);
  const namespace = await call(base, key, "POST", "/namespaces", { name: "notes" });
  expect(namespace.status).toBe(201);
  const ns = namespace.body.data.id;
  expect(
    (await call(base, key, "POST", "/remember", { namespace_id: ns, content: "The boiler is serviced every October." }))
      .status,
  ).toBe(201);

  await dc(["down", "-t", "20"]);
  await dc(["up", "-d", "--no-build"]);
  const [again] = await containersOf(project.name, "gateway");
  await healthy(again);
  base = await addressOf(again);
  const recalled = await call(base, key, "POST", "/recall", {
    namespace_id: ns,
    query: "When is the boiler serviced?",
  });
  expect(recalled.status).toBe(200);
  expect(recalled.body.data[0].content).toBe("The boiler is serviced every October.");

  // The console and the API reference are served from the image as from a checkout (their files are in it).
  const signIn = await fetch(`${base}/sign-in`);
  expect(signIn.status).toBe(200);
  expect(await signIn.text()).toMatch(/Sign in/);
  const reference = await fetch(`${base}/docs`);
  expect(reference.status).toBe(200);
  const script = /<script src="(\/docs\/[^"]+\.js)"/.exec(await reference.text())?.[1];
  expect(script).toBeDefined();
  const bundle = await fetch(`${base}${script}`);
  expect(bundle.status).toBe(200);
  expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
}, 600_000);
