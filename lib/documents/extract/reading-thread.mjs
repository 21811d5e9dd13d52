// The thread that reads one document inside its child process (./worker.mjs starts it and watches the
// process): the extraction's TypeScript sources through tsx, whatever runs the server (Next's build, tsx,
// vitest). It answers the document, or the error's name and message, in one message.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
// Listening before the (slow) import: a message that comes with nobody listening is lost.
const extraction = import("./index.ts");
parentPort.once("message", async ({ bytes, contentType, limits, options }) => {
  let answer;
  try {
    const { extractDocument } = await extraction;
    answer = { document: await extractDocument(bytes, contentType, limits, options) };
  } catch (error) {
    answer = { error: { name: error?.name ?? "Error", message: error?.message ?? String(error) } };
  }
  parentPort.postMessage(answer);
});
