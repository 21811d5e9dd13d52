// Pieces of the identities pages that render on the server (no browser code): times in UTC, so the
// server's HTML and what the person reads agree whatever the server's time zone.
import Link from "next/link";
import { IdentityId } from "@/lib/memory/schemas";
import { DateTime } from "./date-time";

export function UtcTime({ value, empty = "—" }: { value: Date | string | null; empty?: string }) {
  return <DateTime value={value} empty={empty} />;
}

/** The URL of an identity's page: the id is any string an app sent, so it is encoded as one path segment. */
export function identityPath(orgSlug: string, identityId: string): string {
  return `/${orgSlug}/identities/${encodeURIComponent(identityId)}`;
}

export function IdentityLink({ orgSlug, identityId }: { orgSlug: string; identityId: string }) {
  return (
    <Link
      href={identityPath(orgSlug, identityId)}
      className="break-all font-mono text-xs text-indigo-700 hover:underline sm:text-sm"
    >
      {identityId}
    </Link>
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
