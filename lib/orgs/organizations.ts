import { z } from "zod";
import { notFound } from "@/lib/api/errors";
import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";

export const OrganizationName = z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters");

export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
  return slug || "org";
}

export async function createOrganization(name: string, actor: Actor) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const base = slugify(name);
    const taken = new Set(
      (await tx.organization.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } })).map((o) => o.slug),
    );
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    const org = await tx.organization.create({ data: { id: newId("org"), name, slug } });
    await recordAudit(tx, { orgId: org.id, actor, action: "organization.create", targetType: "organization", targetId: org.id, details: { name, slug } });
    return org;
  });
}

/** An organization by id or slug, or 404. */
export async function findOrganization(idOrSlug: string) {
  const prisma = await db();
  const org = await prisma.organization.findFirst({ where: { OR: [{ id: idOrSlug }, { slug: idOrSlug }] } });
  if (!org) throw notFound(`Organization ${idOrSlug}`);
  return org;
}
