import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { checkSettings, dataDir, databaseUrl, defaultSetting, nameProcessRole } from "@/lib/config";
import { DataDirInUseError, liveLockOwner } from "@/lib/db/lock";
import { DomainError, UnavailableError } from "@/lib/errors";
import { describeError } from "@/lib/http/errors";
import { closeEmbedder } from "@/lib/memory/embeddings/embedder-state";
import { ItemStream } from "@/lib/http/ndjson";
import {
  ADMIN_SWITCHES,
  adminCommands,
  type AdminCommandName,
  isAdminCommand,
  isBulk,
  parseAdminArgs,
  runAdminCommand,
  streamsOf,
} from "./commands";
import { AdminCommandError, sendAdminCommand, sendStreamedAdminCommand, serveAdminCommands } from "./socket";

const HELP = `memgw — Memory Gateway admin command line (prints JSON)

Usage: npx memgw <command> [--flag value ...]

Commands:
${Object.values(adminCommands)
  .map((c) => `  ${c.usage}`)
  .join("\n")}

It uses the same database as the server (DATA_DIR or DATABASE_URL). While the server runs on the
embedded database, commands are carried out by the server itself.`;

class UsageError extends Error {}

/**
 * The page cache (MB) a command that touches a few rows opens the embedded database with, unless PGLITE_CACHE_MB
 * is set: PGlite fills its whole cache as it starts, and the server's 512 MB took 2.5 s of a 5 s
 * `memgw org create`, against 0.9 s for 64 MB. Whatever else such a process does with the database runs with it
 * too, only slower: the migrations of an upgrade, and the commands of other `memgw` processes it carries out while
 * it holds the data directory (bulk ones among them).
 */
const CLI_CACHE_MB = 64;

export function parseArgv(
  argv: string[],
  switches: ReadonlySet<string> = ADMIN_SWITCHES,
): { command: string; args: Record<string, string | string[]> } {
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
    else if (switches.has(name)) value = "true";
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) value = argv[++i];
    else throw new UsageError(`Option --${name} needs a value.`);
    const previous = args[name];
    args[name] = previous === undefined ? value : [previous, value].flat();
  }
  return { command: words.join(" "), args };
}

/**
 * Where a command that streams reads and writes: `--in FILE` (else standard input) for one that reads
 * NDJSON, `--out FILE` (else standard output) for one that writes it. They are the CLI's own flags, not
 * the command's: the files are opened here, whichever process carries the command out.
 */
interface CommandIo {
  input?: AsyncIterable<Uint8Array>;
  output?: NodeJS.WritableStream;
  outFile?: string;
  /** The input is standard input, read into a file before the command starts (spoolStdin). */
  stdin?: boolean;
  cleanup?: () => void;
}

function openStreams(command: AdminCommandName, args: Record<string, string | string[]>): CommandIo {
  const { input, output } = streamsOf(command);
  const io: CommandIo = {};
  const file = (flag: "in" | "out") => {
    const value = args[flag];
    delete args[flag];
    if (Array.isArray(value)) throw new UsageError(`Give --${flag} once.`);
    return value;
  };
  if (input) {
    const inFile = file("in");
    if (inFile === undefined && process.stdin.isTTY) {
      throw new UsageError(`Give --in FILE, or pipe the NDJSON to standard input.`);
    }
    // A file is opened now, so that a missing one is the error rather than something the command meets midway.
    if (inFile === undefined) io.stdin = true;
    else io.input = fs.createReadStream("", { fd: fs.openSync(inFile, "r") });
  }
  if (output) {
    io.outFile = file("out");
    io.output =
      io.outFile === undefined ? process.stdout : fs.createWriteStream("", { fd: fs.openSync(io.outFile, "w") });
  }
  return io;
}

/**
 * Standard input, read to its end before the command starts: in `memgw export … | memgw import …` the
 * export may own the data directory and would carry the import out itself, yet it does not let go of its
 * output (the import's input) until the commands it carries out are done. Kept in a file, not in memory.
 */
async function spoolStdin(io: CommandIo): Promise<void> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "memgw-stdin-"));
  io.cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  const file = path.join(dir, "input");
  await pipeline(process.stdin, fs.createWriteStream(file, { mode: 0o600 }));
  io.input = fs.createReadStream(file);
}

/** Sends the command to the running server when it owns the embedded database, or runs it here. */
async function execute(command: AdminCommandName, args: Record<string, unknown>, io: CommandIo = {}): Promise<unknown> {
  if (databaseUrl()) return runHere(command, args, io);
  for (let attempt = 0; attempt < 20; attempt++) {
    const owner = await liveLockOwner(dataDir());
    if (owner?.socketPath) {
      try {
        if (io.input || io.output) return await sendStreamedAdminCommand(owner.socketPath, command, args, io);
        return await sendAdminCommand(owner.socketPath, command, args);
      } catch (error) {
        // Never delivered (the owner is stopping): safe to try again. Anything else may have run.
        if (!["ECONNREFUSED", "ENOENT"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
      }
    } else if (!owner) {
      try {
        return await runHere(command, args, io);
      } catch (error) {
        if (!(error instanceof DataDirInUseError)) throw error;
      }
    }
    // The owner is still starting (it publishes its socket once migrated): wait for it.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new UnavailableError(`The data directory ${dataDir()} is held by another process that does not answer.`);
}

async function runHere(command: AdminCommandName, args: Record<string, unknown>, io: CommandIo) {
  nameProcessRole("cli");
  if (!isBulk(command)) defaultSetting("PGLITE_CACHE_MB", String(CLI_CACHE_MB));
  // Imported here, not at the top: only a command run in this process needs the database (see commands.ts).
  const { closeDatabase, getDatabase } = await import("@/lib/db");
  // While it holds the data directory, commands of other `memgw` processes are carried out here too.
  await serveAdminCommands(await getDatabase());
  try {
    const result = await runAdminCommand(command, args, io.input);
    // Written before the database closes: the stream reads it a page at a time.
    return result instanceof ItemStream ? { lines: await writeLines(result.items, io.output!) } : result;
  } finally {
    await closeDatabase();
    // Export names, and import uses, the embedding model: its worker threads must not keep the CLI running.
    await closeEmbedder();
  }
}

/** Writes items one JSON line each, paced by `output`; the number of lines written. */
async function writeLines(items: AsyncIterable<unknown>, output: NodeJS.WritableStream): Promise<number> {
  let lines = 0;
  for await (const item of items) {
    if (!output.write(JSON.stringify(item) + "\n")) await once(output, "drain");
    lines++;
  }
  return lines;
}

/** Lets a file written by the command reach the disk, and reports a write that failed. */
async function closeOutput(io: CommandIo) {
  if (io.outFile === undefined || !io.output) return;
  const file = io.output as fs.WriteStream;
  await new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    process.stdout.write(HELP + "\n");
    return argv.length === 0 ? 2 : 0;
  }
  try {
    const { command, args } = parseArgv(argv);
    if (!isAdminCommand(command)) throw new UsageError(`Unknown command "${command}". Run \`npx memgw --help\`.`);
    const io = openStreams(command, args);
    let result: unknown;
    try {
      parseAdminArgs(command, args);
      // The CLI opens the same database as the server: wrong settings stop it before that, all listed.
      checkSettings();
      if (io.stdin) await spoolStdin(io);
      result = await execute(command, args, io);
      await closeOutput(io);
    } catch (error) {
      // A partial export must not be taken for a whole one.
      await closeOutput(io).catch(() => undefined);
      if (io.outFile !== undefined) fs.rmSync(io.outFile, { force: true });
      throw error;
    } finally {
      io.cleanup?.();
    }
    // An NDJSON answer written to standard output is the output: nothing is printed after it.
    if (io.output && io.outFile === undefined) return 0;
    const summary = io.output ? { out: path.resolve(io.outFile!), ...(result as object) } : result;
    process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
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
