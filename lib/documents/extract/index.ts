// Documents (files and web pages) as structured text: blocks of plain text in reading order, each with its
// page and heading path. Nothing here touches the network or runs a document's scripts.
import { DOCX, HTML, JPEG, MARKDOWN, parseContentType, PDF, PLAIN_TEXT, PNG } from "./content-type";
import { withinTimeLimit } from "./deadline";
import { extractDocx } from "./docx";
import { extractHtml } from "./html";
import { extractImage } from "./image";
import { extractMarkdown } from "./markdown";
import { extractPdf } from "./pdf";
import { extractPlainText } from "./plain-text";
import { hasVisibleText } from "../../validation/strings";
import { cleanText } from "./text";
import { DocumentUnreadableError, type ExtractedDocument, type ExtractionLimits } from "./types";

export { detectContentType, notTextReason, SUPPORTED_CONTENT_TYPES } from "./content-type";
export { closeOcr } from "./ocr";
export { DocumentUnreadableError } from "./types";
export type { ExtractedBlock, ExtractedDocument, ExtractionLimits } from "./types";

/**
 * The document's text. `contentType` is one of SUPPORTED_CONTENT_TYPES (detectContentType's answer); a
 * charset parameter, if given, says how a text format is encoded. Throws DocumentUnreadableError, with a
 * sentence to show, when the file cannot be read or takes longer than `limits.timeoutMs`.
 */
export async function extractDocument(
  bytes: Uint8Array,
  contentType: string,
  limits: ExtractionLimits,
  options: { baseUrl?: string } = {},
): Promise<ExtractedDocument> {
  const { type, charset } = parseContentType(contentType);
  const document = await withinTimeLimit(limits.timeoutMs, async (signal) => {
    switch (type) {
      case PDF:
        return extractPdf(bytes, limits, signal);
      case DOCX:
        return extractDocx(bytes, signal, limits.memoryMb);
      case HTML:
        return extractHtml(bytes, charset, signal, options.baseUrl);
      case MARKDOWN:
        return extractMarkdown(bytes, charset);
      case PLAIN_TEXT:
        return extractPlainText(bytes, charset);
      case PNG:
      case JPEG:
        return extractImage(bytes, signal);
      default:
        throw new DocumentUnreadableError(`Documents of type ${type || "(none)"} cannot be read.`);
    }
  });
  const title = cleanText(document.title ?? "");
  // A file's title of only invisible characters (a PDF's Title of U+200B) is no title: the next one is used.
  return { ...document, title: hasVisibleText(title) ? title : null };
}
