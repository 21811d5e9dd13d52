// /{org}/namespaces/{namespaceId}/entities/{entityId} — one entity: its kind, aliases, counts and first and last
// mention (GET /entities/{id}'s getEntity), the entities named in the same memories as a graph with a table of
// the same figures, and the memories that mention it, latest event first. Everything counts only the memories
// the person may see. Not in this namespace, or not visible to the person: a 404 page.
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { CopyButton } from "@/components/copy-button";
import { DateTime } from "@/components/date-time";
import { EntityGraphPanel } from "@/components/entity-graph-panel";
import { EntityBreadcrumb, EntityNeighbours, entityPath, KindBadge } from "@/components/entity-parts";
import { TurnLabel } from "@/components/memory-explorer";
import { Card, EmptyState, PageHeader } from "@/components/ui";
import { explorerHref } from "@/lib/console/memory-filters";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { EntityId } from "@/lib/memory/entities/entity-json";
import { entityMemories } from "@/lib/memory/entities/entity-memories";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import type { Metadata } from "next";

const MEMORIES_SHOWN = 50;

export const metadata: Metadata = { title: "Entity" };

export default async function EntityPage({
  params,
}: {
  params: Promise<{ org: string; namespaceId: string; entityId: string }>;
}) {
  const { org: slug, namespaceId, entityId } = await params;
  const access = await memberAccess(slug);
  if (!access) return null;
  if (!EntityId.safeParse(entityId).success) notFound();
  const { principal } = access;
  // GET /entities/{id}'s operation: its permission check and response schema.
  const read = runOperation(operations.getEntity, principal, { params: { id: entityId } });
  const { data: entity } = await orNotFound(read);
  if (entity.namespace_id !== namespaceId) notFound();
  const [namespace, mentions] = await Promise.all([
    orNotFound(getNamespace(principal, entity.namespace_id)),
    orNotFound(entityMemories(principal, entity.id, { limit: MEMORIES_SHOWN })),
  ]);
  const orgSlug = access.org.slug;
  const explorer = `/${orgSlug}/namespaces/${namespace.id}/memories`;
  const neighbours = entity.co_occurring.map((neighbour) => ({
    ...neighbour,
    href: entityPath(orgSlug, namespace.id, neighbour.entity.id),
  }));
  const memories = `${entity.memory_count.toLocaleString("en-US")} memor${entity.memory_count === 1 ? "y" : "ies"}`;

  return (
    <div className="space-y-6">
      <div>
        <EntityBreadcrumb orgSlug={orgSlug} namespace={namespace} entityName={entity.name} />
        <PageHeader
          title={entity.name}
          description={
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <KindBadge kind={entity.kind} />
              <span>
                named in {memories} you can see,{" "}
                {entity.first_mentioned_at === entity.last_mentioned_at ? (
                  <>
                    on <DateTime value={entity.first_mentioned_at} />
                  </>
                ) : (
                  <>
                    from <DateTime value={entity.first_mentioned_at} /> to <DateTime value={entity.last_mentioned_at} />
                  </>
                )}
              </span>
            </span>
          }
        />
      </div>

      <Card title="Details">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]" data-testid="entity-details">
          <Detail term="Kind">
            <KindBadge kind={entity.kind} />
          </Detail>
          <Detail term="Also written">
            {entity.aliases.length ? (
              <span data-testid="entity-aliases">{entity.aliases.join(", ")}</span>
            ) : (
              <span className="text-slate-500">no other form</span>
            )}
          </Detail>
          <Detail term="Memories">
            <span data-testid="entity-memory-count">{entity.memory_count.toLocaleString("en-US")}</span>
          </Detail>
          <Detail term="Mentions">{entity.mention_count.toLocaleString("en-US")}</Detail>
          <Detail term="First mentioned">
            <DateTime value={entity.first_mentioned_at} />
          </Detail>
          <Detail term="Last mentioned">
            <DateTime value={entity.last_mentioned_at} />
          </Detail>
          <Detail term="ID">
            <span className="flex min-w-0 items-center gap-2">
              <code className="min-w-0 break-all font-mono text-xs">{entity.id}</code>
              <CopyButton text={entity.id} label="Copy the entity id" />
            </span>
          </Detail>
        </dl>
      </Card>

      <Card
        title="Mentioned with"
        description="The entities named in the same memories as this one, and how many memories each shares with it."
      >
        {neighbours.length === 0 ? (
          <p className="text-sm text-slate-600">No other entity is named in the memories that mention this one.</p>
        ) : (
          <div className="space-y-4">
            <EntityGraphPanel
              center={{ id: entity.id, name: entity.name, kind: entity.kind }}
              neighbours={neighbours}
            />
            <EntityNeighbours
              neighbours={neighbours}
              caption={`${neighbours.length} entit${neighbours.length === 1 ? "y" : "ies"} mentioned with ${
                entity.name
              }, most shared first.`}
            />
          </div>
        )}
      </Card>

      <section className="space-y-3" aria-labelledby="entity-memories-heading">
        <h2 id="entity-memories-heading" className="text-base font-semibold">
          Memories ({mentions.total.toLocaleString("en-US")})
        </h2>
        {mentions.total > mentions.memories.length && (
          <p className="text-sm text-slate-600">
            The {mentions.memories.length} latest of {mentions.total.toLocaleString("en-US")}, by when they happened.
          </p>
        )}
        {mentions.memories.length === 0 ? (
          <EmptyState title="No memories">No memory you can see mentions this entity.</EmptyState>
        ) : (
          <ul
            className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm"
            data-testid="entity-memories"
          >
            {mentions.memories.map((memory) => (
              <li key={memory.id} className="px-4 py-3 text-sm" data-testid="entity-memory">
                {memory.sessionPosition !== null && (
                  <div className="mb-1">
                    <TurnLabel role={memory.role} position={memory.sessionPosition} />
                  </div>
                )}
                <Link
                  href={`${explorer}/${memory.id}`}
                  className="block whitespace-pre-line break-words text-slate-900 hover:text-indigo-700"
                >
                  <span className="line-clamp-4">{memory.content}</span>
                </Link>
                <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-500">
                  <span>
                    happened <DateTime value={memory.occurredAt} />
                  </span>
                  {memory.mentions > 1 && <span>named {memory.mentions} times</span>}
                  {memory.sessionId && (
                    <Link
                      href={explorerHref(explorer, { session: memory.sessionId })}
                      className="text-indigo-700 hover:underline"
                    >
                      View conversation
                    </Link>
                  )}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </>
  );
}
