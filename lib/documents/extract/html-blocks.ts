// Blocks from an HTML tree, shared by HTML pages and DOCX (which mammoth turns into HTML): headings build
// the section path, paragraphs and list items become blocks, and a table becomes one block per row.
import { BlockCollector, cleanText, SectionPath, titleText } from "./text";
import type { ExtractedBlock } from "./types";

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Elements whose content is never text a reader sees. */
const SKIPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "svg",
  "math",
  "iframe",
  "object",
  "embed",
  "canvas",
  "video",
  "audio",
  "select",
  "textarea",
  "button",
]);

/** Elements that end the paragraph before them and start a new one. */
const BLOCK_LEVEL = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);

const HEADING = /^h([1-6])$/;

export interface HtmlBlocks {
  blocks: ExtractedBlock[];
  /** The text of the first h1, the usual title of a converted document. */
  firstH1: string | null;
}

export function blocksFromHtml(root: Element): HtmlBlocks {
  const collector = new BlockCollector();
  const sections = new SectionPath();
  let firstH1: string | null = null;
  let pending: string[] = [];

  const flush = () => {
    collector.add(pending.join(""), sections.current, null);
    pending = [];
  };

  const walk = (parent: Node) => {
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === TEXT_NODE) {
        pending.push(node.textContent ?? "");
        continue;
      }
      if (node.nodeType !== ELEMENT_NODE) continue;
      const element = node as Element;
      const tag = element.localName.toLowerCase();
      if (SKIPPED.has(tag) || isHidden(element)) continue;
      if (tag === "br") {
        pending.push(" ");
        continue;
      }
      const heading = HEADING.exec(tag);
      if (heading) {
        flush();
        const text = textOf(element);
        sections.enter(Number(heading[1]), text);
        if (heading[1] === "1" && firstH1 === null) firstH1 = titleText(text);
        continue;
      }
      if (tag === "table" && !isLayoutTable(element)) {
        flush();
        for (const row of tableRows(element)) collector.add(row, sections.current, null);
        continue;
      }
      if (tag === "pre") {
        flush();
        collector.add(textOf(element), sections.current, null);
        continue;
      }
      if (BLOCK_LEVEL.has(tag)) {
        flush();
        walk(element);
        flush();
        continue;
      }
      walk(element);
    }
  };

  walk(root);
  flush();
  return { blocks: collector.blocks, firstH1 };
}

function isHidden(element: Element): boolean {
  return element.hasAttribute("hidden") || element.getAttribute("aria-hidden") === "true";
}

/** An element's visible text, with a space wherever a block or a line break separates words. */
export function textOf(element: Element): string {
  const parts: string[] = [];
  const collect = (parent: Node) => {
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === TEXT_NODE) {
        parts.push(node.textContent ?? "");
      } else if (node.nodeType === ELEMENT_NODE) {
        const child = node as Element;
        const tag = child.localName.toLowerCase();
        if (SKIPPED.has(tag) || isHidden(child)) continue;
        const separated = tag === "br" || BLOCK_LEVEL.has(tag) || HEADING.test(tag);
        if (separated) parts.push(" ");
        collect(child);
        if (separated) parts.push(" ");
      }
    }
  };
  collect(element);
  return cleanText(parts.join(""));
}

/**
 * A table that lays out a page rather than holding data (headings or tables inside, or a cell as long as
 * an article): read as the paragraphs it contains, not one giant "row".
 */
function isLayoutTable(table: Element): boolean {
  if (table.querySelector("h1, h2, h3, h4, h5, h6, table")) return true;
  return Array.from(table.querySelectorAll("td, th")).some((cell) => (cell.textContent ?? "").length > 1000);
}

/** Each row of a table as its non-empty cells joined with " | ", so the table's content is searchable. */
function tableRows(table: Element): string[] {
  const rows: string[] = [];
  const caption = table.querySelector("caption");
  if (caption) rows.push(textOf(caption));
  for (const row of Array.from(table.querySelectorAll("tr"))) {
    if (row.closest("table") !== table) continue;
    const cells = Array.from(row.children)
      .filter((cell) => /^t[dh]$/i.test(cell.localName))
      .map((cell) => textOf(cell))
      .filter(Boolean);
    if (cells.length > 0) rows.push(cells.join(" | "));
  }
  return rows;
}
