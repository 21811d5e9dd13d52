"use client";
// The tabs of a namespace's pages: its overview, memories, documents, entities and events. Each tab is a page of its
// own (a URL to share, a server-rendered list), so they are links in a navigation landmark marked with
// aria-current, not an ARIA tablist (which is for panels switched inside one page).
import Link from "next/link";
import { useEffect, useRef } from "react";

export type NamespaceTab = "overview" | "memories" | "documents" | "entities" | "events";

const TABS: { tab: NamespaceTab; label: string; path: string }[] = [
  { tab: "overview", label: "Overview", path: "" },
  { tab: "memories", label: "Memories", path: "/memories" },
  { tab: "documents", label: "Documents", path: "/documents" },
  { tab: "entities", label: "Entities", path: "/entities" },
  { tab: "events", label: "Events", path: "/events" },
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
  const list = useRef<HTMLUListElement>(null);
  // On a phone the tabs are wider than the screen and scroll sideways: the current one is brought into the row
  // (the row alone scrolls), when the page opens and when the window narrows to a phone's width.
  useEffect(() => {
    const bringIntoView = () => {
      const row = list.current;
      const currentLink = row?.querySelector<HTMLElement>('[aria-current="page"]');
      if (!row || !currentLink || row.scrollWidth <= row.clientWidth) return;
      const left = currentLink.getBoundingClientRect().left - row.getBoundingClientRect().left + row.scrollLeft;
      if (left < row.scrollLeft || left + currentLink.offsetWidth > row.scrollLeft + row.clientWidth) {
        row.scrollTo({ left: Math.max(0, left - (row.clientWidth - currentLink.offsetWidth) / 2) });
      }
    };
    bringIntoView();
    window.addEventListener("resize", bringIntoView);
    return () => window.removeEventListener("resize", bringIntoView);
  }, [current]);
  return (
    <nav aria-label="Namespace" className="border-b border-slate-200">
      <ul ref={list} className="-mb-px flex gap-1 overflow-x-auto text-sm">
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
