// The gate of an identity's page, outside its loading boundary: a segment no app could send as an identity
// answers 404. (An identity nobody has used yet is a page with empty lists: right after a forget, say.)
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { identityOfSegment } from "@/components/identity-parts";

export default async function IdentityGate({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string; identityId: string }>;
}) {
  if (identityOfSegment((await params).identityId) === undefined) notFound();
  return children;
}
