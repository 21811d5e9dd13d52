/** Longest chunk, in characters: most notes and abstracts stay whole, long documents are split. */
export const CHUNK_MAX_CHARS = 2000;

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** The sentences of a text, trimmed; one longer than a chunk is cut at white space. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const sentence = segment.trim();
    if (!sentence) continue;
    // A "sentence" longer than a chunk (a log line, a minified blob) is cut at white space.
    for (let rest = sentence; rest.length > 0;) {
      if (rest.length <= CHUNK_MAX_CHARS) {
        sentences.push(rest);
        break;
      }
      const cut = rest.lastIndexOf(" ", CHUNK_MAX_CHARS);
      const at = cut > CHUNK_MAX_CHARS / 2 ? cut : CHUNK_MAX_CHARS;
      sentences.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
  }
  return sentences;
}

/**
 * Splits content into chunks of whole sentences of at most CHUNK_MAX_CHARS; each chunk after the first
 * repeats the previous chunk's last sentence, so a fact straddling a boundary is whole in one of them.
 */
export function chunkText(content: string): string[] {
  const text = content.trim();
  if (text.length <= CHUNK_MAX_CHARS) return [text];
  const sentences = sentencesOf(text);
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const sentence of sentences) {
    if (current.length > 0 && length + 1 + sentence.length > CHUNK_MAX_CHARS) {
      chunks.push(current.join(" "));
      const overlap = current[current.length - 1];
      current = overlap.length + 1 + sentence.length <= CHUNK_MAX_CHARS ? [overlap] : [];
      length = current.length ? overlap.length : 0;
    }
    current.push(sentence);
    length += (length ? 1 : 0) + sentence.length;
  }
  if (current.length) chunks.push(current.join(" "));
  return chunks;
}
