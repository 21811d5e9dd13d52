// PDF: the text layer of each page, put back in reading order (columns one after the other, lines joined
// into paragraphs, larger type as headings); a page without a text layer is read by OCR of its scanned image.
import { getDocumentProxy } from "unpdf";
import { MAX_IMAGE_PIXELS } from "./image";
import { largestImage, type PdfDocument, refuseTooMuchOcr } from "./pdf-images";
import { recognizeParagraphs } from "./ocr";
import { BlockCollector, cleanText, joinLines, SectionPath, titleText } from "./text";
import { DocumentUnreadableError, type ExtractedDocument, type ExtractionLimits } from "./types";

type PdfPage = Awaited<ReturnType<PdfDocument["getPage"]>>;
type TextItem = Extract<Awaited<ReturnType<PdfPage["getTextContent"]>>["items"][number], { str: string }>;

/** A run of text as the page places it: baseline at y (points, upwards), from x0 to x1, in a size of type. */
interface Run {
  text: string;
  x0: number;
  x1: number;
  y: number;
  size: number;
  /** Rotated text (a stamp up the margin, a sideways table) has no place among the page's lines. */
  rotated?: boolean;
}

/** One line of a column (or one spanning the columns), ready to be joined into paragraphs. */
interface Line extends Run {
  /** Which flow it belongs to: a column of a band, or a spanning line; a new flow starts a new paragraph. */
  flow: string;
}

export async function extractPdf(
  bytes: Uint8Array,
  limits: ExtractionLimits,
  signal: AbortSignal,
): Promise<ExtractedDocument> {
  const pdf = await openPdf(bytes);
  try {
    if (pdf.numPages > limits.maxPages) {
      throw new DocumentUnreadableError(
        `The PDF has ${pdf.numPages} pages, more than the ${limits.maxPages} a document may have.`,
      );
    }
    if (pdf.numPages === 0) throw new DocumentUnreadableError("The PDF has no pages.");
    const info = (await pdf.getMetadata().catch(() => null))?.info as Record<string, unknown> | undefined;
    const infoTitle =
      typeof info?.Title === "string" && !PLACEHOLDER_TITLE.test(info.Title) ? titleText(info.Title) : null;

    const pages: Run[][] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      signal.throwIfAborted();
      const page = await pdf.getPage(number);
      pages.push(runsOf((await page.getTextContent()).items.filter((item): item is TextItem => "str" in item)));
      page.cleanup();
    }
    const bodySize = bodyFontSize(pages.flat());
    withoutRunningHeaders(pages, bodySize);
    await refuseTooMuchOcr(pdf, pages.map(lacksTextLayer), limits.maxOcrPages, signal);

    const collector = new BlockCollector();
    const sections = new SectionPath();
    const ocrPages: number[] = [];
    let firstHeading: string | null = null;
    for (const [index, runs] of pages.entries()) {
      const number = index + 1;
      for (const paragraph of paragraphsOf(orderLines(runs), bodySize)) {
        if (paragraph.heading) {
          sections.enter(-paragraph.size, paragraph.text);
          firstHeading ??= titleText(paragraph.text);
        } else {
          collector.add(paragraph.text, sections.current, number);
        }
      }
      if (!lacksTextLayer(runs)) continue;
      const image = await largestImage(pdf, number);
      signal.throwIfAborted();
      if (!image) continue;
      ocrPages.push(number);
      for (const paragraph of await recognizeParagraphs(image, signal)) {
        collector.add(paragraph, sections.current, number);
      }
    }
    return { title: infoTitle ?? firstHeading, pageCount: pdf.numPages, blocks: collector.blocks, ocrPages };
  } catch (error) {
    if (error instanceof DocumentUnreadableError || signal.aborted) throw error;
    throw new DocumentUnreadableError("The PDF is damaged and could not be read.", { cause: error });
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

/** Titles that name the file a PDF was made from rather than the document: the first heading does better. */
const PLACEHOLDER_TITLE =
  /^\s*(?:untitled.*|microsoft (?:word|powerpoint) - .*|.*\.(?:docx?|pptx?|pdf|tex|dvi|rtf|indd))\s*$/i;

async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  try {
    // A copy: pdf.js takes over (detaches) the buffer it is given, and the caller's bytes stay the caller's.
    return await getDocumentProxy(new Uint8Array(bytes), {
      isEvalSupported: false,
      disableFontFace: true,
      // Text comes from the fonts' encodings and pdf.js's built-in metrics: no font files are fetched or read.
      useSystemFonts: false,
      standardFontDataUrl: undefined,
      useWorkerFetch: false,
      // The same decompression-bomb limit as for images: pdf.js refuses to decode a larger picture.
      maxImageSize: MAX_IMAGE_PIXELS,
      verbosity: 0,
    });
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    if (name === "PasswordException") {
      throw new DocumentUnreadableError("The PDF is protected by a password, so it could not be read.", {
        cause: error,
      });
    }
    throw new DocumentUnreadableError("The file is not a valid PDF or is damaged, so it could not be read.", {
      cause: error,
    });
  }
}

/**
 * A scanned page: no text layer, or only a scanner's stamp such as a page number (read with the rest by
 * OCR, since it is usually on the scan too).
 */
function lacksTextLayer(runs: Run[]): boolean {
  return runs.reduce((count, run) => count + run.text.replace(/\s/g, "").length, 0) < 10;
}

/** The text items as runs, without the empty ones and without the spaces pdf.js sends as items of their own. */
function runsOf(items: TextItem[]): Run[] {
  const runs: Run[] = [];
  for (const item of items) {
    if (!item.str.trim()) continue;
    const [a, b, c, d, x, y] = item.transform as number[];
    const rotated = Math.abs(b) > 0.01 || Math.abs(c) > 0.01 || a < 0 || d < 0;
    const size = Math.hypot(c, d) || Math.abs(item.height) || 1;
    if (![x, y, size].every(Number.isFinite)) continue;
    const width = item.width > 0 ? item.width : item.str.length * size * 0.5;
    runs.push({ text: item.str, x0: x, x1: x + width, y, size, rotated });
  }
  return runs;
}

// Loops, not Math.min(...values): a page of single-glyph items can hold more runs than a call has arguments.
function minOf<T>(values: T[], value: (item: T) => number): number {
  return values.reduce((least, item) => Math.min(least, value(item)), Infinity);
}
function maxOf<T>(values: T[], value: (item: T) => number): number {
  return values.reduce((most, item) => Math.max(most, value(item)), -Infinity);
}

const ROMAN_NUMERAL = "(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})";
const PAGE_NUMBER = new RegExp(
  `^\\W*(?:page\\s*)?(?:\\d{1,5}|${ROMAN_NUMERAL})(?:\\s*(?:of|/)\\s*\\d{1,5})?\\W*$`,
  "i",
);

/**
 * Removes running headers and footers, which would otherwise interrupt paragraphs that go on over a page
 * break and fill search results with the document's name: the top or bottom line of a page when it is a
 * page number, or when the same line (digits aside) tops or ends at least two other pages. Not a heading:
 * a title page's title is often the running header's text too.
 */
function withoutRunningHeaders(pages: Run[][], bodySize: number): void {
  const edges = pages.map((runs) => {
    const rows = rowsOf(runs.filter((run) => !run.rotated));
    return rows.length < 2 ? [] : [rows[0], rows[rows.length - 1]];
  });
  const key = (row: Run[]) => cleanText(mergeRow(row).text).toLowerCase().replace(/\d+/g, "#");
  const pagesWith = new Map<string, number>();
  for (const rows of edges) {
    for (const text of new Set(rows.map(key))) pagesWith.set(text, (pagesWith.get(text) ?? 0) + 1);
  }
  edges.forEach((rows, index) => {
    const running = rows.filter((row) => {
      const line = mergeRow(row);
      if (line.size >= bodySize * 1.2) return false;
      return PAGE_NUMBER.test(line.text) || pagesWith.get(key(row))! >= 3;
    });
    if (running.length > 0) pages[index] = pages[index].filter((run) => !running.some((row) => row.includes(run)));
  });
}

/** The size most of the document's characters are set in (to the half point): what a heading is larger than. */
function bodyFontSize(runs: Run[]): number {
  const characters = new Map<number, number>();
  for (const run of runs) {
    const size = Math.round(run.size * 2) / 2;
    characters.set(size, (characters.get(size) ?? 0) + run.text.length);
  }
  let best = 0;
  let bestCount = -1;
  for (const [size, count] of characters) {
    if (count > bestCount) [best, bestCount] = [size, count];
  }
  return best || 12;
}

/**
 * The page's lines in reading order. Columns are found from the gutters between them (a vertical strip no
 * run crosses, or only the few that span the page, such as a title); the runs that do cross split the page
 * into bands, and within a band each column is read top to bottom before the next.
 */
function orderLines(runs: Run[]): Line[] {
  const upright = runs.filter((run) => !run.rotated);
  // Kept as text, but after everything else: where it belongs in the reading order is anyone's guess.
  const rotated = runs.filter((run) => run.rotated);
  const segments = rowsOf(upright).flatMap(splitAtWideGaps);
  const gutters = findGutters(segments);
  const crosses = (segment: Run) => gutters.some((gutter) => segment.x0 < gutter.start && segment.x1 > gutter.end);
  const columnOf = (segment: Run) => gutters.filter((gutter) => (segment.x0 + segment.x1) / 2 > gutter.end).length;

  const lines: Line[] = [];
  let band: Run[] = [];
  let bandNumber = 0;
  const flushBand = () => {
    if (band.length === 0) return;
    for (let column = 0; column <= gutters.length; column++) {
      const inColumn = band.filter((segment) => columnOf(segment) === column);
      for (const row of rowsOf(inColumn)) lines.push({ ...mergeRow(row), flow: `${bandNumber}:${column}` });
    }
    band = [];
    bandNumber++;
  };
  const byHeight = [...segments].sort((a, b) => b.y - a.y || a.x0 - b.x0);
  for (const segment of byHeight) {
    if (!crosses(segment)) {
      band.push(segment);
      continue;
    }
    flushBand();
    const flow = `spanning:${bandNumber}`;
    const previous = lines[lines.length - 1];
    // Two spanning runs on one baseline are one line (a title split by a wide gap in the middle of it).
    if (previous?.flow === flow && Math.abs(previous.y - segment.y) < segment.size * 0.4) {
      lines[lines.length - 1] = { ...mergeRow([previous, segment]), flow };
    } else {
      lines.push({ ...segment, flow });
    }
  }
  flushBand();
  for (const run of rotated) lines.push({ ...run, flow: "rotated" });
  return lines;
}

/** Runs grouped by baseline (superscripts and small size changes included), top row first, each left to right. */
function rowsOf(runs: Run[]): Run[][] {
  const rows: Run[][] = [];
  for (const run of [...runs].sort((a, b) => b.y - a.y)) {
    const row = rows[rows.length - 1];
    const tolerance = Math.max(run.size, row?.[0].size ?? 0) * 0.4;
    if (row && Math.abs(row[0].y - run.y) <= tolerance) row.push(run);
    else rows.push([run]);
  }
  return rows.map((row) => row.sort((a, b) => a.x0 - b.x0));
}

/** A row split where a horizontal gap is wider than a word space could be: a gutter, or a table's cells. */
function splitAtWideGaps(row: Run[]): Run[] {
  const segments: Run[][] = [[row[0]]];
  for (const run of row.slice(1)) {
    const current = segments[segments.length - 1];
    const previous = current[current.length - 1];
    if (run.x0 - previous.x1 > Math.max(run.size, previous.size) * 0.8) segments.push([run]);
    else current.push(run);
  }
  return segments.map(mergeRow);
}

/** Runs of one row as one, with a space where the gap between two of them is a word space. */
function mergeRow(row: Run[]): Run {
  let text = row[0].text;
  for (let index = 1; index < row.length; index++) {
    const previous = row[index - 1];
    const run = row[index];
    const spaced = /\s$/.test(text) || /^\s/.test(run.text) || run.x0 - previous.x1 <= run.size * 0.15;
    text += spaced ? run.text : ` ${run.text}`;
  }
  return {
    text,
    x0: minOf(row, (run) => run.x0),
    x1: maxOf(row, (run) => run.x1),
    y: row[0].y,
    size: maxOf(row, (run) => run.size),
  };
}

interface Gutter {
  start: number;
  end: number;
}

/**
 * The vertical strips between columns: at least a type size wide, crossed by few segments (a title, a
 * figure caption) and with a good share of the text on either side, level with each other. A table's
 * columns inside a page of prose do not qualify, since the prose's lines cross them.
 */
function findGutters(segments: Run[]): Gutter[] {
  if (segments.length < 6) return [];
  const left = Math.floor(minOf(segments, (segment) => segment.x0));
  const right = Math.ceil(maxOf(segments, (segment) => segment.x1));
  if (right - left > 5000) return [];
  const coverage = new Array<number>(right - left).fill(0);
  for (const segment of segments) {
    for (let x = Math.ceil(segment.x0); x < segment.x1; x++) coverage[x - left]++;
  }
  const allowedCrossings = Math.max(1, Math.floor(segments.length * 0.15));
  const sizes = segments.map((segment) => segment.size).sort((a, b) => a - b);
  const minWidth = Math.max(6, sizes[Math.floor(sizes.length / 2)] * 0.8);
  const totalCharacters = segments.reduce((sum, segment) => sum + segment.text.length, 0);

  const gutters: Gutter[] = [];
  let runStart = -1;
  for (let index = 0; index <= coverage.length; index++) {
    const open = index < coverage.length && coverage[index] <= allowedCrossings;
    if (open && runStart < 0) runStart = index;
    if (open || runStart < 0) continue;
    const gutter = { start: left + runStart, end: left + index };
    runStart = -1;
    if (gutter.end - gutter.start < minWidth) continue;
    const middle = (gutter.start + gutter.end) / 2;
    const crossing = (segment: Run) => segment.x0 < gutter.start && segment.x1 > gutter.end;
    const before = segments.filter((segment) => !crossing(segment) && (segment.x0 + segment.x1) / 2 < middle);
    const after = segments.filter((segment) => !crossing(segment) && (segment.x0 + segment.x1) / 2 >= middle);
    const share = (side: Run[]) => side.reduce((sum, segment) => sum + segment.text.length, 0) / totalCharacters;
    if (before.length < 3 || after.length < 3 || share(before) < 0.15 || share(after) < 0.15) continue;
    if (!levelWithEachOther(before, after)) continue;
    gutters.push(gutter);
  }
  return gutters;
}

/** Whether two sides of a strip share most of their height, as columns do (and a margin note does not). */
function levelWithEachOther(a: Run[], b: Run[]): boolean {
  const top = (side: Run[]) => maxOf(side, (segment) => segment.y);
  const bottom = (side: Run[]) => minOf(side, (segment) => segment.y);
  const overlap = Math.min(top(a), top(b)) - Math.max(bottom(a), bottom(b));
  return overlap > 0.5 * Math.min(top(a) - bottom(a), top(b) - bottom(b));
}

interface Paragraph {
  text: string;
  size: number;
  heading: boolean;
}

/**
 * Lines joined into paragraphs. A new one starts with a new flow (column, band), a change of type size, a
 * gap between lines noticeably taller than the usual line spacing, or a line indented after a full line.
 * A paragraph of short lines in clearly larger type than the body is a heading.
 */
function paragraphsOf(lines: Line[], bodySize: number): Paragraph[] {
  const pitch = usualLineSpacing(lines);
  const extents = new Map<string, { x0: number; x1: number }>();
  for (const line of lines) {
    const extent = extents.get(line.flow);
    extents.set(line.flow, {
      x0: Math.min(extent?.x0 ?? Infinity, line.x0),
      x1: Math.max(extent?.x1 ?? -Infinity, line.x1),
    });
  }
  const paragraphs: Paragraph[] = [];
  let current: Line[] = [];
  const flush = () => {
    if (current.length === 0) return;
    const text = joinLines(current.map((line) => line.text));
    const size = Math.round(maxOf(current, (line) => line.size) * 2) / 2;
    const heading =
      size >= bodySize * 1.2 && text.length <= 200 && /\p{L}/u.test(text) && current[0].flow !== "rotated";
    paragraphs.push({ text, size, heading });
    current = [];
  };
  for (const line of lines) {
    const previous = current[current.length - 1];
    if (previous && startsParagraph(previous, line, current, pitch, extents.get(line.flow)!)) flush();
    current.push(line);
  }
  flush();
  return paragraphs;
}

const BULLET = /^\s*[•◦▪▫●○■□‣⁃∙·–*]\s/u;

function startsParagraph(
  previous: Line,
  line: Line,
  paragraph: Line[],
  pitch: number,
  flow: { x0: number; x1: number },
): boolean {
  if (line.flow !== previous.flow) return true;
  if (BULLET.test(line.text)) return true;
  if (Math.abs(line.size - previous.size) > 0.6) return true;
  const gap = previous.y - line.y;
  // Lines of large type (a two-line heading) are set further apart than the body's.
  if (gap <= 0 || gap > Math.max(pitch * 1.3 + 0.5, line.size * 1.6)) return true;
  // The first line of a paragraph set off by its indent, after a line that was not a first line itself
  // (a list item's run-on lines are indented under its first).
  const indent = line.x0 - previous.x0;
  if (paragraph.length > 1 && indent > line.size * 0.8) return true;
  // After a paragraph's short last line, ending its sentence, a capital starts the next one.
  const width = flow.x1 - flow.x0;
  return (
    previous.x1 - previous.x0 < width * 0.6 && /[.!?:]["'”’)]?$/.test(previous.text) && /^[\p{Lu}\d]/u.test(line.text)
  );
}

/** The most common distance between the baselines of consecutive lines of a flow, in points. */
function usualLineSpacing(lines: Line[]): number {
  const gaps: number[] = [];
  for (let index = 1; index < lines.length; index++) {
    const [previous, line] = [lines[index - 1], lines[index]];
    const gap = previous.y - line.y;
    if (line.flow === previous.flow && Math.abs(line.size - previous.size) <= 0.6 && gap > 0 && gap < line.size * 3) {
      gaps.push(gap);
    }
  }
  if (gaps.length === 0) return (lines[0]?.size ?? 12) * 1.2;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)];
}
