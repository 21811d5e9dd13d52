// PNG and JPEG: the image's text by OCR, as page 1 of 1.
import { recognizeParagraphs } from "./ocr";
import { BlockCollector } from "./text";
import { DocumentUnreadableError, type ExtractedDocument } from "./types";

/**
 * A decoded image takes width × height × 4 bytes (and OCR several copies): a small file can claim a huge
 * canvas (a decompression bomb). 40 megapixels is a 300 dpi scan of an A2 sheet.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

export async function extractImage(bytes: Uint8Array, signal: AbortSignal): Promise<ExtractedDocument> {
  const size = imageSize(bytes);
  if (!size) throw new DocumentUnreadableError("The image is damaged or not a PNG or JPEG image.");
  refuseOversizedImage(size.width, size.height);
  const collector = new BlockCollector();
  for (const paragraph of await recognizeParagraphs(bytes, signal)) collector.add(paragraph, [], 1);
  return { title: null, pageCount: 1, blocks: collector.blocks, ocrPages: [1] };
}

export function refuseOversizedImage(width: number, height: number): void {
  if (width * height > MAX_IMAGE_PIXELS) {
    const megapixels = Math.round((width * height) / 1_000_000);
    throw new DocumentUnreadableError(
      `The image is too large to read (${width} × ${height} pixels, ${megapixels} megapixels; ` +
        `the limit is ${MAX_IMAGE_PIXELS / 1_000_000}).`,
    );
  }
}

/** Width and height from a PNG's IHDR or a JPEG's start-of-frame header, read before anything is decoded. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const isPng = bytes.length >= 24 && bytes[0] === 0x89 && String.fromCharCode(...bytes.subarray(12, 16)) === "IHDR";
  if (isPng) return nonZero(view.getUint32(16), view.getUint32(20));
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1];
    // Fill bytes, and markers that stand alone without a length.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2;
      continue;
    }
    const length = view.getUint16(offset + 2);
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      if (offset + 9 > bytes.length) return null;
      return nonZero(view.getUint16(offset + 7), view.getUint16(offset + 5));
    }
    // The image data starts (SOS) or ends (EOI) before any frame header: not a JPEG we can read.
    if (marker === 0xda || marker === 0xd9 || length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

function nonZero(width: number, height: number): { width: number; height: number } | null {
  return width > 0 && height > 0 ? { width, height } : null;
}
