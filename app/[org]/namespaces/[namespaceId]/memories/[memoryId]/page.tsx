// /{org}/namespaces/{namespaceId}/memories/{memoryId} — one memory: content, identity, scopes, metadata,
// chunks and dates, with a delete button. Not in that namespace, or not visible to the person: a 404 page.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { DeleteMemoryButton } from "@/components/delete-memory-button";
import { formatUtc } from "@/components/format";
import { ExplorerBreadcrumb, MemoryTags } from "@/components/memory-explorer";
import { Card, PageHeader } from "@/components/ui";
import { memberAccess } from "@/lib/console/session";
import { NotFoundError } from "@/lib/errors";
import { getMemoryWithChunks } from "@/lib/memory/list";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { identifier } from "@/lib/validation/strings";

const Id = identifier({ min: 1, max: 255 });

function notFoundPage(error: unknown): never {
  if (error instanceof NotFoundError) notFound();
  throw error;
}

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
  const namespace = await getNamespace(principal, namespaceId).catch(notFoundPage);
  const { memory, chunks } = await getMemoryWithChunks(principal, namespace.id, memoryId).catch(notFoundPage);
  const orgSlug = access.org.slug;
  const explorer = `/${orgSlug}/namespaces/${namespace.id}/memories`;
  const scopes = memory.scopes as Record<string, string>;
  const metadata = memory.metadata as Record<string, unknown>;

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
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
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
              <pre tabIndex={0} aria-label="Metadata" className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                {JSON.stringify(metadata, null, 2)}
              </pre>
            ) : (
              <span className="text-slate-500">none</span>
            )}
          </Detail>
          <Detail term="Created">{formatUtc(memory.createdAt)}</Detail>
          <Detail term="Updated">{formatUtc(memory.updatedAt)}</Detail>
        </dl>
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

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </>
  );
}
