// DOCX: mammoth turns the document into HTML (headings by their Word styles, tables, lists), read like a page.
import JSZip from "jszip";
import { parseHTML } from "linkedom";
import mammoth from "mammoth";
import { blocksFromHtml, refuseDeepHtml } from "./html-blocks";
import { DocumentUnreadableError, tooMuchMemory, type ExtractedDocument } from "./types";

// Word's "Title" style is the document's name: as an h1 it becomes the title (the first h1) and the
// outermost section until the first Heading 1.
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh"];

/**
 * Reading a DOCX holds about 50 times its XML in memory (measured: 12.8 MB of document.xml, 100,000
 * paragraphs, peaked at 850 MB: mammoth's XML tree, its HTML, the page made of it). XML expanding past a
 * sixteenth of the budget cannot fit; below, the process's memory watch is the bound.
 */
const XML_SHARE_OF_BUDGET = 1 / 16;

/**
 * The document's text (`memoryMb`: its memory budget, see ExtractionLimits). Throws DocumentUnreadableError
 * for a damaged, protected or legacy file, and before anything is parsed when its XML expands past its share
 * of the budget (a zip bomb).
 */
export async function extractDocx(
  bytes: Uint8Array,
  signal: AbortSignal,
  memoryMb?: number,
): Promise<ExtractedDocument> {
  if (isOleCompoundFile(bytes)) {
    throw new DocumentUnreadableError(
      "The Word document is password-protected or in the old .doc format; save it as an unprotected .docx.",
    );
  }
  if (memoryMb !== undefined) await refuseXmlBomb(bytes, memoryMb, signal);
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
  // Tables in tables in tables (Word nests them as deep as asked) nest the HTML as deep.
  refuseDeepHtml(html);
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const { blocks, firstH1 } = blocksFromHtml(document.body);
  return { title: firstH1, pageCount: null, blocks, ocrPages: [] };
}

/** Encrypted .docx files (and legacy .doc) are OLE compound files, not zips. */
function isOleCompoundFile(bytes: Uint8Array): boolean {
  const magic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return magic.every((byte, index) => bytes[index] === byte);
}

/**
 * Pictures, fonts and embedded files, which mammoth is not asked to read (convertImage above): a photo is as
 * large inflated as packed, and would count against a document of pictures for nothing. Any other entry
 * counts, whatever its name, since a relationship may point mammoth at it as XML.
 */
const UNREAD_MEDIA = /\.(png|jpe?g|gif|bmp|tiff?|emf|wmf|wdp|jxr|svg|bin|ttf|odttf|fntdata)$/i;

/**
 * Inflates the zip's entries other than media and counts their true size, stopping at the share of the
 * budget: the sizes the zip's directory declares can lie. Nothing is kept.
 */
async function refuseXmlBomb(bytes: Uint8Array, memoryMb: number, signal: AbortSignal): Promise<void> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (error) {
    throw new DocumentUnreadableError("The Word document is damaged and could not be read.", { cause: error });
  }
  const limit = Math.floor(memoryMb * 1024 * 1024 * XML_SHARE_OF_BUDGET);
  let total = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir || UNREAD_MEDIA.test(entry.name)) continue;
    signal.throwIfAborted();
    const within = await new Promise<boolean>((resolve, reject) => {
      // JSZip's stream (readable-stream 2) has no async iterator: its events, paused for good at the limit.
      const stream = entry.nodeStream("nodebuffer");
      stream.on("data", (chunk: Buffer) => {
        total += chunk.length;
        if (total <= limit) return;
        stream.pause();
        stream.removeAllListeners();
        resolve(false);
      });
      stream.on("end", () => resolve(true));
      stream.on("error", (error: Error) =>
        reject(new DocumentUnreadableError("The Word document is damaged and could not be read.", { cause: error })),
      );
    });
    if (!within) {
      const mb = Math.round(limit / (1024 * 1024));
      throw tooMuchMemory(memoryMb, `unpacked, ${entry.name} and the parts before it take more than ${mb} MB`);
    }
  }
}
