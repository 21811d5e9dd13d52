// DOCX: mammoth turns the document into HTML (headings by their Word styles, tables, lists), read like a page.
import { parseHTML } from "linkedom";
import mammoth from "mammoth";
import { blocksFromHtml } from "./html-blocks";
import { DocumentUnreadableError, type ExtractedDocument } from "./types";

// Word's "Title" style is the document's name: as an h1 it becomes the title (the first h1) and the
// outermost section until the first Heading 1.
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh"];

export async function extractDocx(bytes: Uint8Array, signal: AbortSignal): Promise<ExtractedDocument> {
  if (isOleCompoundFile(bytes)) {
    throw new DocumentUnreadableError(
      "The Word document is password-protected or in the old .doc format; save it as an unprotected .docx.",
    );
  }
  let html: string;
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Images would come back as data URLs, megabytes of them, for no text at all.
    const ignoreImages = mammoth.images.imgElement(async () => ({ src: "" }));
    html = (await mammoth.convertToHtml({ buffer }, { styleMap: STYLE_MAP, convertImage: ignoreImages })).value;
  } catch (error) {
    throw new DocumentUnreadableError("The Word document is damaged and could not be read.", { cause: error });
  }
  signal.throwIfAborted();
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const { blocks, firstH1 } = blocksFromHtml(document.body);
  return { title: firstH1, pageCount: null, blocks, ocrPages: [] };
}

/** Encrypted .docx files (and legacy .doc) are OLE compound files, not zips. */
function isOleCompoundFile(bytes: Uint8Array): boolean {
  const magic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return magic.every((byte, index) => bytes[index] === byte);
}
