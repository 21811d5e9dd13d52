import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { getDocument } from "./get-document";
import { passagesOf } from "./passages";

/** Where a passage is, as its processing wrote it into the memory's metadata (an edit may have changed it). */
const PassagePlace = z.object({
  page: z.number().int().nullable().catch(null),
  section: z.string().nullable().catch(null),
});

/** One passage of a document as stored: the memory it became, with where it is in the document. */
export interface DocumentPassage {
  memoryId: string;
  content: string;
  page: number | null;
  section: string | null;
}

/**
 * The passages of a document the principal may see: the memories its processing stored, those of a range of
 * pages (a paged document is read a window at a time) or the first `limit`. A passage edited since is shown
 * as it reads now; one deleted is gone. `total` counts the passages in the range.
 */
export async function documentPassages(
  principal: Principal,
  documentId: string,
  options: { pages?: { from: number; to: number }; limit: number },
): Promise<{ passages: DocumentPassage[]; total: number }> {
  const document = await getDocument(principal, documentId);
  const { pages } = options;
  const where: Prisma.MemoryWhereInput = {
    orgId: principal.orgId,
    namespaceId: document.namespaceId,
    documentId: document.id,
    AND: [
      ...Object.entries(principal.scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } })),
      ...(pages
        ? [{ metadata: { path: ["page"], gte: pages.from } }, { metadata: { path: ["page"], lte: pages.to } }]
        : []),
    ],
    // Expired: never shown, as everywhere else, also before the sweep deletes it.
    OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
  };
  const prisma = await db();
  const [memories, total] = await Promise.all([
    prisma.memory.findMany({
      where,
      select: { id: true, content: true, metadata: true },
      // Every passage is stored in one batch, at the same instant: only the order of the text says which
      // comes first (inDocumentOrder); the id keeps a cut-off list the same from one view to the next.
      orderBy: { id: "asc" },
      take: options.limit,
    }),
    prisma.memory.count({ where }),
  ]);
  const passages = memories.map(({ id, content, metadata }) => {
    const place = PassagePlace.safeParse(metadata);
    return { memoryId: id, content, ...(place.success ? place.data : { page: null, section: null }) };
  });
  return { passages, total };
}

/**
 * Passages in the order they are read in the document: where the passages its text makes (passagesOf, as its
 * processing cut them) put each one; one edited since goes by its page, after those of that page.
 */
export function inDocumentOrder<P extends DocumentPassage>(
  passages: readonly P[],
  blocks: readonly { page: number | null; section: string[]; text: string }[],
): P[] {
  const position = new Map(passagesOf(blocks).map((passage, index) => [passage.content, index]));
  const key = (passage: P) => [passage.page ?? 0, position.get(passage.content) ?? Number.MAX_SAFE_INTEGER] as const;
  return [...passages].sort((a, b) => {
    const [pageA, indexA] = key(a);
    const [pageB, indexB] = key(b);
    return pageA - pageB || indexA - indexB;
  });
}
