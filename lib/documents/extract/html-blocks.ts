// Blocks from an HTML tree, shared by HTML pages and DOCX (which mammoth turns into HTML): headings build
// the section path, paragraphs and list items become blocks, and a table becomes one block per row.
import { Parser } from "htmlparser2";
import { BlockCollector, cleanText, SectionPath, titleText } from "./text";
import { DocumentUnreadableError, type ExtractedBlock } from "./types";

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

/**
 * The deepest nesting read, in elements. Browsers draw nothing deeper (Chromium's parser stops nesting at 512)
 * and no page written to be read comes near it, while every pass that looks at an element's contents
 * (Readability's scoring, our text of a heading or a cell, the boilerplate check) costs the page's elements
 * times their depth: 100,000 nested <div>s read for minutes. The recursive walks below stay far from the stack's
 * limit too.
 */
export const MAX_HTML_DEPTH = 512;

export interface TreeShape {
  /** The deepest element's depth (the root's children are at 1). */
  depth: number;
  /** The elements' depths summed: what a pass over each element's contents costs, in element visits. */
  work: number;
}

function tooDeep(): DocumentUnreadableError {
  return new DocumentUnreadableError(
    `The document nests its elements more than ${MAX_HTML_DEPTH} levels deep, so it was not read.`,
  );
}

/**
 * Throws DocumentUnreadableError when `html`, parsed as linkedom parses it (htmlparser2, tags closed by the
 * same rules), nests more than MAX_HTML_DEPTH levels deep: to call before linkedom, whose parser keeps its open
 * elements in an array it shifts at every tag (100,000 nested tags took 5 s to parse, and it grows with the
 * square). This pass stops at the first tag too deep, so its own stack stays small.
 */
export function refuseDeepHtml(html: string): void {
  let depth = 0;
  const parser = new Parser(
    {
      onopentag() {
        if (++depth > MAX_HTML_DEPTH) throw tooDeep();
      },
      onclosetag() {
        depth--;
      },
    },
    { lowerCaseAttributeNames: false, decodeEntities: true },
  );
  parser.write(html);
  parser.end();
}

/**
 * The tree's depth and work (TreeShape), in one pass over its elements, without recursion. Throws
 * DocumentUnreadableError when it nests more than MAX_HTML_DEPTH levels deep (stopping there).
 */
export function measureTree(root: ParentNode): TreeShape {
  let depth = 0;
  let work = 0;
  const stack: [ParentNode, number][] = [[root, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [element, level] = next;
    if (level > MAX_HTML_DEPTH) throw tooDeep();
    depth = Math.max(depth, level);
    work += level;
    for (const child of Array.from(element.children)) stack.push([child, level + 1]);
  }
  return { depth, work };
}

/** The blocks of `root`'s tree, which must be at most MAX_HTML_DEPTH deep (measureTree checks it). */
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
