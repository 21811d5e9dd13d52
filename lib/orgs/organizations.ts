import { InvalidError, notFound } from "@/lib/errors";
import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { identifier } from "@/lib/validation/strings";
import { isUniqueViolation } from "@/lib/db/unique-violation";

export { OrganizationName } from "./schemas";

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

/**
 * An organization's slug as slugify makes it (48 characters, and a "-2" suffix when taken), with room to
 * spare: checked before a slug sent to the console reaches a query (a NUL would make PostgreSQL fail).
 */
export const OrganizationSlug = identifier({ min: 1, max: 64 }).regex(/^[a-z0-9-]+$/, "must be an organization slug");

/** Console paths that are not organizations (`/{org-slug}/…` shares the URL space with them). */
const RESERVED_SLUGS = [
  "api",
  "account",
  "sign-in",
  "sign-up",
  "sign-out",
  "_next",
  "favicon.svg",
  "settings",
  "new",
  // The MCP clients' OAuth: the authorization server and the console's consent page.
  "oauth",
  "consent",
  // The API reference (app/docs).
  "docs",
];

/**
 * Creates an organization named `name`, its slug made from the name (`acme`, then `acme-2`, … when taken).
 * Organizations of one name created at once each get a slug of their own: the one whose slug another took
 * meanwhile (the unique index refuses it) chooses again. Throws what the database throws otherwise.
 */
export async function createOrganization(name: string, actor: Actor) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await createWithFreeSlug(name, actor);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt === SLUG_ATTEMPTS) throw error;
    }
  }
}

// Each retry sees the slugs committed by the requests that won before it: a few are enough unless hundreds
// of organizations of one name are created in the same instant.
const SLUG_ATTEMPTS = 20;

async function createWithFreeSlug(name: string, actor: Actor) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const base = slugify(name);
    const taken = new Set([
      ...RESERVED_SLUGS,
      ...(await tx.organization.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } })).map(
        (o) => o.slug,
      ),
    ]);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    const org = await tx.organization.create({ data: { id: newId("org"), name, slug } });
    await recordAudit(tx, {
      orgId: org.id,
      actor,
      action: "organization.create",
      targetType: "organization",
      targetId: org.id,
      details: { name, slug },
    });
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

export async function updateSignInPolicy(
  orgId: string,
  policy: { allowPassword: boolean; allowMagicLink: boolean; allowSso: boolean },
  actor: Actor,
) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    if (policy.allowSso && !(await tx.oidcConnection.findUnique({ where: { orgId } }))) {
      throw new InvalidError("Set up the SSO connection before allowing single sign-on.");
    }
    const org = await tx.organization.update({ where: { id: orgId }, data: policy });
    await recordAudit(tx, {
      orgId,
      actor,
      action: "sign_in_policy.update",
      targetType: "organization",
      targetId: orgId,
      details: {
        allow_password: policy.allowPassword,
        allow_magic_link: policy.allowMagicLink,
        allow_sso: policy.allowSso,
      },
    });
    return org;
  });
}
