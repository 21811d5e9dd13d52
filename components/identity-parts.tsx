// Pieces of the identities pages that render on the server (no browser code).
import Link from "next/link";
import type { IdentityPerson } from "@/lib/activity/identity-people";
import { IdentityId } from "@/lib/memory/common/schemas";
import { DateTime } from "./date-time";

export function UtcTime({ value, empty = "—" }: { value: Date | string | null; empty?: string }) {
  return <DateTime value={value} empty={empty} />;
}

/** The URL of an identity's page: the id is any string an app sent, so it is encoded as one path segment. */
export function identityPath(orgSlug: string, identityId: string): string {
  return `/${orgSlug}/identities/${encodeURIComponent(identityId)}`;
}

/**
 * An identity in a list: the person's address when the id is a member's user id (an OAuth connection's
 * identity), with the raw id under it, smaller and selectable in one click; otherwise the id itself.
 */
export function IdentityLink({
  orgSlug,
  identityId,
  person,
}: {
  orgSlug: string;
  identityId: string;
  person?: IdentityPerson;
}) {
  if (!person) {
    return (
      <Link
        href={identityPath(orgSlug, identityId)}
        className="font-mono text-xs text-indigo-700 [overflow-wrap:anywhere] hover:underline sm:text-sm"
      >
        {identityId}
      </Link>
    );
  }
  return (
    <>
      <Link
        href={identityPath(orgSlug, identityId)}
        className="text-indigo-700 [overflow-wrap:anywhere] hover:underline"
        title={person.name ?? undefined}
      >
        {person.email}
      </Link>
      <div className="select-all font-mono text-xs text-slate-500 [overflow-wrap:anywhere]">{identityId}</div>
    </>
  );
}

/**
 * The identity a page's URL segment names, or undefined for none an app can send (too long, a NUL, bad
 * percent-encoding). Next.js hands the segment over still percent-encoded: it is decoded once here.
 */
export function identityOfSegment(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  const identity = IdentityId.safeParse(decoded);
  return identity.success ? identity.data : undefined;
}
