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
  process: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** `npm start` (scripts/start.mjs) as a child process, resolved once /api/v1/health answers 200. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = Number(env.PORT);
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(process.cwd(), "scripts/start.mjs")], {
    env: { ...process.env, MEMGW_PROCESS_ROLE: undefined, PUBLIC_URL: base, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const server: RunningServer = {
    process: child,
    base,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${base}/api/v1/health`);
      if (response.status === 200 && output.includes("is ready at")) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error(`server did not become healthy:\n${output}`);
}
