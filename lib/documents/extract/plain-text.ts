// Plain text: paragraphs are what blank lines separate; a plain file has no title of its own.
import { BlockCollector, decodeText } from "./text";
import type { ExtractedDocument } from "./types";

export function extractPlainText(bytes: Uint8Array, charset: string | null): ExtractedDocument {
  const collector = new BlockCollector();
  for (const paragraph of decodeText(bytes, charset).split(/\n[ \t]*\n/)) collector.add(paragraph, [], null);
  return { title: null, pageCount: null, blocks: collector.blocks, ocrPages: [] };
}
