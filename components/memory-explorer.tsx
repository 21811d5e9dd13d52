// The memory explorer's pieces: the filter form (a GET form, so every state of the page is a URL), a
// memory as a card, a search match with its score, and the breadcrumb back to the namespace.
import Link from "next/link";
import type { ReactNode } from "react";
import { formatUtc } from "./format";
import { Input } from "./ui";
import type { ExplorerFilters } from "@/lib/console/memory-filters";

export interface MemoryView {
  id: string;
  content: string;
  metadata: Record<string, unknown>;
  scopes: Record<string, string>;
  identity_id: string | null;
  chunk_count: number;
  created_at: string;
}

export interface MatchView {
  memory_id: string;
  chunk_id: string;
  content: string;
  score: number;
  scopes: Record<string, string>;
  identity_id: string | null;
  created_at: string;
}

const LINK = "text-indigo-600 hover:underline";

export function ExplorerBreadcrumb({
  orgSlug,
  namespace,
  memoryId,
}: {
  orgSlug: string;
  namespace: { id: string; name: string };
  memoryId?: string;
}) {
  const base = `/${orgSlug}/namespaces/${namespace.id}`;
  return (
    <nav aria-label="Breadcrumb" className="mb-4 text-sm text-slate-500">
      <ol className="flex flex-wrap items-center gap-1">
        <li>
          <Link href={`/${orgSlug}/namespaces`} className={LINK}>
            Namespaces
          </Link>
        </li>
        <li aria-hidden="true">/</li>
        <li className="min-w-0 break-all">
          <Link href={base} className={LINK}>
            {namespace.name}
          </Link>
        </li>
        <li aria-hidden="true">/</li>
        <li>
          {memoryId ? (
            <Link href={`${base}/memories`} className={LINK}>
              Memories
            </Link>
          ) : (
            <span aria-current="page">Memories</span>
          )}
        </li>
        {memoryId && (
          <>
            <li aria-hidden="true">/</li>
            <li className="break-all" aria-current="page">
              {memoryId}
            </li>
          </>
        )}
      </ol>
    </nav>
  );
}

/** The filters and the search box: submitting loads the page with them in its URL (from the first page). */
export function ExplorerFilterForm({ action, filters }: { action: string; filters: ExplorerFilters }) {
  // The hint is the input's description, not part of its label (its accessible name stays the label).
  const field = (name: keyof ExplorerFilters, label: string, placeholder: string, hint?: string) => (
    <div className="text-sm">
      <label className="block">
        <span className="font-medium text-slate-700">{label}</span>
        <div className="mt-1">
          <Input
            name={name}
            defaultValue={filters[name]}
            placeholder={placeholder}
            autoComplete="off"
            aria-describedby={hint ? `explorer-${name}-hint` : undefined}
          />
        </div>
      </label>
      {hint && (
        <p id={`explorer-${name}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
  const active = Boolean(filters.q || filters.identity || filters.scopes || filters.metadata);
  return (
    <form method="get" action={action} role="search" className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid gap-4 md:grid-cols-2">
        <div className="md:col-span-2">
          {field("q", "Search", "What are you looking for?", "Runs recall, as POST /recall does, and shows scores.")}
        </div>
        {field("identity", "Identity", "user-42")}
        {field("scopes", "Scopes", "team=sales, region=eu", "key=value pairs, comma-separated; all must match.")}
        {field("metadata", "Metadata", "source=chat", "key=value pairs; matches text values exactly.")}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button
          type="submit"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500"
        >
          {filters.q ? "Search" : "Apply"}
        </button>
        {active && (
          <Link href={action} className="text-sm text-slate-600 hover:underline">
            Clear
          </Link>
        )}
      </div>
    </form>
  );
}

function Chip({ children, tone = "slate" }: { children: ReactNode; tone?: "slate" | "indigo" | "amber" }) {
  const styles = {
    slate: "bg-slate-100 text-slate-700",
    indigo: "bg-indigo-50 text-indigo-700",
    amber: "bg-amber-50 text-amber-800",
  }[tone];
  return (
    <span className={`inline-block max-w-full break-all rounded px-1.5 py-0.5 text-xs ${styles}`}>{children}</span>
  );
}

/** Identity, scope pairs and metadata values of a memory as small labels. */
export function MemoryTags({
  identityId,
  scopes,
  metadata = {},
}: {
  identityId: string | null;
  scopes: Record<string, string>;
  metadata?: Record<string, unknown>;
}) {
  const entries = [
    ...(identityId ? [<Chip key="identity" tone="amber">{`identity ${identityId}`}</Chip>] : []),
    ...Object.entries(scopes).map(([key, value]) => <Chip key={`s:${key}`} tone="indigo">{`${key}=${value}`}</Chip>),
    ...Object.entries(metadata).map(([key, value]) => (
      <Chip key={`m:${key}`}>{`${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`}</Chip>
    )),
  ];
  if (entries.length === 0) return null;
  return <div className="mt-2 flex flex-wrap gap-1.5">{entries}</div>;
}

export function MemoryCard({ memory, href }: { memory: MemoryView; href: string }) {
  return (
    <li className="px-4 py-3" data-testid="memory-row" data-memory-id={memory.id}>
      <Link href={href} className="block text-sm text-slate-900 hover:text-indigo-700">
        <span className="line-clamp-3 whitespace-pre-line break-words">{memory.content}</span>
      </Link>
      <MemoryTags identityId={memory.identity_id} scopes={memory.scopes} metadata={memory.metadata} />
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
        <time dateTime={memory.created_at}>{formatUtc(memory.created_at)}</time>
        <span>
          {memory.chunk_count} chunk{memory.chunk_count === 1 ? "" : "s"}
        </span>
        <span className="break-all font-mono">{memory.id}</span>
      </div>
    </li>
  );
}

export function MatchCard({ match, href }: { match: MatchView; href: string }) {
  const percent = Math.round(match.score * 100);
  return (
    <li className="px-4 py-3" data-testid="match-row" data-memory-id={match.memory_id}>
      <div className="flex items-start gap-3">
        <div className="w-16 shrink-0 text-right">
          <span className="font-mono text-sm font-semibold text-slate-900" data-testid="match-score">
            {match.score.toFixed(3)}
          </span>
          <div className="mt-1 h-1.5 rounded bg-slate-100" aria-hidden="true">
            <div className="h-1.5 rounded bg-indigo-500" style={{ width: `${percent}%` }} />
          </div>
        </div>
        <div className="min-w-0 flex-1">
          <Link href={href} className="block text-sm text-slate-900 hover:text-indigo-700">
            <span className="line-clamp-4 whitespace-pre-line break-words">{match.content}</span>
          </Link>
          <MemoryTags identityId={match.identity_id} scopes={match.scopes} />
          <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
            <time dateTime={match.created_at}>{formatUtc(match.created_at)}</time>
            <span className="break-all font-mono">{match.memory_id}</span>
          </div>
        </div>
      </div>
    </li>
  );
}
