// The gate of a memory's page, outside its loading boundary: a memory the person may not see is a 404.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { getMemoryWithChunks } from "@/lib/memory/read/list";
import { identifier } from "@/lib/validation/strings";

const Id = identifier({ min: 1, max: 255 });

export default async function MemoryGate({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string; namespaceId: string; memoryId: string }>;
}) {
  const { org, namespaceId, memoryId } = await params;
  const access = await memberAccess(org);
  if (!access) return null;
  if (!Id.safeParse(namespaceId).success || !Id.safeParse(memoryId).success) notFound();
  await orNotFound(getMemoryWithChunks(access.principal, namespaceId, memoryId));
  return children;
}
