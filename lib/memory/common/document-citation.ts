import { z } from "zod";
import { named } from "@/lib/validation/named";

export const DocumentCitationSchema = named(
  z
    .object({
      id: z.string(),
      title: z.string().nullable(),
      source_url: z.string().nullable(),
      page: z.number().int().nullable().describe("the page the passage is on (PDF, image); null without pages"),
      section: z.string().nullable().describe('the heading path above it, e.g. "Benefits > Parental leave"'),
    })
    .describe("for a passage of a document: which document, and where in it"),
  "DocumentCitation",
);
export type DocumentCitation = z.infer<typeof DocumentCitationSchema>;

/** Where a memory sits in its document, from the metadata its processing gave it; null for any other memory. */
export function documentCitation(metadata: Record<string, unknown>): DocumentCitation | null {
  const { document_id: id, document_title: title, source_url: sourceUrl, page, section } = metadata;
  if (typeof id !== "string") return null;
  return {
    id,
    title: typeof title === "string" ? title : null,
    source_url: typeof sourceUrl === "string" ? sourceUrl : null,
    page: typeof page === "number" && Number.isInteger(page) ? page : null,
    section: typeof section === "string" ? section : null,
  };
}

/**
 * An answer's citations with the page of each paged source: `[2]` becomes `[2, p. 12]`. The answerers cite
 * by number (what they are checked on); the page is the source's.
 */
export function withPageCitations(answer: string, sources: { index: number; document: DocumentCitation | null }[]) {
  const pages = new Map(sources.flatMap((s) => (s.document?.page != null ? [[s.index, s.document.page]] : [])));
  if (pages.size === 0) return answer;
  return answer.replace(/\[(\d+(?:\s*,\s*\d+)*)\]/g, (whole, list: string) =>
    list
      .split(",")
      .map((n) => Number(n.trim()))
      .map((index) => (pages.has(index) ? `[${index}, p. ${pages.get(index)}]` : `[${index}]`))
      .join(""),
  );
}
