// HTML: the article only (Readability drops navigation, ads, headers, footers, banners), then read like DOCX.
// linkedom builds a DOM and nothing else: no script runs, nothing is fetched.
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { parse as parseStandardHtml, serialize as serializeHtml } from "parse5";
import { isKnownCharset, sniffHtmlCharset } from "./content-type";
import { blocksFromHtml, measureTree, refuseDeepHtml, textOf, type TreeShape } from "./html-blocks";
import { decodeText, titleText } from "./text";
import type { ExtractedDocument } from "./types";

/** Removed before Readability scores the page, and from the <body> read when Readability finds no article. */
const NEVER_CONTENT = "script, style, noscript, template, iframe, object, embed, [hidden], [aria-hidden='true']";
const OUTSIDE_ARTICLE = "nav, header, footer, aside, form, [role='navigation'], [role='banner'], [role='contentinfo']";

/**
 * Class and id words of boilerplate that Readability's own list misses (it knows "sidebar" and "sponsor" but
 * not a bare "ad"): matched as whole words of a class or id, so "add-to-cart" and "header" survive.
 */
const BOILERPLATE_WORDS = new Set([
  "ad",
  "ads",
  "advert",
  "adverts",
  "advertisement",
  "advertising",
  "adsense",
  "sponsored",
  "promo",
  "cookie",
  "cookies",
  "consent",
  "gdpr",
]);

export async function extractHtml(
  bytes: Uint8Array,
  charset: string | null,
  signal: AbortSignal,
  baseUrl?: string,
): Promise<ExtractedDocument> {
  const html = decodeText(bytes, htmlCharset(bytes, charset));
  refuseDeepHtml(html);
  const { page, shape } = parseDocument(html, baseUrl);
  const pageTitle = titleText(page.querySelector("title")?.textContent ?? "");
  const firstHeading = titleText(page.querySelector("h1")?.textContent ?? "");

  // Readability rewrites the document it reads: the fallback gets a fresh copy.
  const readable = shape.depth <= READABILITY_MAX_DEPTH && shape.work <= READABILITY_MAX_WORK;
  const article = readable ? readArticle(page) : null;
  signal.throwIfAborted();
  // Parsed as written, as before this reader normalized pages (see parseDocument): linkedom gives this fragment
  // an empty <body>, so the body fallback below reads the page. Reading the article itself changes which
  // blocks pages give (docs/decisions.md, issue 50 item 12), a change of its own to measure.
  const articleContent = article?.content
    ? parseDocument(article.content, baseUrl, { asWritten: true }).page.body
    : null;
  if (articleContent && textOf(articleContent)) {
    const { blocks, firstH1 } = blocksFromHtml(articleContent);
    const title = articleTitle(titleText(article?.title ?? "") ?? pageTitle, firstHeading) ?? firstH1;
    return { title, pageCount: null, blocks, ocrPages: [] };
  }

  const body = parseDocument(html, baseUrl).page.body;
  for (const element of Array.from(body.querySelectorAll(OUTSIDE_ARTICLE))) element.remove();
  const { blocks, firstH1 } = blocksFromHtml(body);
  return { title: articleTitle(pageTitle, firstHeading) ?? firstH1, pageCount: null, blocks, ocrPages: [] };
}

/**
 * The most Readability is given: a page at most READABILITY_MAX_DEPTH deep whose elements' depths sum to at
 * most READABILITY_MAX_WORK (TreeShape). It looks at every candidate element's contents and ancestors, again on
 * each of its up to four tries, so its time grows with the elements times their depth, and with the cube of the
 * depth of a chain: measured here, 20,000 elements 128 deep took 8 s, 512 deep 52 s, one chain of 510 <div>s
 * 14 s, while pages of 14,000 to 72,000 elements of ordinary depth (sums of 180,000 to 650,000) took 1.4 to
 * 7 s. Pages are rarely deeper than 32 (where Lighthouse warns). Past either bound, the page's body is read
 * (without its navigation, header and footer), as for a page with no article.
 */
const READABILITY_MAX_DEPTH = 64;
const READABILITY_MAX_WORK = 500_000;

/**
 * Readability's article, or null. It runs synchronously, where no time limit can stop it: on a page with
 * more elements than any article needs it gives up at once, and the page's body is read instead.
 */
function readArticle(page: Document) {
  try {
    return new Readability(page, { maxElemsToParse: 100_000 }).parse();
  } catch {
    return null;
  }
}

/**
 * The page's h1 when the <title> only adds the site's name to it ("Composting at home | Green Gazette"):
 * Readability strips such a suffix only from titles of more than four words.
 */
function articleTitle(title: string | null, heading: string | null): string | null {
  if (title && heading && heading.length < title.length && title.toLowerCase().includes(heading.toLowerCase())) {
    return heading;
  }
  return title ?? heading;
}

/**
 * The page as a tree, cleaned of what is never content, and its shape (depth and work). `html` has passed
 * refuseDeepHtml; the tree parse5 builds of it is measured too (its rules nest differently), before anything
 * walks it.
 */
function parseDocument(
  html: string,
  baseUrl: string | undefined,
  options: { asWritten?: boolean } = {},
): { page: Document; shape: TreeShape } {
  const { document } = parseHTML(html);
  let shape = measureTree(document);
  // A page with its <html> and <body> tags is read as written, as it always was.
  const root = document.documentElement as Element | null;
  const complete = root?.localName === "html" && root.querySelector("body") !== null;
  let parsed = document;
  if (!complete && !(options.asWritten && root)) {
    parsed = parseHTML(standardTree(html)).document;
    shape = measureTree(parsed);
  }
  for (const element of Array.from(parsed.querySelectorAll(NEVER_CONTENT))) element.remove();
  const pageLength = (parsed.body.textContent ?? "").length;
  for (const element of Array.from(parsed.querySelectorAll("[class], [id]"))) {
    if (isBoilerplate(element, pageLength)) element.remove();
  }
  // Readability resolves the article's relative links against the page's own address (nothing is fetched).
  if (baseUrl && URL.canParse(baseUrl) && parsed.head && !parsed.querySelector("base[href]")) {
    const base = parsed.createElement("base");
    base.setAttribute("href", baseUrl);
    parsed.head.prepend(base);
  }
  return { page: parsed, shape };
}

/**
 * The page as a browser builds it, written out again, for a page without its <html> or <body> tags: parse5
 * follows the HTML standard's tree construction, which puts any input (a bare "hello", a fragment, a comment
 * or an XML declaration alone, a page that leaves out its optional tags) in <html><head>…</head><body>…</body>
 * </html>. linkedom keeps the tags as written: without an <html> element its `body` throws, and text outside
 * a <body> tag is lost.
 */
function standardTree(html: string): string {
  return serializeHtml(parseStandardHtml(html));
}

function isBoilerplate(element: Element, pageLength: number): boolean {
  const names = `${element.getAttribute("class") ?? ""} ${element.getAttribute("id") ?? ""}`;
  const words = names.toLowerCase().split(/[\s_-]+/);
  // The names first: the checks of the element's contents below cost as much as its subtree.
  if (!words.some((word) => BOILERPLATE_WORDS.has(word))) return false;
  // A word such as "ads" on a wrapper ("page has-ads") must not take the article with it.
  if (/^(html|body|main|article)$/i.test(element.localName) || element.querySelector("main, article")) return false;
  return (element.textContent ?? "").length <= pageLength / 2;
}

/** UTF-8 with a byte order mark, else the declared charset, else the page's <meta charset>, else UTF-8. */
function htmlCharset(bytes: Uint8Array, declared: string | null): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  for (const charset of [declared, sniffHtmlCharset(bytes)]) {
    if (charset && isKnownCharset(charset)) return charset;
  }
  return null;
}
