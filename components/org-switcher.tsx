"use client";
import { useHydrated } from "./ui";

export function OrgSwitcher({
  current,
  organizations,
}: {
  current: string;
  organizations: { slug: string; name: string }[];
}) {
  const hydrated = useHydrated();
  return (
    <label className="flex w-full items-center gap-2 text-sm">
      <span className="sr-only">Organization</span>
      <select
        aria-label="Organization"
        value={current}
        disabled={!hydrated}
        onChange={(event) => window.location.assign(`/${event.target.value}`)}
        className="w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm font-medium"
      >
        {organizations.map((org) => (
          <option key={org.slug} value={org.slug}>
            {org.name}
          </option>
        ))}
      </select>
    </label>
  );
}
