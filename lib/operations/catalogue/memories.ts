// Memories: remember, recall, ask, forget, and reading and changing one; the erasure receipts.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { rememberOperation } from "../memories/remember";
import { recallOperation } from "../memories/recall";
import { askOperation } from "../memories/ask";
import { forgetOperation } from "../memories/forget";
import { listErasuresOperation } from "../memories/list-erasures";
import { getMemoryOperation } from "../memories/get-memory";
import { updateMemoryOperation } from "../memories/update-memory";
import { memoryHistoryOperation } from "../memories/memory-history";
import { listMemoriesOperation } from "../memories/list-memories";
import { identityProfileOperation } from "../memories/identity-profile";

export const memoriesOperations = {
  // The memory operations note identity and counts for their activity row.
  remember: rememberOperation,
  recall: recallOperation,
  ask: askOperation,
  forget: forgetOperation,
  // Erasure receipts are the organization operator's proof that deletion requests were served.
  listErasures: listErasuresOperation,
  getMemory: getMemoryOperation,
  updateMemory: updateMemoryOperation,
  memoryHistory: memoryHistoryOperation,
  listMemories: listMemoriesOperation,
  // What holds of one identity (lib/memory/validity): its facts, recent memories, entities and changes.
  identityProfile: identityProfileOperation,
};
