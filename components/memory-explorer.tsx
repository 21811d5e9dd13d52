// The memory explorer's pieces: the filter form (a GET form, so every state of the page is a URL), a
// memory as a card (a conversation's turns grouped under their session), a search match with its score, a
// conversation as a transcript, and the breadcrumb back to the namespace.
import Link from "next/link";
import type { ReactNode } from "react";
import { formatUtc, SCORE_MEANING } from "./format";
import { NamespaceBreadcrumb } from "./namespace-breadcrumb";
import { Input } from "./ui";
import type { ExplorerFilters } from "@/lib/console/memory-filters";

export interface MemoryView {
  id: string;
  content: string;
  metadata: Record<string, unknown>;
  scopes: Record<string, string>;
  identity_id: string | null;
  chunk_count: number;
  session_id: string | null;
  position: number | null;
  role: string | null;
  occurred_at: string;
  expires_at: string | null;
  version: number;
  created_at: string;
}

export interface MatchView {
  memory_id: string;
  chunk_id: string;
  content: string;
  score: number;
  scopes: Record<string, string>;
  identity_id: string | null;
  session_id: string | null;
  position: number | null;
  role: string | null;
  created_at: string;
  match_reasons?: { terms: string[]; similarity: number | null; via: string };
}

/** Why a match matched, as the search row says it: "matched: dog, allergy · meaning 0.62". */
export function matchReasonsText(reasons: NonNullable<MatchView["match_reasons"]>): string {
  const parts = [];
  if (reasons.terms.length) parts.push(`matched: ${reasons.terms.join(", ")}`);
  if (reasons.similarity !== null && reasons.via !== "words") parts.push(`meaning ${reasons.similarity.toFixed(2)}`);
  if (reasons.via === "conversation context") parts.push("through the turns around it");
  return parts.join(" · ");
}

export function ExplorerBreadcrumb({
  orgSlug,
  namespace,
  memoryId,
  sessionId,
}: {
  orgSlug: string;
  namespace: { id: string; name: string };
  memoryId?: string;
  /** The conversation the page shows (its transcript). */
  sessionId?: string;
}) {
  const last = memoryId ?? (sessionId && `Conversation ${sessionId}`);
  const memories = { label: "Memories", href: last ? `/${orgSlug}/namespaces/${namespace.id}/memories` : undefined };
  return (
    <NamespaceBreadcrumb
      orgSlug={orgSlug}
      namespace={namespace}
      trail={last ? [memories, { label: last }] : [memories]}
    />
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
  const active = Boolean(filters.q || filters.identity || filters.scopes || filters.metadata || filters.session);
  return (
    <form method="get" action={action} role="search" className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid gap-4 md:grid-cols-2">
        <div className="md:col-span-2">
          {field("q", "Search", "What are you looking for?", "Runs recall, as POST /recall does, and shows scores.")}
        </div>
        {field("identity", "Identity", "user-42")}
        {field("scopes", "Scopes", "team=sales, region=eu", "key=value pairs, comma-separated; all must match.")}
        {field("metadata", "Metadata", "source=chat", "key=value pairs; matches text values exactly.")}
        {field("session", "Conversation", "chat-2023-05-08", "A session_id: its turns in order, as a transcript.")}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button
          type="submit"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
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
    <span className={`inline-block max-w-full wrap-anywhere rounded px-1.5 py-0.5 text-xs ${styles}`}>{children}</span>
  );
}

/**
 * Identity, scope pairs and metadata values of a memory as small labels. A value that is null says nothing (a
 * document's passage without a page or a source URL) and gets none; a document's passage links its document
 * (`documentHref`, given a `document_id`).
 */
export function MemoryTags({
  identityId,
  scopes,
  metadata = {},
  documentHref,
}: {
  identityId: string | null;
  scopes: Record<string, string>;
  metadata?: Record<string, unknown>;
  documentHref?: (documentId: string) => string;
}) {
  const entries = [
    ...(identityId ? [<Chip key="identity" tone="amber">{`identity ${identityId}`}</Chip>] : []),
    ...Object.entries(scopes).map(([key, value]) => <Chip key={`s:${key}`} tone="indigo">{`${key}=${value}`}</Chip>),
    ...Object.entries(metadata)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) =>
        key === "document_id" && typeof value === "string" && documentHref ? (
          <Link key={`m:${key}`} href={documentHref(value)} className="max-w-full hover:underline">
            <Chip>{`document ${value}`}</Chip>
          </Link>
        ) : (
          <Chip key={`m:${key}`}>{`${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`}</Chip>
        ),
      ),
  ];
  if (entries.length === 0) return null;
  return <div className="mt-2 flex flex-wrap gap-1.5">{entries}</div>;
}

/** Who said a turn and where it stands in its conversation: "user · turn 3". */
export function TurnLabel({ role, position }: { role: string | null; position: number | null }) {
  if (position === null) return null;
  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-1.5" data-testid="turn-label">
      <Chip tone="indigo">{role ?? "unknown speaker"}</Chip>
      <span className="text-xs text-slate-500">turn {position}</span>
    </span>
  );
}

/** `documentHref`: where a document's passage links its document (see MemoryTags). */
export function MemoryCard({
  memory,
  href,
  documentHref,
}: {
  memory: MemoryView;
  href: string;
  documentHref?: (documentId: string) => string;
}) {
  return (
    <li
      className="px-4 py-3"
      data-testid="memory-row"
      data-memory-id={memory.id}
      data-session-id={memory.session_id ?? undefined}
      data-position={memory.position ?? undefined}
    >
      {memory.position !== null && (
        <div className="mb-1">
          <TurnLabel role={memory.role} position={memory.position} />
        </div>
      )}
      <Link href={href} className="block text-sm text-slate-900 hover:text-indigo-700">
        <span className="line-clamp-3 whitespace-pre-line break-words">{memory.content}</span>
      </Link>
      <MemoryTags
        identityId={memory.identity_id}
        scopes={memory.scopes}
        metadata={memory.metadata}
        documentHref={documentHref}
      />
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
        <time dateTime={memory.created_at}>{formatUtc(memory.created_at)}</time>
        {memory.occurred_at !== memory.created_at && (
          <span>
            happened <time dateTime={memory.occurred_at}>{formatUtc(memory.occurred_at)}</time>
          </span>
        )}
        {memory.version > 1 && <span>version {memory.version}</span>}
        {memory.expires_at && (
          <span>
            expires <time dateTime={memory.expires_at}>{formatUtc(memory.expires_at)}</time>
          </span>
        )}
        <span>
          {memory.chunk_count} chunk{memory.chunk_count === 1 ? "" : "s"}
        </span>
        <span className="break-all font-mono">{memory.id}</span>
      </div>
    </li>
  );
}

const GROUP_HEADER =
  "flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 border-b border-slate-100 px-4 pt-3 pb-2";

/**
 * Consecutive turns of one conversation in the list, under a header naming the session with a link to
 * its transcript. The cards stay items of the list (the page's order is the API's).
 */
export function ConversationGroup({
  sessionId,
  href,
  children,
}: {
  sessionId: string;
  href: string;
  children: ReactNode;
}) {
  return (
    <li className="bg-slate-50/60" data-testid="conversation-group" data-session-id={sessionId}>
      <div className={GROUP_HEADER}>
        <span className="min-w-0 wrap-anywhere text-xs font-medium text-slate-600">
          Conversation <span className="font-mono">{sessionId}</span>
        </span>
        <Link href={href} className="text-xs text-indigo-600 hover:underline">
          View conversation
        </Link>
      </div>
      <ul className="divide-y divide-slate-100 border-l-4 border-indigo-100">{children}</ul>
    </li>
  );
}

const SPEAKER_STYLES = ["border-indigo-100 bg-indigo-50/70 sm:mr-12", "border-slate-200 bg-white sm:ml-12"];

/**
 * A conversation's turns in order, like a chat transcript: who spoke, when, what they said. The first
 * speaker's turns lean left, the next one's right (and so on, in turn), whatever the roles are called.
 */
export function ConversationTranscript({
  turns,
  memoryHref,
}: {
  turns: MemoryView[];
  memoryHref: (id: string) => string;
}) {
  const speakers = [...new Set(turns.map((turn) => turn.role))];
  return (
    <ol className="space-y-3" aria-label="Transcript" data-testid="transcript">
      {turns.map((turn) => {
        const side = speakers.indexOf(turn.role) % SPEAKER_STYLES.length;
        return (
          <li
            key={turn.id}
            className={`rounded-lg border p-3 shadow-sm ${SPEAKER_STYLES[side]}`}
            data-testid="transcript-turn"
            data-memory-id={turn.id}
            data-position={turn.position ?? undefined}
          >
            <div className="mb-1 flex flex-wrap items-baseline gap-x-3 gap-y-0.5 text-xs text-slate-600">
              <span className="wrap-anywhere text-sm font-semibold text-slate-900" data-testid="transcript-speaker">
                {turn.role ?? "unknown speaker"}
              </span>
              <time dateTime={turn.occurred_at}>{formatUtc(turn.occurred_at)}</time>
              <span>turn {turn.position}</span>
              <Link href={memoryHref(turn.id)} className="ml-auto text-indigo-600 hover:underline">
                <span className="sr-only">Turn {turn.position}: </span>details
              </Link>
            </div>
            <p className="whitespace-pre-wrap break-words text-sm text-slate-900" data-testid="transcript-content">
              {turn.content}
            </p>
          </li>
        );
      })}
    </ol>
  );
}

/** One row of the search results: the match's score, its text and labels, linked to its memory. */
export function MatchCard({ match, href }: { match: MatchView; href: string }) {
  const percent = Math.round(match.score * 100);
  return (
    <li className="px-4 py-3" data-testid="match-row" data-memory-id={match.memory_id}>
      <div className="flex items-start gap-3">
        <div className="w-16 shrink-0 text-right">
          <span
            className="font-mono text-sm font-semibold text-slate-900"
            data-testid="match-score"
            title={SCORE_MEANING}
          >
            {match.score.toFixed(3)}
          </span>
          <div className="mt-1 h-1.5 rounded bg-slate-100" aria-hidden="true">
            <div className="h-1.5 rounded bg-indigo-500" style={{ width: `${percent}%` }} />
          </div>
        </div>
        <div className="min-w-0 flex-1">
          {match.position !== null && (
            <div className="mb-1">
              <TurnLabel role={match.role} position={match.position} />
            </div>
          )}
          <Link href={href} className="block text-sm text-slate-900 hover:text-indigo-700">
            <span className="line-clamp-4 whitespace-pre-line break-words">{match.content}</span>
          </Link>
          {match.match_reasons && (
            <p className="mt-1 break-words text-xs text-slate-600" data-testid="match-reasons">
              {matchReasonsText(match.match_reasons)}
            </p>
          )}
          <MemoryTags identityId={match.identity_id} scopes={match.scopes} />
          <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
            <time dateTime={match.created_at}>{formatUtc(match.created_at)}</time>
            {match.session_id && <span className="wrap-anywhere">conversation {match.session_id}</span>}
            <span className="break-all font-mono">{match.memory_id}</span>
          </div>
        </div>
      </div>
    </li>
  );
}
