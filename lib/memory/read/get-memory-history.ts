import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { pageWindow, type PaginationQuery } from "@/lib/http/pagination";
import { getMemory } from "./get-memory";
import { historyPage } from "../store/history";

/** A memory's versions, newest first, the current one included, within the principal's scopes. */
export async function memoryHistory(
  principal: Principal,
  memoryId: string,
  query: PaginationQuery,
  activity: ActivityNote = {},
) {
  const memory = await getMemory(principal, memoryId, activity);
  return historyPage(await db(), memory, principal.scopes, pageWindow(query));
}
