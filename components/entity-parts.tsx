// Pieces of the entity pages that render on the server: a kind's badge, the breadcrumb, an entity's URL and
// the table of its neighbours (the graph's text alternative).
import Link from "next/link";
import { KIND_STYLES, kindLabel, type EntityKindName } from "./entity-kinds";
import { NamespaceBreadcrumb } from "./namespace-breadcrumb";
import { Table } from "./ui";

export function entityPath(orgSlug: string, namespaceId: string, entityId: string): string {
  return `/${orgSlug}/namespaces/${namespaceId}/entities/${encodeURIComponent(entityId)}`;
}

export function KindBadge({ kind }: { kind: string }) {
  const chip = KIND_STYLES[kind as EntityKindName]?.chip ?? KIND_STYLES.other.chip;
  return (
    <span className={`inline-block whitespace-nowrap rounded border px-1.5 py-0.5 text-xs font-medium ${chip}`}>
      {kindLabel(kind)}
    </span>
  );
}

const LINK = "text-indigo-700 hover:underline";

export function EntityBreadcrumb({
  orgSlug,
  namespace,
  entityName,
}: {
  orgSlug: string;
  namespace: { id: string; name: string };
  entityName: string;
}) {
  const entities = { label: "Entities", href: `/${orgSlug}/namespaces/${namespace.id}/entities` };
  return <NamespaceBreadcrumb orgSlug={orgSlug} namespace={namespace} trail={[entities, { label: entityName }]} />;
}

const NEIGHBOUR_COLUMNS = ["Entity", "Kind", "Shared memories"];

/** The entities mentioned together with this one, most shared first: what the graph draws, as a table. */
export function EntityNeighbours({
  neighbours,
  caption,
}: {
  neighbours: { entity: { id: string; name: string; kind: string }; shared_memories: number; href: string }[];
  caption: string;
}) {
  return (
    <div data-testid="entity-neighbours">
      <p className="mb-2 text-sm text-slate-600" id="entity-neighbours-caption">
        {caption}
      </p>
      <Table columns={NEIGHBOUR_COLUMNS} stacked>
        {neighbours.map((neighbour) => (
          <tr key={neighbour.entity.id}>
            <td className="px-4 py-2 [overflow-wrap:anywhere]">
              <Link href={neighbour.href} className={LINK}>
                {neighbour.entity.name}
              </Link>
            </td>
            <td className="px-4 py-2" data-label={NEIGHBOUR_COLUMNS[1]}>
              <KindBadge kind={neighbour.entity.kind} />
            </td>
            <td className="px-4 py-2 tabular-nums" data-label={NEIGHBOUR_COLUMNS[2]}>
              {neighbour.shared_memories.toLocaleString("en-US")}
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

const ENTITY_CHIP =
  "flex min-w-0 max-w-full items-center gap-2 rounded-full border border-slate-200 bg-white py-1 pl-3 pr-2 " +
  "text-sm shadow-sm";

/**
 * What an identity's memories are about (identityEntities): its most mentioned entities, each a link to its
 * page, with how many of the identity's memories name it.
 */
export function IdentityEntities({
  orgSlug,
  entities,
}: {
  orgSlug: string;
  entities: { id: string; namespace_id: string; name: string; kind: string; memory_count: number }[];
}) {
  return (
    <section className="space-y-3" aria-labelledby="identity-entities-heading">
      <h2 id="identity-entities-heading" className="text-base font-semibold">
        What its memories are about
      </h2>
      {entities.length === 0 ? (
        <p className="text-sm text-slate-600">
          No person, place, organization, work, event or date is named in this identity&apos;s memories you can see.
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            The entities its memories name most, and in how many of them; each opens the entity&apos;s page.
          </p>
          <ul className="flex flex-wrap gap-2" data-testid="identity-entities">
            {entities.map((entity) => (
              <li key={entity.id} className={ENTITY_CHIP}>
                <Link
                  href={entityPath(orgSlug, entity.namespace_id, entity.id)}
                  className="min-w-0 font-medium text-indigo-700 [overflow-wrap:anywhere] hover:underline"
                >
                  {entity.name}
                </Link>
                <KindBadge kind={entity.kind} />
                <span className="whitespace-nowrap text-xs tabular-nums text-slate-600">
                  {entity.memory_count.toLocaleString("en-US")} memor{entity.memory_count === 1 ? "y" : "ies"}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
