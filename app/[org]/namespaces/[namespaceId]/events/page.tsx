// /{org}/namespaces/{namespaceId}/events — the namespace's Events tab: its latest events, newest first (type,
// time, identity, what each is about), from the API's own feed (GET /events?namespace_id=…, the listEvents
// operation) as the signed-in person; "Check for newer events" reads on from the feed's cursor.
// The page reads the feed's newest window (latest=true); `?after=` (the feed's cursor) reads on from a place.
// A namespace the person may not see is a 404 page (the namespace's layout).
import Link from "next/link";
import { notFound } from "next/navigation";
import { EventStream } from "@/components/event-stream";
import { NamespaceTabs } from "@/components/namespace-tabs";
import { EmptyState, Notice, PageHeader } from "@/components/ui";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { formFailure } from "@/lib/console/action";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { InvalidError, NotFoundError } from "@/lib/errors";
import type { EventJson } from "@/lib/events/schemas";
import { NamespaceIdForm } from "@/lib/namespaces/forms";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import type { Metadata } from "next";

/** Events shown at once. */
const WINDOW = 50;

export const metadata: Metadata = { title: "Events" };

export default async function NamespaceEventsPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; namespaceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { org: slug, namespaceId } = await params;
  const access = await memberAccess(slug);
  if (!access) return null;
  const id = NamespaceIdForm.safeParse({ namespace_id: namespaceId });
  if (!id.success) notFound();
  const { principal } = access;
  const namespace = await orNotFound(getNamespace(principal, id.data.namespace_id));
  const orgSlug = access.org.slug;
  const base = `/${orgSlug}/namespaces/${namespace.id}/events`;
  const after = searchParam(await searchParams, "after");
  const stream = await latestEvents(principal, namespace.id, after);

  return (
    <div className="space-y-6">
      <div>
        <nav aria-label="Breadcrumb" className="mb-4 text-sm">
          <Link href={`/${orgSlug}/namespaces`} className="text-indigo-600 hover:underline">
            ← Namespaces
          </Link>
        </nav>
        <PageHeader
          title="Events"
          description={
            <>
              What changed in{" "}
              <span className="font-medium text-slate-800 [overflow-wrap:anywhere]">{namespace.name}</span>, newest
              first: the same events applications read from <code>GET /api/v1/events</code> and{" "}
              {access.membership.role === "member" ? (
                "webhooks receive"
              ) : (
                <Link href={`/${orgSlug}/webhooks`} className="text-indigo-700 underline">
                  webhooks receive
                </Link>
              )}
              . Events are kept for a limited time, then deleted.
            </>
          }
        />
        <NamespaceTabs orgSlug={orgSlug} namespaceId={namespace.id} current="events" />
      </div>

      {stream.kind === "problem" ? (
        <Notice tone="error">
          {stream.message}{" "}
          <Link href={base} className="underline">
            Show the latest events
          </Link>
        </Notice>
      ) : (
        <section aria-label="Events" className="space-y-3">
          {stream.more && (
            <Notice>
              More events follow these.{" "}
              <Link href={`${base}?after=${encodeURIComponent(stream.cursor)}`} className="font-medium underline">
                Read on to newer events
              </Link>
            </Notice>
          )}
          <EventStream
            // A new view (a read on) starts the list again.
            key={after ?? "latest"}
            orgSlug={orgSlug}
            namespaceId={namespace.id}
            events={stream.events}
            cursor={stream.cursor}
            canReadOn={!stream.more}
            empty={
              <EmptyState title="No events yet">
                Remembering, updating or forgetting a memory, a document&apos;s import or a sync adds an event here.
              </EmptyState>
            }
          />
        </section>
      )}
    </div>
  );
}

type Stream =
  { kind: "stream"; events: EventJson[]; cursor: string; more: boolean } | { kind: "problem"; message: string };

/**
 * The namespace's newest WINDOW events, or with `after` the WINDOW after that place; newest first. `cursor` is
 * the feed's own, after the newest event shown; `more` says events follow beyond the window read from `after`.
 */
async function latestEvents(principal: MemberPrincipal, namespaceId: string, after?: string): Promise<Stream> {
  try {
    const { data } = await runOperation(operations.listEvents, principal, {
      query: { namespace_id: namespaceId, limit: String(WINDOW), ...(after ? { after } : { latest: "true" }) },
    });
    return { kind: "stream", events: data.events.reverse(), cursor: data.next_cursor, more: data.has_more };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof InvalidError) {
      return { kind: "problem", message: "This link's place in the stream is not one this organization's feed made." };
    }
    return { kind: "problem", message: formFailure(error).error };
  }
}
