import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface RunningServer {
  /** The server's process id (with `unreaped`, `process` is its parent). */
  pid: number;
  process: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * `npm start` (scripts/start.mjs) as a child process, resolved once it says it is ready and /api/v1/health
 * answers 200. With `unreaped`, its parent is a process that never reaps it (`sleep`): killed, it stays a
 * zombie until stop(). `checkout` is the directory served (this one by default; bench/compare.ts serves
 * another commit's worktree beside it).
 */
export async function startServer(
  env: Record<string, string>,
  { unreaped = false, checkout = process.cwd() } = {},
): Promise<RunningServer> {
  const port = Number(env.PORT);
  const base = `http://127.0.0.1:${port}`;
  const start = [process.execPath, path.join(checkout, "scripts/start.mjs")];
  const options = {
    cwd: checkout,
    env: { ...process.env, MEMGW_PROCESS_ROLE: undefined, PUBLIC_URL: base, ...env },
    stdio: ["ignore", "pipe", "pipe"] as ["ignore", "pipe", "pipe"],
  };
  const child = unreaped
    ? spawn("sh", ["-c", '"$@" & echo "server pid $!"; exec sleep 600', "sh", ...start], options)
    : spawn(start[0], start.slice(1), options);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const server: RunningServer = {
    pid: child.pid!,
    process: child,
    base,
    output: () => output,
    exited,
    async stop() {
      if (unreaped) {
        killIfAlive(server.pid);
        child.kill("SIGKILL");
      } else if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
  // The server announces "Memory Gateway is ready at" once it listens: wait for that line, or the exit.
  const ready = await new Promise<boolean>((resolve) => {
    const timeout = setTimeout(() => resolve(false), 120_000);
    const settle = (isReady: boolean) => {
      clearTimeout(timeout);
      child.stdout!.off("data", onOutput);
      child.stderr!.off("data", onOutput);
      resolve(isReady);
    };
    const onOutput = () => output.includes("Memory Gateway is ready at") && settle(true);
    child.stdout!.on("data", onOutput);
    child.stderr!.on("data", onOutput);
    // "close", not "exit": by then everything the process printed has been read.
    child.once("close", () => settle(false));
  });
  if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
  if (unreaped) server.pid = Number(/server pid (\d+)/.exec(output)?.[1] ?? 0);
  const health = ready ? await fetch(`${base}/api/v1/health`).catch(() => undefined) : undefined;
  if (health?.status === 200) return server;
  await server.stop();
  throw new Error(`server did not become healthy (health answered ${health?.status ?? "nothing"}):\n${output}`);
}

function killIfAlive(pid: number) {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * One call of a running server's API (`/api/v1` + `route`) with an API key, as a client sends it (a JSON body when
 * given): the status, headers and parsed JSON body of the answer. A call whose pooled connection was closed before
 * any answer came (undici's UND_ERR_SOCKET, "other side closed") is sent once more on a new one, as a client's retry
 * would, with a warning. It was seen under the whole suite's load only, on a connection idle since an earlier step,
 * while the server closed idle connections after 5 s (Node's default; now 65 s, see scripts/http-server.mjs). A
 * reset (ECONNRESET) is not retried: the request may have reached the server, and the test should say so.
 */
export async function serverApi(server: { base: string }, method: string, route: string, key: string, body?: unknown) {
  const send = () =>
    fetch(`${server.base}/api/v1${route}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const response = await send().catch((error: Error & { cause?: { code?: string } }) => {
    if (error.cause?.code !== "UND_ERR_SOCKET") throw error;
    console.warn(`[serverApi] ${method} ${route}: the connection closed before an answer (${error.cause}); sent again`);
    return send();
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}
