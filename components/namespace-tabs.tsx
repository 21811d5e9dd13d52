// The tabs of a namespace's pages: its overview, memories, documents and entities. Each tab is a page of its
// own (a URL to share, a server-rendered list), so they are links in a navigation landmark marked with
// aria-current, not an ARIA tablist (which is for panels switched inside one page).
import Link from "next/link";

export type NamespaceTab = "overview" | "memories" | "documents" | "entities";

const TABS: { tab: NamespaceTab; label: string; path: string }[] = [
  { tab: "overview", label: "Overview", path: "" },
  { tab: "memories", label: "Memories", path: "/memories" },
  { tab: "documents", label: "Documents", path: "/documents" },
  { tab: "entities", label: "Entities", path: "/entities" },
];

export function NamespaceTabs({
  orgSlug,
  namespaceId,
  current,
}: {
  orgSlug: string;
  namespaceId: string;
  current: NamespaceTab;
}) {
  const base = `/${orgSlug}/namespaces/${namespaceId}`;
  return (
    <nav aria-label="Namespace" className="border-b border-slate-200">
      <ul className="-mb-px flex gap-1 overflow-x-auto text-sm">
        {TABS.map(({ tab, label, path }) => {
          const active = tab === current;
          return (
            <li key={tab}>
              <Link
                href={`${base}${path}`}
                aria-current={active ? "page" : undefined}
                className={`block whitespace-nowrap border-b-2 px-3 py-2 font-medium ${
                  active
                    ? "border-indigo-600 text-indigo-700"
                    : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
                }`}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
