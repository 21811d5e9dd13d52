// What bounds one document's reading besides its size (issue 50, item 1): its nesting and the work that
// nesting costs (deeply nested HTML read for minutes), and its memory budget while the server's own event loop
// is busy (the reading process watches itself). In this process, as the server does: no database.
import fs from "node:fs";
import { describe, expect, test } from "vitest";
import { extractDocument, type ExtractionLimits } from "@/lib/documents/extract";
import { extractInWorker } from "@/lib/documents/extract/isolated";
import { docxBomb, pdfImageBomb } from "../helpers/bombs";

const LIMITS: ExtractionLimits = { maxPages: 10, maxOcrPages: 1, timeoutMs: 600_000 };
const MiB = 1024 * 1024;
const utf8 = (text: string) => new TextEncoder().encode(text);
const TOO_DEEP = "The document nests its elements more than 512 levels deep, so it was not read.";

/** `count` chains of `depth` nested `tag`s, each holding a sentence, in a page with its tags or bare. */
function nested(tag: string, depth: number, count: number, { bare = false } = {}): Uint8Array {
  const chain = `<${tag}>`.repeat(depth) + "A sentence at the bottom, with a comma." + `</${tag}>`.repeat(depth);
  const body = Array(count).fill(chain).join("\n");
  return utf8(bare ? body : `<!doctype html><html><head><title>Deep</title></head><body>${body}</body></html>`);
}

describe("deeply nested HTML", { timeout: 120_000 }, () => {
  test.each([
    ["100,000 nested <div>s in a page", nested("div", 100_000, 1)],
    ["100,000 unclosed <b>s", utf8("<b>".repeat(100_000) + "deep")],
    ["100,000 nested <span>s without <html> or <body>", nested("span", 100_000, 1, { bare: true })],
    ["<html>, <body> and 511 nested <div>s (513 levels)", nested("div", 511, 1)],
  ])("%s fail at once with the reason", async (_, bytes) => {
    const started = Date.now();
    await expect(extractDocument(bytes, "text/html", LIMITS)).rejects.toThrow(TOO_DEEP);
    // Before: minutes (Readability looks into every element's contents), or the stack's end.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("<html>, <body> and 510 nested <div>s (512 levels) still read", async () => {
    const started = Date.now();
    const document = await extractDocument(nested("div", 510, 1), "text/html", LIMITS);
    // Before: 14 s, in Readability (past 64 levels, the body is read).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(document.blocks.map((block) => block.text)).toEqual(["A sentence at the bottom, with a comma."]);
  });

  test("90,000 elements 128 deep read within seconds (past Readability's bounds, the body is read)", async () => {
    const started = Date.now();
    const document = await extractDocument(nested("div", 128, 700), "text/html", LIMITS);
    // Before: 32 to 34 s on this machine.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(document.blocks).toHaveLength(700);
    expect(new Set(document.blocks.map((block) => block.text))).toEqual(
      new Set(["A sentence at the bottom, with a comma."]),
    );
  });
});

/** A process's resident memory in bytes, or 0 once it is gone or a zombie (exited, not yet reaped). */
function residentBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "latin1"));
    return Number(match?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** This process's children running the reading script. */
function readingProcesses(): number[] {
  const pids: number[] = [];
  for (const thread of fs.readdirSync(`/proc/${process.pid}/task`)) {
    const listed = fs.readFileSync(`/proc/${process.pid}/task/${thread}/children`, "latin1").trim();
    for (const pid of listed ? listed.split(/\s+/).map(Number) : []) {
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, "latin1");
      if (command.includes("lib/documents/extract/worker.mjs")) pids.push(pid);
    }
  }
  return pids;
}

/** A process's CPU time so far (user and system, every thread) in clock ticks, or null once it is gone. */
function cpuTicks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 3 (state) … 15 (stime) of stat(5), counted from the state: a zombie has exited.
    return fields[0] === "Z" ? null : Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

async function until<T>(probe: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  for (const started = Date.now(); Date.now() - started < timeoutMs;) {
    const value = probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("the memory budget without the server's event loop", { timeout: 120_000 }, () => {
  test("a reading stays within its budget while the server's loop is blocked, and fails with the reason", async () => {
    const budgetMb = 384;
    const bomb = await pdfImageBomb(16, 6000);
    const outcome = extractInWorker(bomb, "application/pdf", {
      ...LIMITS,
      timeoutMs: 120_000,
      memoryMb: budgetMb,
    }).then(
      () => "read",
      (error: Error) => error.message,
    );
    const pid = await until(() => readingProcesses()[0], 30_000, "the reading process");
    // Decoding the images has begun (the process takes ~150 MB with its libraries loaded).
    await until(() => residentBytes(pid) > 220 * MiB, 60_000, "the reading to grow");

    // The server's loop blocked (a long synchronous task): its own watch of the child cannot run.
    let peak = 0;
    const blockedUntil = Date.now() + 20_000;
    while (Date.now() < blockedUntil) {
      const resident = residentBytes(pid);
      if (resident === 0) break;
      peak = Math.max(peak, resident);
    }
    const endedWhileBlocked = residentBytes(pid) === 0;

    console.info(`peak ${Math.round(peak / MiB)} MiB of a ${budgetMb} MB budget while the loop was blocked`);
    expect(endedWhileBlocked).toBe(true);
    // One poll's overshoot (20 ms of allocating), not the gigabytes of the 16 images.
    expect(peak).toBeLessThan((budgetMb + 160) * MiB);
    expect(await outcome).toBe(`The document needs more than ${budgetMb} MB of memory to read, so it was not read.`);
  });
});

describe("a long answer while the server's loop is blocked", { timeout: 120_000 }, () => {
  test("a document's reading whose text waits for the server to read it is kept, not killed mid-answer", async () => {
    // ~40 KB of file, 3 MB of text: far more than the channel to the server holds (a long PDF's text).
    const letters = 3 * MiB;
    const outcome = extractInWorker(
      await docxBomb(letters),
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      {
        ...LIMITS,
        timeoutMs: 120_000,
      },
    ).then(
      (document) => document.blocks.reduce((sum, block) => sum + block.text.length, 0),
      (error: Error) => error.message,
    );
    const pid = await until(() => readingProcesses()[0], 30_000, "the reading process");

    // The server's loop blocked until the reading is done and its answer waits to be taken (the process
    // idles: its CPU time stops growing for 2 s, past the 1 s it used to give its answer), or it is gone.
    let last = cpuTicks(pid);
    let idleSince = Date.now();
    for (const blockedUntil = Date.now() + 60_000; Date.now() < blockedUntil;) {
      const ticks = cpuTicks(pid);
      if (ticks === null) break;
      // Its memory and parent checks take a tick now and then; a reading takes every tick.
      if (last === null || ticks - last > 5) {
        last = ticks;
        idleSince = Date.now();
      }
      if (Date.now() - idleSince > 2_000) break;
    }
    const aliveWhenUnblocked = cpuTicks(pid) !== null;

    // Before: killed by its own 1 s timer mid-answer, "stopped (SIGKILL) without an answer".
    const read = await outcome;
    expect(typeof read === "number" ? "read" : read).toBe("read");
    expect(read).toBeGreaterThanOrEqual(letters);
    expect(aliveWhenUnblocked).toBe(true);
  });
});
