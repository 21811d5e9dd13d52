import type { Principal } from "@/lib/auth/principal";
import type { Metadata } from "../common/schemas";
import { updateMemory } from "./update-memory";

/**
 * Replaces a memory's content and metadata in place (an integration's sync, when a document changed): an
 * update like any other, so the text it replaces is kept as a version. A memory that is gone (forgotten
 * meanwhile) is not found.
 */
export async function replaceMemoryContent(
  principal: Principal,
  memoryId: string,
  replacement: { content: string; metadata: Metadata },
) {
  return updateMemory(principal, memoryId, replacement);
}
