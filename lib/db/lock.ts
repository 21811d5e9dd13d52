import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// PGlite has no lock of its own, and two processes on one data directory silently lose writes. The
// holder listens on a socket that the operating system takes away with the process: a process killed
// with -9 frees the data directory at once, even while it lingers as a zombie, and a pid in a file
// (which a zombie, or another process given the same pid, still answers to) never decides anything.

export interface LockOwner {
  pid: number;
  role: string;
  startedAt: string;
  /** Unix socket on which the owner serves admin commands (see lib/admin/socket.ts). */
  socketPath?: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly owner: LockOwner | undefined,
  ) {
    const holder = owner?.pid ? `process ${owner.pid} (${owner.role})` : "another process";
    super(
      `The data directory ${dir} is in use by ${holder}. ` +
        `PGlite allows one process per data directory: stop that process, or use another DATA_DIR.`,
    );
    this.name = "DataDirInUseError";
  }
}

/** The lock file: the holder's details for people and the CLI. A killed holder leaves it behind. */
export function lockPath(dir: string): string {
  return path.join(dir, "memgw.lock");
}

/** What the lock file says. Information only: it outlives a killed holder, so ask liveLockOwner who holds the lock. */
export function readLockOwner(dir: string): LockOwner | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockPath(dir), "utf8")) as LockOwner;
  } catch {
    return undefined;
  }
}

type Platform = NodeJS.Platform;

/**
 * The address the holder listens on. Linux: an abstract socket, which the kernel frees with the process
 * and which cannot be left behind. Windows: a named pipe, which behaves alike. Elsewhere (macOS): a socket
 * file, whose leftover is told from a live holder by connecting to it. The name mixes in a random key
 * kept in the data directory (mode 0600), so another local user cannot take it first to block the gateway.
 */
function lockAddress(dir: string, platform: Platform): { address: string; isFile: boolean } {
  const stat = fs.statSync(dir, { bigint: true });
  // The directory's identity, not its path: a symlink or a bind mount reaches the same lock.
  const name = createHash("sha256")
    .update(`${stat.dev}:${stat.ino}:${lockKey(dir)}`)
    .digest("hex")
    .slice(0, 32);
  if (platform === "linux") return { address: `\0memgw-data-dir-${name}`, isFile: false };
  if (platform === "win32") return { address: `\\\\.\\pipe\\memgw-data-dir-${name}`, isFile: false };
  const beside = path.join(dir, "memgw-lock.sock");
  // Unix socket paths are limited to ~104 bytes; a deep data directory gets one in the temp directory.
  const elsewhere = path.join(os.tmpdir(), `memgw-lock-${name.slice(0, 16)}.sock`);
  return { address: Buffer.byteLength(beside) < 100 ? beside : elsewhere, isFile: true };
}

function lockKey(dir: string): string {
  const file = path.join(dir, "memgw.lock-key");
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // Written aside and linked into place: two first starts agree on one key, and none reads a half-written one.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  fs.writeFileSync(draft, randomBytes(32).toString("hex"), { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  return fs.readFileSync(file, "utf8");
}

const PROBE_TIMEOUT_MS = 2_000;

/**
 * The process holding the data directory, as it describes itself when asked over the lock socket;
 * undefined when none does. A holder too busy to answer in time is described by the lock file.
 */
export function liveLockOwner(dir: string, platform: Platform = process.platform): Promise<LockOwner | undefined> {
  if (!fs.existsSync(dir)) return Promise.resolve(undefined);
  const { address } = lockAddress(dir, platform);
  return new Promise((resolve) => {
    const socket = net.connect(address);
    let connected = false;
    let reply = "";
    const settle = () => {
      socket.destroy();
      if (!connected) return resolve(undefined);
      try {
        resolve(JSON.parse(reply) as LockOwner);
      } catch {
        resolve(readLockOwner(dir) ?? { pid: 0, role: "unknown", startedAt: "" });
      }
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, settle);
    socket.on("connect", () => (connected = true));
    socket.on("data", (chunk) => (reply += chunk));
    socket.on("end", settle);
    socket.on("error", settle);
  });
}

export interface DataDirLock {
  update(fields: Partial<LockOwner>): void;
  release(): void;
}

/**
 * Takes the data directory for this process, or throws DataDirInUseError naming the process that has it.
 * `platform` chooses the kind of lock (tests use it to exercise the socket-file kind on Linux).
 */
export async function acquireDataDirLock(
  dir: string,
  role: string,
  platform: Platform = process.platform,
): Promise<DataDirLock> {
  fs.mkdirSync(dir, { recursive: true });
  const { address, isFile } = lockAddress(dir, platform);
  let owner: LockOwner = { pid: process.pid, role, startedAt: new Date().toISOString() };
  const server = net.createServer((socket) => {
    socket.on("error", () => socket.destroy());
    socket.end(JSON.stringify(owner));
  });
  for (let attempt = 0; ; attempt++) {
    const error = await listen(server, address);
    if (!error) break;
    if (error.code !== "EADDRINUSE") throw error;
    const current = await liveLockOwner(dir, platform);
    if (current || attempt >= 2) throw new DataDirInUseError(dir, current);
    // Nobody answers: the holder has just exited, or (socket files only) a killed holder left the file.
    if (isFile) fs.rmSync(address, { force: true });
  }
  server.unref(); // the lock alone must not keep a CLI or test process alive
  if (isFile) fs.chmodSync(address, 0o600);
  const file = lockPath(dir);
  const write = () => fs.writeFileSync(file, JSON.stringify(owner), { mode: 0o600 });
  write();
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    // The file goes first, while the lock still keeps the next holder from writing its own.
    if (readLockOwner(dir)?.pid === process.pid) fs.rmSync(file, { force: true });
    server.close();
  };
  process.on("exit", release);
  return {
    update(fields) {
      owner = { ...owner, ...fields };
      write();
    },
    release,
  };
}

function listen(server: net.Server, address: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException) => resolve(error);
    server.once("error", onError);
    server.listen(address, () => {
      server.off("error", onError);
      resolve(undefined);
    });
  });
}
