import { ApiError } from "@/lib/api/errors";
import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";

export async function addMember(input: { orgId: string; userId: string; role: Role }, actor: Actor) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const existing = await tx.membership.findUnique({ where: { orgId_userId: { orgId: input.orgId, userId: input.userId } } });
    if (existing) {
      throw new ApiError("CONFLICT", `User ${input.userId} is already a member (${existing.role}) of organization ${input.orgId}.`);
    }
    const membership = await tx.membership.create({
      data: { id: newId("mbr"), orgId: input.orgId, userId: input.userId, role: input.role },
    });
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: "member.add",
      targetType: "user",
      targetId: input.userId,
      details: { role: input.role },
    });
    return membership;
  });
}
