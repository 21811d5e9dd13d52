import { spawn } from "node:child_process";
import path from "node:path";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs `memgw` (bin/memgw.mjs, what `npx memgw` runs) as its own process. */
export function memgw(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(process.cwd(), "bin/memgw.mjs"), ...args], {
      env: { ...process.env, MEMGW_PROCESS_ROLE: undefined, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
  });
}

/**
 * A new organization and an API key of it with `permissions` (comma-separated), made by the CLI as an operator
 * would (`memgw org create`, `memgw key create`) against the database `env` names; fails the test if either fails.
 */
export async function organizationKeyByCli(
  names: { org: string; key: string },
  permissions: string,
  env: Record<string, string | undefined>,
): Promise<{ orgId: string; secret: string }> {
  const org = await memgw(["org", "create", "--name", names.org], env);
  if (org.code !== 0) throw new Error(`memgw org create failed: ${org.stderr}`);
  const key = await memgw(
    ["key", "create", "--org", org.json.id, "--name", names.key, "--permissions", permissions],
    env,
  );
  if (key.code !== 0) throw new Error(`memgw key create failed: ${key.stderr}`);
  return { orgId: org.json.id, secret: key.json.secret };
}
