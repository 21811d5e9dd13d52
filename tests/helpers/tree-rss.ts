// A process's memory with its children's, from /proc (Linux): what a server holds, whatever thread or process of
// it holds it. The same measure as bench/isolation.ts.
import fs from "node:fs";

/** The resident memory of `rootPid` and every process under it, in bytes. */
export function treeRss(rootPid: number): number {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parents.get(p)) if (p === rootPid) return true;
    return false;
  };
  let bytes = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      bytes += Number(fs.readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * 4096;
    } catch {
      // gone meanwhile
    }
  }
  return bytes;
}

/** Samples treeRss every 25 ms from now; `stop()` answers the peak growth over the start, in MiB. */
export function rssGrowth(rootPid: number): { stop: () => number } {
  const start = treeRss(rootPid);
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, treeRss(rootPid))), 25);
  return {
    stop: () => {
      clearInterval(timer);
      return (Math.max(peak, treeRss(rootPid)) - start) / 2 ** 20;
    },
  };
}
