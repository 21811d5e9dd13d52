// Pieces of the Documents tab shared by its list and a document's page: the status badge, the type and size
// as people read them, and the name a document goes by. Plain rendering: server and client components alike.
import type { DocumentJson, DocumentStatus } from "@/lib/documents/schemas";
import { NamespaceBreadcrumb } from "./namespace-breadcrumb";

const STATUS_STYLES: Record<DocumentStatus, { label: string; chip: string }> = {
  queued: { label: "Queued", chip: "border-slate-200 bg-slate-50 text-slate-700" },
  processing: { label: "Processing", chip: "border-amber-200 bg-amber-50 text-amber-800" },
  ready: { label: "Ready", chip: "border-emerald-200 bg-emerald-50 text-emerald-800" },
  failed: { label: "Failed", chip: "border-rose-200 bg-rose-50 text-rose-800" },
};

const CHIP = "inline-flex items-center gap-1.5 whitespace-nowrap rounded border px-1.5 py-0.5 text-xs font-medium";

/** Still on its way to ready or failed: the page keeps refreshing while any document is. */
export const isPending = (status: DocumentStatus) => status === "queued" || status === "processing";

export function DocumentStatusBadge({ status }: { status: DocumentStatus }) {
  const { label, chip } = STATUS_STYLES[status];
  return (
    <span className={`${CHIP} ${chip}`} data-testid="document-status" data-status={status}>
      {isPending(status) && (
        <span
          aria-hidden="true"
          className="size-1.5 animate-pulse rounded-full bg-current motion-reduce:animate-none"
        />
      )}
      {label}
    </span>
  );
}

const TYPE_LABELS: Record<string, string> = {
  "application/pdf": "PDF",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "Word",
  "text/html": "Web page",
  "text/markdown": "Markdown",
  "text/plain": "Text",
  "image/png": "PNG image",
  "image/jpeg": "JPEG image",
};

/** The type a document was read as, in words; a URL not fetched yet has none. */
export function documentTypeLabel(contentType: string | null): string {
  if (!contentType) return "—";
  return TYPE_LABELS[contentType] ?? contentType;
}

/** 1,234 bytes as "1.2 KB" (powers of 1024, as the size limit is set). */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return "—";
  if (bytes < 1024) return `${bytes.toLocaleString("en-US")} bytes`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toLocaleString("en-US", { maximumFractionDigits: value < 10 ? 1 : 0 })} ${units[unit]}`;
}

/** What a document is called: its title, else the file's name, else its URL, else its id. */
export function documentName(document: Pick<DocumentJson, "id" | "title" | "filename" | "source_url">): string {
  return document.title ?? document.filename ?? document.source_url ?? document.id;
}

export function documentsPath(orgSlug: string, namespaceId: string): string {
  return `/${orgSlug}/namespaces/${namespaceId}/documents`;
}

export function DocumentBreadcrumb({
  orgSlug,
  namespace,
  documentName: name,
}: {
  orgSlug: string;
  namespace: { id: string; name: string };
  documentName: string;
}) {
  const documents = { label: "Documents", href: documentsPath(orgSlug, namespace.id) };
  return <NamespaceBreadcrumb orgSlug={orgSlug} namespace={namespace} trail={[documents, { label: name }]} />;
}
