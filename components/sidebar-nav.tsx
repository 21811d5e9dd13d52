"use client";
// The console's sidebar: the organization's pages, the current one marked (aria-current).
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

export interface NavEntry {
  /** Below the organization: "" is its overview. */
  path: string;
  label: string;
}

export function SidebarNav({ orgSlug, entries }: { orgSlug: string; entries: NavEntry[] }) {
  const pathname = usePathname();
  const list = useRef<HTMLUListElement>(null);
  // On a phone the pages are one row that scrolls sideways: the current one is brought into it on every
  // navigation (the row alone scrolls; `nearest` leaves the page where it is). From md up nothing moves.
  useEffect(() => {
    const row = list.current;
    const currentLink = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !currentLink || row.scrollWidth <= row.clientWidth) return;
    const left = currentLink.getBoundingClientRect().left - row.getBoundingClientRect().left + row.scrollLeft;
    if (left < row.scrollLeft || left + currentLink.offsetWidth > row.scrollLeft + row.clientWidth) {
      row.scrollTo({ left: Math.max(0, left - (row.clientWidth - currentLink.offsetWidth) / 2) });
    }
  }, [pathname]);
  const base = `/${orgSlug}`;
  const current = (path: string) => {
    const href = path ? `${base}/${path}` : base;
    return path ? pathname === href || pathname.startsWith(`${href}/`) : pathname === base;
  };
  return (
    <nav aria-label="Console" className="text-sm">
      <ul ref={list} className="flex gap-1 overflow-x-auto pb-1 md:flex-col md:overflow-visible md:pb-0">
        {entries.map(({ path, label }) => {
          const active = current(path);
          return (
            <li key={path} className="shrink-0">
              <Link
                href={path ? `${base}/${path}` : base}
                aria-current={active ? "page" : undefined}
                className={
                  "block whitespace-nowrap rounded-md px-3 py-1.5 " +
                  (active ? "bg-indigo-50 font-medium text-indigo-700" : "text-slate-700 hover:bg-slate-100")
                }
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
