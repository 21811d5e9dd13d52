// /{org}/namespaces/{namespaceId}/memories/{memoryId} — one memory: every field (its conversation, identity,
// scopes, metadata, event time, expiry, version, dates, validity, where it came from), an edit form (PATCH
// /memories/{id}'s operation), its history (GET /memories/{id}/history's), its chunks, and a delete button. Not in
// that namespace, or not visible to the person: a 404 page.
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { DeleteMemoryButton } from "@/components/delete-memory-button";
import { formatUtc } from "@/components/format";
import { MemoryEditForm } from "@/components/memory-edit-form";
import { ExplorerBreadcrumb, MemoryTags, TurnLabel } from "@/components/memory-explorer";
import { Card, Notice, PageHeader } from "@/components/ui";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { explorerHref } from "@/lib/console/memory-filters";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { getMemoryWithChunks } from "@/lib/memory/read/list";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { operationAllowed, runOperation } from "@/lib/operations/run";
import { identifier } from "@/lib/validation/strings";
import type { InferenceState } from "@/lib/memory/common/memory-origin";
import type { SupersessionJson } from "@/lib/memory/common/validity-fields";
import type { Metadata } from "next";

/** The latest versions shown; the API's history pages through the rest. */
const HISTORY_SHOWN = 50;

const Id = identifier({ min: 1, max: 255 });

export const metadata: Metadata = { title: "Memory" };

export default async function MemoryPage({
  params,
}: {
  params: Promise<{ org: string; namespaceId: string; memoryId: string }>;
}) {
  const { org: slug, namespaceId, memoryId } = await params;
  const access = await memberAccess(slug);
  if (!access) return null;
  const ids = [Id.safeParse(namespaceId), Id.safeParse(memoryId)];
  if (!ids.every((id) => id.success)) notFound();
  const { principal } = access;
  const namespace = await orNotFound(getNamespace(principal, namespaceId));
  const { memory, chunks } = await orNotFound(getMemoryWithChunks(principal, namespace.id, memoryId));
  const history = await orNotFound(
    runOperation(operations.memoryHistory, principal, {
      params: { id: memory.id },
      query: { page_size: String(HISTORY_SHOWN) },
    }),
  );
  const orgSlug = access.org.slug;
  const explorer = `/${orgSlug}/namespaces/${namespace.id}/memories`;
  const scopes = memory.scopes as Record<string, string>;
  const metadata = memory.metadata as Record<string, unknown>;
  const editRefusal = refusalToEdit(principal);
  const supersession = memory.supersession as SupersessionJson;
  const inference = memory.inference as InferenceState | null;

  return (
    <div className="space-y-6">
      <div>
        <ExplorerBreadcrumb orgSlug={orgSlug} namespace={namespace} memoryId={memory.id} />
        <PageHeader
          title="Memory"
          description={<span className="break-all font-mono text-xs">{memory.id}</span>}
          actions={
            <DeleteMemoryButton
              orgSlug={orgSlug}
              namespaceId={namespace.id}
              memoryId={memory.id}
              afterDelete={explorer}
            />
          }
        />
      </div>
      <Card title="Content">
        <p className="whitespace-pre-wrap break-words text-sm text-slate-900" data-testid="memory-content">
          {memory.content}
        </p>
      </Card>
      <Card title="Details">
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]" data-testid="memory-details">
          <Detail term="Conversation">
            {memory.sessionId ? (
              <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="break-all font-mono text-xs" data-testid="memory-session">
                  {memory.sessionId}
                </span>
                <TurnLabel role={memory.role} position={memory.sessionPosition} />
                <Link href={explorerHref(explorer, { session: memory.sessionId })} className={LINK}>
                  View conversation
                </Link>
              </span>
            ) : (
              <span className="text-slate-500">none (not a turn of a conversation)</span>
            )}
          </Detail>
          <Detail term="Identity">{memory.identityId ?? <span className="text-slate-500">none</span>}</Detail>
          <Detail term="Scopes">
            {Object.keys(scopes).length ? (
              <MemoryTags identityId={null} scopes={scopes} />
            ) : (
              <span className="text-slate-500">none (visible to keys without scopes)</span>
            )}
          </Detail>
          <Detail term="Metadata">
            {Object.keys(metadata).length ? (
              <pre
                tabIndex={0}
                aria-label="Metadata"
                className="overflow-x-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 text-xs"
              >
                {JSON.stringify(metadata, null, 2)}
              </pre>
            ) : (
              <span className="text-slate-500">none</span>
            )}
          </Detail>
          <Detail term="Happened">{formatUtc(memory.occurredAt)}</Detail>
          <Detail term="Version">
            <span data-testid="memory-version-number">{memory.version}</span>
          </Detail>
          <Detail term="Created">{formatUtc(memory.createdAt)}</Detail>
          <Detail term="Updated">{formatUtc(memory.updatedAt)}</Detail>
          <Detail term="Expires">{formatUtc(memory.expiresAt, "never")}</Detail>
          <Detail term="Holds">
            <span data-testid="memory-validity">
              since {formatUtc(memory.validAt)}
              {memory.invalidAt ? `, until ${formatUtc(memory.invalidAt)}` : ", and still holds"}
              {memory.supersededBy && (
                <>
                  {" — replaced by "}
                  <Link href={`${explorer}/${memory.supersededBy}`} className={`${LINK} break-all font-mono text-xs`}>
                    {memory.supersededBy}
                  </Link>
                </>
              )}
              {supersession && ` (${SUPERSESSION_LABELS[supersession.kind] ?? supersession.kind})`}
            </span>
          </Detail>
          <Detail term="Slot">
            {memory.factKey ? (
              <span className="font-mono text-xs">{memory.factKey}</span>
            ) : (
              <span className="text-slate-500">none</span>
            )}
          </Detail>
          <Detail term="Origin">
            <span data-testid="memory-origin">
              {memory.kind === "fact" ? "a fact the chat model extracted from " : "written by a caller"}
              {memory.derivedFrom.map((id) => (
                <Link key={id} href={`${explorer}/${id}`} className={`${LINK} mr-2 break-all font-mono text-xs`}>
                  {id}
                </Link>
              ))}
              {inference && (
                <span className="block text-slate-600">
                  Chat model: {inference.status}
                  {inference.facts.length > 0 && `, ${inference.facts.length} fact(s)`}
                  {inference.error && ` — ${inference.error}`}
                </span>
              )}
            </span>
          </Detail>
        </dl>
      </Card>
      <Card title="Edit">
        {editRefusal ? (
          <Notice>{editRefusal}</Notice>
        ) : (
          <MemoryEditForm
            orgSlug={orgSlug}
            namespaceId={namespace.id}
            memoryId={memory.id}
            version={memory.version}
            initial={{
              content: memory.content,
              metadata: Object.keys(metadata).length ? JSON.stringify(metadata, null, 2) : "",
              scopes: Object.entries(scopes)
                .map(([key, value]) => `${key}=${value}`)
                .join(", "),
              identity_id: memory.identityId ?? "",
              occurred_at: memory.occurredAt.toISOString(),
              expires_at: memory.expiresAt?.toISOString() ?? "",
            }}
          />
        )}
      </Card>
      <Card
        title={`History (${history.pagination?.total ?? history.data.length})`}
        description="Every version, newest first, the current one included: who wrote it, when, and what it changed."
      >
        <ol className="space-y-3" data-testid="memory-history">
          {history.data.map((version) => (
            <li
              key={version.version}
              className="rounded-md border border-slate-200 p-3"
              data-testid="memory-version"
              data-version={version.version}
            >
              <div className="mb-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
                <span className="font-semibold text-slate-900">Version {version.version}</span>
                <time dateTime={version.changed_at}>{formatUtc(version.changed_at)}</time>
                <span className="wrap-anywhere">{authorLabel(version.changed_by)}</span>
                <span>
                  {version.changed_fields.length
                    ? `changed ${version.changed_fields.join(", ")}`
                    : "as first remembered"}
                </span>
              </div>
              <p
                className="whitespace-pre-wrap break-words text-sm text-slate-800"
                data-testid="memory-version-content"
              >
                {version.content}
              </p>
            </li>
          ))}
        </ol>
        {(history.pagination?.total ?? 0) > history.data.length && (
          <p className="mt-3 text-xs text-slate-500">
            The latest {history.data.length} are shown; <code>GET /api/v1/memories/{"{id}"}/history</code> pages through
            every one.
          </p>
        )}
      </Card>
      <Card
        title={`Chunks (${chunks.length})`}
        description="How the memory was split for search: each chunk is embedded and indexed on its own."
      >
        <ol className="space-y-3" data-testid="memory-chunks">
          {chunks.map((chunk) => (
            <li key={chunk.id} className="rounded-md border border-slate-200 p-3" data-testid="memory-chunk">
              <div className="mb-1 flex flex-wrap justify-between gap-2 text-xs text-slate-500">
                <span>Chunk {chunk.position + 1}</span>
                <span className="break-all font-mono">{chunk.id}</span>
              </div>
              <p className="whitespace-pre-wrap break-words text-sm text-slate-800">{chunk.content}</p>
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}

const LINK = "text-indigo-600 hover:underline";

/** How a memory came to stop holding, in words. */
const SUPERSESSION_LABELS: Record<string, string> = {
  fact_key: "a newer memory of its slot",
  named: "named in a newer memory's supersedes",
  inferred: "inferred offline: a newer statement of the same slot",
  model: "the chat model's decision",
  caller: "closed by an edit",
};

/** Why this person may not edit memories, or null when they may (the update operation's own check). */
function refusalToEdit(principal: MemberPrincipal): string | null {
  if (operationAllowed(operations.updateMemory, principal)) return null;
  return "Your role can read this memory but not change it: editing needs the namespace write permission.";
}

function authorLabel(author: { kind: string; id: string | null; name: string | null } | null): string {
  if (!author) return "author not recorded";
  const kind = { api_key: "API key", user: "console user", integration: "integration" }[author.kind] ?? author.kind;
  return `by ${kind} ${author.name ?? author.id ?? ""}`.trim();
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </>
  );
}
