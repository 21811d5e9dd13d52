// One document read in a child process of its own (lib/documents/extract/isolated.ts starts it and watches
// its memory): the extraction's TypeScript sources through tsx, whatever runs the server (Next's build, tsx,
// vitest). It receives the document in one message and answers the document, or the error's name and
// message, then exits. Its parent gone (the server killed), it exits too rather than read on unseen.
import { register } from "tsx/esm/api";

process.on("disconnect", () => process.exit(0));
register();
// Listening before the (slow) import: a message that comes with nobody listening is lost.
const extraction = import("./index.ts");
process.once("message", async ({ bytes, contentType, limits, options }) => {
  let answer;
  try {
    const { extractDocument } = await extraction;
    answer = { document: await extractDocument(bytes, contentType, limits, options) };
  } catch (error) {
    answer = { error: { name: error?.name ?? "Error", message: error?.message ?? String(error) } };
  }
  process.send(answer, () => process.exit(0));
});
