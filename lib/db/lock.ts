import fs from "node:fs";
import path from "node:path";

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
    readonly owner: LockOwner,
  ) {
    super(
      `The data directory ${dir} is in use by process ${owner.pid} (${owner.role}). ` +
        `PGlite allows one process per data directory: stop that process, or use another DATA_DIR.`,
    );
    this.name = "DataDirInUseError";
  }
}

export function lockPath(dir: string): string {
  return path.join(dir, "memgw.lock");
}

/** The process holding the data directory, if a live one does. */
export function readLockOwner(dir: string): LockOwner | undefined {
  let owner: LockOwner;
  try {
    owner = JSON.parse(fs.readFileSync(lockPath(dir), "utf8"));
  } catch {
    return undefined;
  }
  return isAlive(owner.pid) ? owner : undefined;
}

export interface DataDirLock {
  update(fields: Partial<LockOwner>): void;
  release(): void;
}

/**
 * Takes the data directory for this process. PGlite has no file lock of its own, and two processes on
 * one directory silently lose writes, so a second opener gets DataDirInUseError instead.
 */
export function acquireDataDirLock(dir: string, role: string): DataDirLock {
  fs.mkdirSync(dir, { recursive: true });
  const file = lockPath(dir);
  let owner: LockOwner = { pid: process.pid, role, startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(owner), { flag: "wx", mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const current = readLockOwner(dir);
      if (current) throw new DataDirInUseError(dir, current);
      fs.rmSync(file, { force: true }); // left behind by a process that died
    }
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    try {
      const current = JSON.parse(fs.readFileSync(file, "utf8")) as LockOwner;
      if (current.pid === process.pid) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
  process.on("exit", release);
  return {
    update(fields) {
      owner = { ...owner, ...fields };
      fs.writeFileSync(file, JSON.stringify(owner), { mode: 0o600 });
    },
    release,
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
