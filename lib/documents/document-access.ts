import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * The documents a principal may see, as a Prisma filter: in its organization, in a namespace it may use, and
 * carrying every one of its scopes (a key with scopes sees the documents given within them, as with memories).
 */
export function visibleDocuments(principal: Principal): Prisma.DocumentWhereInput {
  return {
    orgId: principal.orgId,
    namespace: namespaceAccess(principal),
    AND: Object.entries(principal.scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } })),
  };
}
