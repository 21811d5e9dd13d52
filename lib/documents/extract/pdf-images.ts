// A PDF's images, as pdf.js decodes them: whether a page without text holds a scan (how many pages OCR would
// read) and the scan itself as a PNG for OCR. lib/documents/extract/pdf.ts reads the text layer.
import { getResolvedPDFJS, type getDocumentProxy } from "unpdf";
import { encodePng, type PixelKind } from "./ocr";
import { DocumentUnreadableError } from "./types";

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * Refuses a document with more pages to OCR than allowed before any is read. Counting text-less pages is
 * free; only when they are too many does each one's content (does it hold an image?) decide.
 */
export async function refuseTooMuchOcr(
  pdf: PdfDocument,
  scanned: boolean[],
  maxOcrPages: number,
  signal: AbortSignal,
): Promise<void> {
  const withoutText = scanned.flatMap((isScanned, index) => (isScanned ? [index + 1] : []));
  if (withoutText.length <= maxOcrPages) return;
  let withImage = 0;
  for (const number of withoutText) {
    signal.throwIfAborted();
    if (await hasImage(pdf, number)) withImage++;
    if (withImage > maxOcrPages) {
      throw new DocumentUnreadableError(
        `The PDF has more than ${maxOcrPages} scanned pages without text, more than can be read by OCR.`,
      );
    }
  }
}

type PdfImage = { width: number; height: number; kind?: number; data?: Uint8Array | Uint8ClampedArray };

/** The page's images, as pdf.js decodes them (shared images come from the document's object cache). */
async function pageImages(pdf: PdfDocument, number: number): Promise<PdfImage[]> {
  const { OPS } = await getResolvedPDFJS();
  const page = await pdf.getPage(number);
  try {
    const operators = await page.getOperatorList();
    const images: PdfImage[] = [];
    for (const [index, operator] of operators.fnArray.entries()) {
      const argument = operators.argsArray[index]?.[0];
      if (operator === OPS.paintInlineImageXObject && argument?.data) images.push(argument as PdfImage);
      if (operator !== OPS.paintImageXObject || typeof argument !== "string") continue;
      const objects = argument.startsWith("g_") ? page.commonObjs : page.objs;
      const image = await new Promise<PdfImage | null>((resolve) => {
        try {
          objects.get(argument, (value: unknown) => resolve((value as PdfImage | null) ?? null));
        } catch {
          resolve(null);
        }
      });
      if (image?.data && image.width > 0 && image.height > 0) images.push(image);
    }
    return images;
  } finally {
    page.cleanup();
  }
}

async function hasImage(pdf: PdfDocument, number: number): Promise<boolean> {
  return (await pageImages(pdf, number)).length > 0;
}

/** The page's largest image (the scan itself, not a logo stamped on it), as a PNG for OCR, or null. */
export async function largestImage(pdf: PdfDocument, number: number): Promise<Uint8Array | null> {
  const images = (await pageImages(pdf, number)).sort((a, b) => b.width * b.height - a.width * a.height);
  for (const image of images) {
    const kind = pixelKind(image);
    if (kind) return encodePng(image.data!, image.width, image.height, kind);
  }
  return null;
}

/** pdf.js's ImageKind (1 bit grey, RGB, RGBA), checked against the data's length; grey bytes when it has none. */
function pixelKind({ width, height, kind, data }: PdfImage): PixelKind | null {
  if (!data) return null;
  const pixels = width * height;
  if (kind === 1 && data.length === Math.ceil(width / 8) * height) return "gray1";
  if (data.length === pixels * 3) return "rgb8";
  if (data.length === pixels * 4) return "rgba8";
  if (data.length === pixels) return "gray8";
  return null;
}
