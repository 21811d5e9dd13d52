"use client";
import { Select, useHydrated } from "./ui";

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
      <Select
        aria-label="Organization"
        value={current}
        disabled={!hydrated}
        onChange={(event) => window.location.assign(`/${event.target.value}`)}
        layout="compact"
        className="w-full font-medium"
      >
        {organizations.map((org) => (
          <option key={org.slug} value={org.slug}>
            {org.name}
          </option>
        ))}
      </Select>
    </label>
  );
}
