// Members of an organization: invitation, role changes and removal, with the rules about owners.
import { expect, test } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { changeMemberRole, inviteMember, listMembers, removeMember } from "@/lib/orgs/members";
import { createOrganization } from "@/lib/orgs/organizations";

const unique = () => Math.random().toString(36).slice(2, 8);

async function organizationWithOwner() {
  const org = await createOrganization(`Members ${unique()}`, SYSTEM_ACTOR);
  const owner = await inviteMember(
    { orgId: org.id, email: `owner-${unique()}@example.com`, role: "owner" },
    SYSTEM_ACTOR,
  );
  return { org, owner, actor: { type: "user" as const, id: owner.id } };
}

async function auditActions(orgId: string, targetId: string) {
  const prisma = await db();
  const rows = await prisma.auditLog.findMany({ where: { orgId, targetId }, orderBy: { createdAt: "asc" } });
  return rows.map((row) => [row.action, row.details]);
}

test("an invitation creates a password-less account once, and role changes and removal are audited", async () => {
  const { org, actor } = await organizationWithOwner();
  const email = `new-${unique()}@example.com`;
  const invited = await inviteMember({ orgId: org.id, email, role: "member", byRole: "owner" }, actor);
  expect(invited).toMatchObject({ email, passwordHash: null });
  await expect(inviteMember({ orgId: org.id, email, role: "admin", byRole: "owner" }, actor)).rejects.toMatchObject({
    name: "ConflictError",
  });
  const prisma = await db();
  expect(await prisma.user.count({ where: { email } })).toBe(1);

  await changeMemberRole({ orgId: org.id, userId: invited.id, role: "admin", byRole: "owner" }, actor);
  expect((await listMembers(org.id)).find((m) => m.email === email)?.role).toBe("admin");
  await removeMember({ orgId: org.id, userId: invited.id, byRole: "owner" }, actor);
  expect((await listMembers(org.id)).map((m) => m.email)).not.toContain(email);
  expect(await auditActions(org.id, invited.id)).toEqual([
    ["member.add", { role: "member" }],
    ["member.role_change", { from: "member", to: "admin" }],
    ["member.remove", { role: "admin" }],
  ]);
});

test("the last owner can be neither demoted nor removed", async () => {
  const { org, owner, actor } = await organizationWithOwner();
  await expect(
    changeMemberRole({ orgId: org.id, userId: owner.id, role: "admin", byRole: "owner" }, actor),
  ).rejects.toThrow("at least one owner");
  await expect(removeMember({ orgId: org.id, userId: owner.id, byRole: "owner" }, actor)).rejects.toThrow(
    "at least one owner",
  );
  const second = await inviteMember(
    { orgId: org.id, email: `second-${unique()}@example.com`, role: "owner", byRole: "owner" },
    actor,
  );
  await changeMemberRole(
    { orgId: org.id, userId: owner.id, role: "member", byRole: "owner" },
    { type: "user", id: second.id },
  );
  expect((await listMembers(org.id)).find((m) => m.userId === owner.id)?.role).toBe("member");
});

test("an admin can neither make an owner nor change or remove one, and nothing changes", async () => {
  const { org, owner } = await organizationWithOwner();
  const admin = await inviteMember(
    { orgId: org.id, email: `admin-${unique()}@example.com`, role: "admin" },
    SYSTEM_ACTOR,
  );
  const member = await inviteMember(
    { orgId: org.id, email: `member-${unique()}@example.com`, role: "member" },
    SYSTEM_ACTOR,
  );
  const byAdmin = { type: "user" as const, id: admin.id };
  const before = await listMembers(org.id);

  const refusals = [
    () =>
      inviteMember({ orgId: org.id, email: `owner2-${unique()}@example.com`, role: "owner", byRole: "admin" }, byAdmin),
    () => changeMemberRole({ orgId: org.id, userId: member.id, role: "owner", byRole: "admin" }, byAdmin),
    () => changeMemberRole({ orgId: org.id, userId: owner.id, role: "member", byRole: "admin" }, byAdmin),
    () => removeMember({ orgId: org.id, userId: owner.id, byRole: "admin" }, byAdmin),
  ];
  for (const refusal of refusals) await expect(refusal()).rejects.toMatchObject({ name: "ForbiddenError" });
  expect(await listMembers(org.id)).toEqual(before);

  await changeMemberRole({ orgId: org.id, userId: member.id, role: "admin", byRole: "admin" }, byAdmin);
  await removeMember({ orgId: org.id, userId: member.id, byRole: "admin" }, byAdmin);
  expect((await listMembers(org.id)).map((m) => m.userId)).toEqual([owner.id, admin.id]);
});
