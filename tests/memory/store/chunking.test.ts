import { expect, test } from "vitest";
import { CHUNK_MAX_CHARS, chunkText } from "@/lib/memory/store/chunking";

test("short content is one chunk, trimmed", () => {
  expect(chunkText("  I like green tea.  ")).toEqual(["I like green tea."]);
});

test("long content splits on sentence boundaries, within the limit; each chunk repeats the sentence before it", () => {
  const sentences = Array.from(
    { length: 60 },
    (_, i) => `Sentence number ${i} talks about topic ${i} in some detail for the reader.`,
  );
  const chunks = chunkText(sentences.join(" "));
  expect(chunks.length).toBeGreaterThan(1);
  for (const chunk of chunks) {
    expect(chunk.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
    expect(chunk).toMatch(/^Sentence number \d+ .*reader\.$/);
  }
  for (let i = 1; i < chunks.length; i++) {
    const previousLast = chunks[i - 1].split(/(?<=\.) /).pop()!;
    expect(chunks[i].startsWith(previousLast)).toBe(true);
  }
  const all = chunks.join(" ");
  for (const sentence of sentences) expect(all).toContain(sentence);
});

test("a single sentence longer than a chunk is cut at white space", () => {
  const words = Array.from({ length: 1200 }, (_, i) => `word${i}`).join(" ");
  const chunks = chunkText(words);
  expect(chunks.length).toBeGreaterThan(2);
  for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
  expect(chunks.join(" ").split(" ")).toContain("word1199");
});
