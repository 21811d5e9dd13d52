// One document read in a child process of its own (lib/documents/extract/isolated.ts starts it). The reading
// runs on a worker thread (./reading-thread.mjs), so this process's main thread is always free to watch,
// whatever the reader does synchronously (a parse can hold its thread for minutes):
// - its parent: the server gone (killed with -9 too), the process ends at once instead of reading on unseen,
//   its memory bounded by nothing but its heap limit;
// - its own resident memory, every MEMORY_POLL_MS: past the budget it answers the reason and ends, without
//   needing the server's event loop (the server's own watch is the second line, and a blocked server loop
//   no longer lets a reading overshoot).
// It receives the document in one message and answers the document, or the error's name and message, then
// exits once the answer is written.
import fs from "node:fs";
import os from "node:os";
import { Worker } from "node:worker_threads";

// A document's reading is background work: below the server's threads, so the requests of every organization
// (and the query embedder) win the cores while it parses or runs OCR. The reading thread started below inherits it.
try {
  os.setPriority(10);
} catch {
  // not permitted or not supported here: it reads at the server's priority
}

/** How often resident memory and the parent are checked: an allocation spree overshoots little. */
const MEMORY_POLL_MS = 20;

/** The budget in MB (the process's two arguments) and the sentence that says it was exceeded. */
const budgetMb = Number(process.argv[2]);
const overBudget = process.argv[3];
const parent = process.ppid;
let answered = false;

// The channel closes when the parent dies, however: the main thread is free to hear it.
process.on("disconnect", () => die());
setInterval(() => {
  if (!parentAlive()) return die();
  if (process.memoryUsage.rss() > budgetMb * 1024 * 1024) {
    answer({ error: { name: "DocumentUnreadableError", message: overBudget } });
  }
}, MEMORY_POLL_MS);

// Loading the readers (tsx, pdf.js, mammoth…) takes a while: the thread starts at once, before the document
// comes, and is handed it then. Its heap may take the whole budget (the rest of the process is small).
const thread = new Worker(new URL("./reading-thread.mjs", import.meta.url), {
  resourceLimits: { maxOldGenerationSizeMb: budgetMb },
});

thread.on("message", answer);
thread.on("error", (error) =>
  answer({
    error:
      // The thread's heap reached its limit (the budget): the same reason as any other memory.
      error?.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? { name: "DocumentUnreadableError", message: overBudget }
        : { name: error?.name ?? "Error", message: error?.message ?? String(error) },
  }),
);
thread.on("exit", (code) =>
  answer({ error: { name: "Error", message: `the reading thread stopped (exit code ${code})` } }),
);
process.once("message", (document) => thread.postMessage(document));

/** The first answer goes to the parent; then the process ends, the reading thread with it wherever it is. */
function answer(message) {
  if (answered) return;
  answered = true;
  // Not process.exit(): it waits for the thread to stop, and a thread inside a long native call (inflating,
  // decoding pixels) does not stop at once. Killing itself frees everything now.
  const end = () => die();
  // A document's text (megabytes for a long PDF) is written only as fast as the server reads it, and a server
  // whose loop is busy reads nothing: a deadline here would kill a finished reading mid-answer, so it ends
  // when the answer is out (the server's own timer, its time limit + 5 s, is the bound if it never is). An
  // error is a few bytes, written at once, but its reading thread may still be allocating: no waiting on it.
  if (!("document" in message)) setTimeout(end, 1_000).unref();
  process.send(message, end);
}

function die() {
  process.kill(process.pid, "SIGKILL");
}

/** False once this process's parent is another (it was orphaned and re-parented), where /proc tells. */
function parentAlive() {
  try {
    // /proc/self/stat: "pid (comm) state ppid …"; the command name may hold spaces and parentheses.
    const stat = fs.readFileSync("/proc/self/stat", "latin1");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
  } catch {
    return true;
  }
}
