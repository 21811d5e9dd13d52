// Where a page of entities ends: a signed cursor bound to its listing (lib/http/signed-cursor.ts).
import { z } from "zod";
import { listingFingerprint, signedCursors } from "@/lib/http/signed-cursor";

/** The last entity of a page in the listing's order (memory count descending, name, id), and the next page's number. */
export interface EntityCursorPosition {
  memoryCount: number;
  name: string;
  id: string;
  page: number;
}

/** What a cursor is valid for: its listing's organization, namespace, reader's scopes and filters. */
export const entityListingFingerprint = listingFingerprint;

const cursors = signedCursors(
  "list-entities",
  z.strictObject({
    c: z.number().int().positive(),
    n: z.string(),
    i: z.string().min(1).max(255),
    p: z.number().int().min(2),
    l: z.string(),
  }),
);

export function writeEntityCursor(position: EntityCursorPosition, listing: string, orgId: string): string {
  return cursors.write(
    { c: position.memoryCount, n: position.name, i: position.id, p: position.page, l: listing },
    orgId,
  );
}

/** The position a cursor of this listing (of organization `orgId`) names, or a 400 saying why it cannot be used. */
export function readEntityCursor(cursor: string, listing: string, orgId: string): EntityCursorPosition {
  const { c, n, i, p } = cursors.read(cursor, listing, orgId);
  return { memoryCount: c, name: n, id: i, page: p };
}
