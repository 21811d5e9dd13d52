import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { memoriesOfConnection } from "./connection-memories";
import { getConnection } from "./get-connection";

/** How many memories deleting the connection would take (the console's confirmation says it). */
export async function connectionMemoryCount(principal: Principal, id: string): Promise<number> {
  const connection = await getConnection(principal, id);
  const prisma = await db();
  return (await memoriesOfConnection(prisma, connection)).length;
}
