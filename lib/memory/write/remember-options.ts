import type { Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import type { Supersession } from "../validity/supersession";

export interface RememberOptions {
  /** The items are a conversation's next turns, in order: they get the session's next positions. */
  sessionId?: string;
  /** Store content identical to an existing memory again instead of returning that memory. */
  allowDuplicate?: boolean;
  /** The items are passages of this document (lib/documents): deleted with it. */
  documentId?: string;
  /** How the memories named in `supersedes` are closed: as the caller's (`named`, the default) or the model's. */
  namedBy?: Supersession;
  /** Runs in each group's transaction once its memories are written (those stored, not those deduplicated). */
  inEachGroup?: (tx: Tx, written: WrittenMemory[]) => Promise<void>;
  /** Runs in the last group's transaction, which makes the whole write visible at once. */
  inLastGroup?: (tx: Tx) => Promise<void>;
}

/** A memory a group's transaction stored, as `inEachGroup` sees it. */
export interface WrittenMemory {
  id: string;
  identityId: string | null;
  scopes: Scopes;
}
