// The shapes every extractor returns, in a file of their own so the per-format files and the index can all
// import them without an import cycle (index.ts re-exports them).

export interface ExtractedBlock {
  /** 1-based page number for paged formats (PDF) and 1 for a single image; null for DOCX, HTML, Markdown, text. */
  page: number | null;
  /** The heading path this block sits under, outermost first, e.g. ["Benefits", "Parental leave"]; [] when none. */
  section: string[];
  /** One paragraph (or table row group / list) of plain text, whitespace-normalized, never empty. */
  text: string;
}

export interface ExtractedDocument {
  /** From the file's own metadata/first heading/<title>, or null. */
  title: string | null;
  /** Pages for a PDF (its page count) and 1 for an image; null for formats without pages. */
  pageCount: number | null;
  /** Blocks in reading order. */
  blocks: ExtractedBlock[];
  /** Pages that had no text layer and were read by OCR (PDF), or [1] for an image. */
  ocrPages: number[];
}

export interface ExtractionLimits {
  maxPages: number;
  maxOcrPages: number;
  timeoutMs: number;
  /**
   * The memory the reading may use, in MB (lib/documents/extract/isolated.ts stops its process past it): the
   * readers refuse sooner, with a precise reason, what would clearly need more. Unset: no reader check.
   */
  memoryMb?: number;
}

/**
 * Thrown when a file of a supported type cannot be read (corrupt, encrypted, too many pages, OCR failed): its
 * message is shown to users as the document's error, so it is a clear sentence.
 */
export class DocumentUnreadableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DocumentUnreadableError";
  }
}

/** The reason a document fails when reading it would take more than its memory budget (`detail`: what did). */
export function tooMuchMemory(memoryMb: number, detail?: string): DocumentUnreadableError {
  return new DocumentUnreadableError(
    `The document needs more than ${memoryMb} MB of memory to read${detail ? ` (${detail})` : ""}, so it was not read.`,
  );
}
