import { dataDir, databaseUrl } from "@/lib/config";
import { closeDatabase, getDatabase } from "@/lib/db";
import { DataDirInUseError, liveLockOwner } from "@/lib/db/lock";
import { DomainError } from "@/lib/errors";
import { describeError } from "@/lib/http/errors";
import { adminCommands, isAdminCommand, runAdminCommand } from "./commands";
import { AdminCommandError, sendAdminCommand, serveAdminCommands } from "./socket";

const HELP = `memgw — Memory Gateway admin command line (prints JSON)

Usage: npx memgw <command> [--flag value ...]

Commands:
${Object.values(adminCommands)
  .map((c) => `  ${c.usage}`)
  .join("\n")}

It uses the same database as the server (DATA_DIR or DATABASE_URL). While the server runs on the
embedded database, commands are carried out by the server itself.`;

class UsageError extends Error {}

export function parseArgv(argv: string[]): { command: string; args: Record<string, string | string[]> } {
  const words: string[] = [];
  const args: Record<string, string | string[]> = {};
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (!token.startsWith("--")) {
      words.push(token);
      continue;
    }
    const eq = token.indexOf("=");
    const name = token.slice(2, eq === -1 ? undefined : eq);
    if (!name) throw new UsageError(`Malformed option "${token}".`);
    let value: string;
    if (eq !== -1) value = token.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) value = argv[++i];
    else throw new UsageError(`Option --${name} needs a value.`);
    const previous = args[name];
    args[name] = previous === undefined ? value : [previous, value].flat();
  }
  return { command: words.join(" "), args };
}

/** Sends the command to the running server when it owns the embedded database, or runs it here. */
async function execute(command: string, args: Record<string, unknown>): Promise<unknown> {
  if (databaseUrl()) return runHere(command, args);
  for (let attempt = 0; attempt < 20; attempt++) {
    const owner = await liveLockOwner(dataDir());
    if (owner?.socketPath) {
      try {
        return await sendAdminCommand(owner.socketPath, command, args);
      } catch (error) {
        // Never delivered (the owner is stopping): safe to try again. Anything else may have run.
        if (!["ECONNREFUSED", "ENOENT"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
      }
    } else if (!owner) {
      try {
        return await runHere(command, args);
      } catch (error) {
        if (!(error instanceof DataDirInUseError)) throw error;
      }
    }
    // The owner is still starting (it publishes its socket once migrated): wait for it.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The data directory ${dataDir()} is held by another process that does not answer.`);
}

async function runHere(command: string, args: Record<string, unknown>) {
  process.env.MEMGW_PROCESS_ROLE ??= "cli";
  // While it holds the data directory, commands of other `memgw` processes are carried out here too.
  await serveAdminCommands(await getDatabase());
  try {
    return await runAdminCommand(command, args);
  } finally {
    await closeDatabase();
  }
}

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    process.stdout.write(HELP + "\n");
    return argv.length === 0 ? 2 : 0;
  }
  try {
    const { command, args } = parseArgv(argv);
    if (!isAdminCommand(command)) throw new UsageError(`Unknown command "${command}". Run \`npx memgw --help\`.`);
    const result = await execute(command, args);
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`memgw: ${message.replace(/\s*\n\s*/g, " ")}\n`);
    return error instanceof UsageError || errorCode(error) === "BAD_REQUEST" ? 2 : 1;
  }
}

/** The error code of a command's failure, whether it ran here or in the process that owns the data. */
function errorCode(error: unknown): string | undefined {
  if (error instanceof AdminCommandError) return error.code;
  return error instanceof DomainError ? describeError(error).code : undefined;
}
