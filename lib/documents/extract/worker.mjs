// One document read in a thread of its own (lib/documents/extract/isolated.ts starts it): the extraction's
// TypeScript sources through tsx, whatever runs the server (Next's build, tsx, vitest). What it answers is
// the document, or the error's name and message.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { extractDocument } = await import("./index.ts");
try {
  const { bytes, contentType, limits, options } = workerData;
  const document = await extractDocument(bytes, contentType, limits, options);
  parentPort.postMessage({ document });
} catch (error) {
  parentPort.postMessage({ error: { name: error?.name ?? "Error", message: error?.message ?? String(error) } });
}
