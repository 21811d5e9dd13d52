"use client";
// The console's sidebar: the organization's pages, the current one marked (aria-current). On a phone they wrap
// into rows above the page, every one in sight (a row scrolling sideways hid six of ten, with no sign of them).
import Link from "next/link";
import { usePathname } from "next/navigation";

export interface NavEntry {
  /** Below the organization: "" is its overview. */
  path: string;
  label: string;
}

export function SidebarNav({ orgSlug, entries }: { orgSlug: string; entries: NavEntry[] }) {
  const pathname = usePathname();
  const base = `/${orgSlug}`;
  const current = (path: string) => {
    const href = path ? `${base}/${path}` : base;
    return path ? pathname === href || pathname.startsWith(`${href}/`) : pathname === base;
  };
  return (
    <nav aria-label="Console" className="text-sm">
      <ul className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap">
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
