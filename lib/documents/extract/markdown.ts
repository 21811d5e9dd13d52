// Markdown: headings (ATX and setext) build the section path; paragraphs, list items, table rows and fenced
// code blocks become blocks, with the markup a reader never sees (emphasis, link syntax, backticks) removed.
import { BlockCollector, cleanText, decodeText, SectionPath, titleText } from "./text";
import type { ExtractedDocument } from "./types";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// The opening only: the closing sequence is taken off by atxHeading, as a lazy `(.*?)` before an optional
// `[ \t]+#+` backtracks quadratically over a long line of blanks.
const ATX_OPENING = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const SETEXT_H1 = /^ {0,3}=+[ \t]*$/;
const SETEXT_H2 = /^ {0,3}-+[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?(.*)$/;
const BLOCKQUOTE = /^ {0,3}>[ \t]?/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:[ \t]*\S+/;
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

export function extractMarkdown(bytes: Uint8Array, charset: string | null): ExtractedDocument {
  const lines = withoutFrontMatter(decodeText(bytes, charset).split("\n"));
  const collector = new BlockCollector();
  const sections = new SectionPath();
  let title: string | null = null;
  let paragraph: string[] = [];
  let paragraphIsListItem = false;

  const heading = (level: number, raw: string) => {
    const text = cleanText(inlineText(raw));
    sections.enter(level, text);
    if (level === 1 && title === null) title = titleText(text);
  };
  const flush = () => {
    if (paragraph.length === 0) return;
    if (paragraph.length >= 2 && paragraph[0].includes("|") && TABLE_DELIMITER.test(paragraph[1])) {
      for (const row of [paragraph[0], ...paragraph.slice(2)]) collector.add(tableRow(row), sections.current, null);
    } else {
      collector.add(inlineText(paragraph.join("\n")), sections.current, null);
    }
    paragraph = [];
    paragraphIsListItem = false;
  };

  for (let index = 0; index < lines.length; index++) {
    let line = lines[index];
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1];
      const closing = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*$`);
      const code: string[] = [];
      for (index++; index < lines.length && !closing.test(lines[index]); index++) code.push(lines[index]);
      collector.add(code.join("\n"), sections.current, null);
      continue;
    }
    // A quote's text is text like any other; only its markers go.
    while (BLOCKQUOTE.test(line)) line = line.replace(BLOCKQUOTE, "");
    if (!line.trim() || /^\s*<!--.*-->\s*$/.test(line)) {
      flush();
      continue;
    }
    const atx = atxHeading(line);
    if (atx) {
      flush();
      heading(atx.level, atx.text);
      continue;
    }
    const underline = SETEXT_H1.test(line) ? 1 : SETEXT_H2.test(line) ? 2 : 0;
    if (underline && paragraph.length > 0 && !paragraphIsListItem) {
      heading(underline, paragraph.join(" "));
      paragraph = [];
      continue;
    }
    if (THEMATIC_BREAK.test(line) || REFERENCE_DEFINITION.test(line)) {
      flush();
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      paragraph = [item[1]];
      paragraphIsListItem = true;
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return { title, pageCount: null, blocks: collector.blocks, ocrPages: [] };
}

/** YAML front matter (a static-site generator's settings) is not the document's text. */
function withoutFrontMatter(lines: string[]): string[] {
  if (lines[0]?.trim() !== "---") return lines;
  const end = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  return end > 0 ? lines.slice(end + 1) : lines;
}

function tableRow(row: string): string {
  const cells = row
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/);
  return cells
    .map((cell) => cleanText(inlineText(cell)))
    .filter(Boolean)
    .join(" | ");
}

// Private-use characters stand in for code spans and escaped characters while the markup around them is
// removed, so `a*b*` in backticks or a \* keeps its asterisks.
const HOLD_START = "\uE000";
const HOLD_END = "\uE001";

/** An ATX heading's level and text (`## Text ##`), or null; in one pass over the line. */
function atxHeading(line: string): { level: number; text: string } | null {
  const opening = ATX_OPENING.exec(line);
  if (!opening) return null;
  let text = line.slice(opening[0].length).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end -= 1;
  // A closing sequence of #s counts only after a blank (or as the whole text): "C#" keeps its #.
  if (end < text.length && (end === 0 || text[end - 1] === " " || text[end - 1] === "\t"))
    text = text.slice(0, end).trimEnd();
  return { level: opening[1].length, text };
}

/** Inline HTML comments removed, with one scan (a regex retries every unclosed `<!--` to the end). */
function withoutComments(text: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf("<!--", from);
    if (open < 0) return out + text.slice(from);
    const close = text.indexOf("-->", open + 4);
    if (close < 0) return out + text.slice(from);
    out += text.slice(from, open);
    from = close + 3;
  }
}

const INLINE_MARKUP_MAX_CHARS = 10_000;

/** The text of inline Markdown: emphasis markers, link and image syntax, backticks and inline HTML removed. */
export function inlineText(markdown: string): string {
  // Markup is for people's paragraphs: a longer "paragraph" is kept as it is written, since the patterns below
  // retry from every opening marker (quadratic in its length).
  if (markdown.length > INLINE_MARKUP_MAX_CHARS) return decodeEntities(markdown);
  const held: string[] = [];
  const hold = (text: string) => `${HOLD_START}${held.push(text) - 1}${HOLD_END}`;
  let text = withoutComments(
    markdown
      .replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => hold(code))
      .replace(/\\([!-/:-@[-`{-~])/g, (_, character: string) => hold(character)),
  )
    .replace(/!\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])/g, "$1")
    .replace(/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<((?:https?|ftp|mailto):[^>\s]+|[^>\s@]+@[^>\s@]+)>/g, "$1")
    .replace(/<\/?[a-zA-Z][^>]*>/g, "")
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, "$1")
    .replace(/\*(?=[^\s*])([^*]*?[^\s*])\*/g, "$1")
    .replace(/(^|[^\p{L}\p{N}_])_(?=\S)([^_]*?\S)_(?![\p{L}\p{N}_])/gu, "$1$2")
    .replace(/\\\n/g, " ");
  text = decodeEntities(text);
  return text.replace(new RegExp(`${HOLD_START}(\\d+)${HOLD_END}`, "g"), (placeholder, index: string) => {
    return held[Number(index)] ?? placeholder;
  });
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  copy: "©",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== "#") return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
    const codePoint = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
  });
}
