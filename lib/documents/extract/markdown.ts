// Markdown: headings (ATX and setext) build the section path; paragraphs, list items, table rows and fenced
// code blocks become blocks, with the markup a reader never sees (emphasis, link syntax, backticks) removed.
import { BlockCollector, cleanText, decodeText, SectionPath } from "./text";
import type { ExtractedDocument } from "./types";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
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
    if (level === 1 && title === null && text) title = text;
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
    const atx = ATX_HEADING.exec(line);
    if (atx) {
      flush();
      heading(atx[1].length, atx[2] ?? "");
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

/** The text of inline Markdown: emphasis markers, link and image syntax, backticks and inline HTML removed. */
export function inlineText(markdown: string): string {
  const held: string[] = [];
  const hold = (text: string) => `${HOLD_START}${held.push(text) - 1}${HOLD_END}`;
  let text = markdown
    .replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => hold(code))
    .replace(/\\([!-/:-@[-`{-~])/g, (_, character: string) => hold(character))
    .replace(/<!--[\s\S]*?-->/g, "")
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
