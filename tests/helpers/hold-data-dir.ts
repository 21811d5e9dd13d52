// Run as a separate process by tests: takes DATA_DIR's lock (of the kind LOCK_PLATFORM names) and keeps
// it until killed, printing who holds it.
import { acquireDataDirLock } from "@/lib/db/lock";

const platform = (process.env.LOCK_PLATFORM || process.platform) as NodeJS.Platform;
try {
  await acquireDataDirLock(process.env.DATA_DIR!, "holder", platform);
  console.log(JSON.stringify({ held: true, pid: process.pid }));
  setInterval(() => undefined, 60_000);
} catch (error) {
  console.log(JSON.stringify({ held: false, name: (error as Error).name, message: (error as Error).message }));
}
