// Full-text search finds words by the spaces between them (PostgreSQL's parser); Chinese, Japanese, Thai, Lao,
// Khmer and Myanmar text has none, and "我住在北京" was one term that no question could match. ICU's word
// segmentation (Intl.Segmenter, dictionary-based for these scripts) puts spaces between their words before the
// text is indexed, and before a query is: both sides are cut the same way. Other scripts pass unchanged.

/** A letter of a script written without spaces between words. */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

const segmenter = new Intl.Segmenter("und", { granularity: "word" });

/**
 * The text with a space on each side of every word of a script written without spaces (the rest unchanged, so
 * positions shift only there): what the full-text index and the query's terms are read from. The stored text is
 * never this one.
 */
export function withWordBreaks(text: string): string {
  if (!UNSPACED_SCRIPT.test(text)) return text;
  let spaced = "";
  for (const { segment, isWordLike } of segmenter.segment(text))
    spaced += isWordLike && UNSPACED_SCRIPT.test(segment) ? ` ${segment} ` : segment;
  return spaced;
}
