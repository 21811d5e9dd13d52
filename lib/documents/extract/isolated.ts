// Reading a document in a child process of its own: a file crafted to be slow (quadratic parsing) or to
// expand (a decompression bomb, thousands of decoded pixels) takes that process's time and memory, never the
// server's. A worker thread's heap limit did not cover what the readers spend outside the heap (decoded
// images, inflated streams and zip entries, OCR's WebAssembly): a process's resident memory counts all of it,
// so it is watched and the process killed past the budget. The readers refuse sooner what clearly needs more
// (with a precise reason); this is the bound for the bombs nobody thought of. At most
// DOCUMENT_EXTRACTION_CONCURRENCY documents are read at once, so the server's memory stays within its own
// plus budget × concurrency whatever is uploaded. The child watches its own memory and its parent from a main
// thread that never reads (worker.mjs): the budget holds while this server's event loop is busy, and a
// reading ends the moment the server dies. The watch here is the second line.
import fs from "node:fs";
import path from "node:path";
import pLimit, { type LimitFunction } from "p-limit";
import { projectRoot, setting } from "@/lib/config";
import { DocumentUnreadableError, tooMuchMemory, type ExtractedDocument, type ExtractionLimits } from "./types";

// Taken at run time, out of the bundler's sight: Next's bundler would rewrite `fork(...)` of a file into a
// chunk of its own, while the child must run the script beside this file.
const { fork } = process.getBuiltinModule("node:child_process") as typeof import("node:child_process");

/** How often the child's resident memory is read: fast enough that an allocation spree overshoots little. */
const MEMORY_POLL_MS = 25;

type ChildAnswer = { document: ExtractedDocument } | { error: { name: string; message: string } };

let slots: LimitFunction | undefined;
/** The process-wide turns of extractions, as many as the setting says now. */
function extractionSlots(): LimitFunction {
  const concurrency = setting("DOCUMENT_EXTRACTION_CONCURRENCY");
  slots ??= pLimit(concurrency);
  if (slots.concurrency !== concurrency) slots.concurrency = concurrency;
  return slots;
}

/** How many extractions run now and wait for their turn (tests, diagnostics). */
export function extractionLoad(): { running: number; waiting: number } {
  return { running: slots?.activeCount ?? 0, waiting: slots?.pendingCount ?? 0 };
}

/**
 * extractDocument (./index.ts) in a child process, once one of the DOCUMENT_EXTRACTION_CONCURRENCY turns is
 * free. Its memory (resident: heap, buffers, WebAssembly, threads) may not pass `limits.memoryMb`
 * (DOCUMENT_EXTRACTION_MEMORY_MB when unset) and its time `limits.timeoutMs` (counted from its start, not its
 * wait): past either it is killed and the document is unreadable (DocumentUnreadableError, with the reason).
 * A child that dies of anything else rejects with a plain Error (ingest-document.ts fails the document with a
 * general reason, except when the child could not be started at all: that is tried again).
 */
export function extractInWorker(
  bytes: Uint8Array,
  contentType: string,
  limits: ExtractionLimits,
  options: { baseUrl?: string } = {},
): Promise<ExtractedDocument> {
  const budgeted = { ...limits, memoryMb: limits.memoryMb ?? setting("DOCUMENT_EXTRACTION_MEMORY_MB") };
  return extractionSlots()(() => extractInChild(bytes, contentType, budgeted, options));
}

function extractInChild(
  bytes: Uint8Array,
  contentType: string,
  limits: ExtractionLimits & { memoryMb: number },
  options: { baseUrl?: string },
): Promise<ExtractedDocument> {
  const seconds = Math.round(limits.timeoutMs / 100) / 10;
  const budgetKb = limits.memoryMb * 1024;
  return new Promise((resolve, reject) => {
    const script = path.join(projectRoot(), "lib/documents/extract/worker.mjs");
    const child = fork(script, [String(limits.memoryMb), tooMuchMemory(limits.memoryMb).message], {
      // Not the server's own flags (a loader, inspector): the heap's own limit is the budget, which the
      // resident-memory watches (the child's own, and this one) enforce for everything else.
      execArgv: [`--max-old-space-size=${limits.memoryMb}`],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4096);
    });
    let settled = false;
    let overBudget = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      outcome();
      child.kill("SIGKILL");
    };
    const watch = setInterval(() => {
      const residentKb = residentMemoryKb(child.pid);
      if (residentKb === null || residentKb <= budgetKb) return;
      overBudget = true;
      settle(() => reject(tooMuchMemory(limits.memoryMb)));
    }, MEMORY_POLL_MS);
    // A little after the extraction's own limit, which answers with its own message when the child is free.
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(new DocumentUnreadableError(`Reading the document took longer than ${seconds} s, so it was stopped.`)),
        ),
      limits.timeoutMs + 5_000,
    );
    child.on("message", (answer: ChildAnswer) =>
      settle(() => {
        if ("document" in answer) return resolve(answer.document);
        const { name, message } = answer.error;
        reject(name === "DocumentUnreadableError" ? new DocumentUnreadableError(message) : new Error(message));
      }),
    );
    child.on("error", (error) => settle(() => reject(error)));
    // "close", not "exit": the child kills itself right after its answer is written, and "exit" can be handled
    // before that last message is read; "close" comes once its channel and streams are drained.
    child.on("close", (code, signal) =>
      settle(() => {
        // V8 gives up at its heap limit (the budget) with this line, and aborts.
        if (overBudget || /heap out of memory|Allocation failed/i.test(stderr)) {
          return reject(tooMuchMemory(limits.memoryMb));
        }
        reject(
          new Error(`the document's reading process stopped (${signal ?? `exit code ${code}`}) without an answer`),
        );
      }),
    );
    child.send({ bytes, contentType, limits, options });
  });
}

/** A process's resident memory (VmRSS) in KiB from /proc, or null where there is none (not Linux, gone). */
function residentMemoryKb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "latin1"));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
