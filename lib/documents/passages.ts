import { CHUNK_MAX_CHARS, chunkText } from "@/lib/memory/store/chunking";
import type { ExtractedBlock } from "./extract";

/** One passage of a document: what becomes one memory, with where it is in the document. */
export interface Passage {
  page: number | null;
  section: string[];
  /** The passage as stored and embedded: its heading path on the first line, then its text. */
  content: string;
}

/** The longest heading a passage or its metadata repeats, and the longest heading path (a long "heading" is text). */
const HEADING_MAX_CHARS = 200;
const SECTION_MAX_CHARS = 500;

/** How a heading path reads in a passage and in its metadata: "Benefits > Parental leave", cut to length. */
export function sectionLabel(section: readonly string[]): string {
  const label = section.map((heading) => cut(heading, HEADING_MAX_CHARS)).join(" > ");
  return cut(label, SECTION_MAX_CHARS);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * A document's passages, following its structure: consecutive paragraphs of the same page and section are
 * joined up to a chunk's length, never across a page or a heading; a paragraph longer than a chunk is split
 * at sentences. Each passage starts with its heading path, so a passage deep in a section still says what
 * it is about (and a match can be cited by page and section).
 */
export function passagesOf(blocks: readonly ExtractedBlock[]): Passage[] {
  const passages: Passage[] = [];
  let current: { page: number | null; section: string[]; texts: string[]; length: number } | null = null;
  const flush = () => {
    if (!current) return;
    const heading = sectionLabel(current.section);
    const body = current.texts.join("\n\n");
    passages.push({ page: current.page, section: current.section, content: heading ? `${heading}\n${body}` : body });
    current = null;
  };
  for (const block of blocks) {
    // The heading path is at most SECTION_MAX_CHARS: a passage always has room for three times as much text.
    const room = CHUNK_MAX_CHARS - sectionLabel(block.section).length - 1;
    const pieces =
      block.text.length > room ? chunkText(block.text).flatMap((piece) => split(piece, room)) : [block.text];
    for (const piece of pieces) {
      const same =
        current &&
        current.page === block.page &&
        sectionLabel(current.section) === sectionLabel(block.section) &&
        current.length + 2 + piece.length <= room;
      if (!same) {
        flush();
        current = { page: block.page, section: block.section, texts: [], length: 0 };
      }
      current!.texts.push(piece);
      current!.length += (current!.texts.length > 1 ? 2 : 0) + piece.length;
    }
  }
  flush();
  return passages;
}

/** A piece still longer than the room a heading leaves, cut at white space. */
function split(text: string, room: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > room) {
    const space = rest.lastIndexOf(" ", room);
    const at = space > room / 2 ? space : room;
    pieces.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}
