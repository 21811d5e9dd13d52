// How the console names and colours each kind of entity (lib/memory/entities/extract-entities.ts ENTITY_KINDS):
// the table's badge, the kind filter and the graph's nodes. Dark text on a pale ground: readable at any size.
import type { EntityKind } from "@/lib/memory/common/entity-kinds";

export type EntityKindName = EntityKind;

export const KIND_STYLES: Record<EntityKind, { label: string; plural: string; chip: string }> = {
  person: { label: "Person", plural: "People", chip: "border-indigo-300 bg-indigo-50 text-indigo-900" },
  organization: {
    label: "Organization",
    plural: "Organizations",
    chip: "border-amber-300 bg-amber-50 text-amber-900",
  },
  place: { label: "Place", plural: "Places", chip: "border-emerald-300 bg-emerald-50 text-emerald-900" },
  work: { label: "Work", plural: "Works", chip: "border-sky-300 bg-sky-50 text-sky-900" },
  event: { label: "Event", plural: "Events", chip: "border-rose-300 bg-rose-50 text-rose-900" },
  date: { label: "Date", plural: "Dates", chip: "border-violet-300 bg-violet-50 text-violet-900" },
  other: { label: "Other", plural: "Other", chip: "border-slate-300 bg-slate-50 text-slate-800" },
};

export function kindLabel(kind: string): string {
  return KIND_STYLES[kind as EntityKind]?.label ?? kind;
}
