"use client";
// What can be done to a document from the console: delete it (asked first), fetch a URL's document again, and
// the refresh that keeps a page's statuses current while a document is still being processed.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { deleteDocument, refreshDocument } from "@/lib/console/actions/documents";
import { useActionForm } from "./action-form";
import { ConfirmDialog } from "./confirm-dialog";
import { Button, Notice } from "./ui";

interface DocumentRef {
  orgSlug: string;
  namespaceId: string;
  documentId: string;
  /** Its title or file name, as the dialog names it. */
  name: string;
}

export function DeleteDocumentButton({
  afterDelete,
  compact = false,
  ...document
}: DocumentRef & {
  /** Where to go once it is deleted (the list, from the document's own page); the same page when absent. */
  afterDelete?: string;
  /** A small button for a table row. */
  compact?: boolean;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => setOpen(true)}
        className={compact ? "!px-2.5 !py-1 !text-xs" : ""}
        aria-label={compact ? `Delete ${document.name}` : undefined}
      >
        {compact ? "Delete" : "Delete document"}
      </Button>
      {open && (
        <ConfirmDialog
          title="Delete this document?"
          confirmLabel="Delete document"
          onCancel={() => setOpen(false)}
          onConfirm={async () => {
            const result = await deleteDocument(document.orgSlug, {
              namespace_id: document.namespaceId,
              document_id: document.documentId,
            });
            return result.ok ? undefined : result.error;
          }}
          onDone={() => {
            setOpen(false);
            if (afterDelete) router.push(afterDelete);
            else router.refresh();
          }}
        >
          <p>
            <span className="font-medium [overflow-wrap:anywhere]">{document.name}</span> is deleted with its original
            file, its text and the memories of its passages: recall and ask no longer find them. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** Fetches a URL's document again: its passages are replaced by what the address says now. */
export function RefreshDocumentButton(document: Omit<DocumentRef, "name">) {
  const router = useRouter();
  const form = useActionForm(
    (_: undefined) =>
      refreshDocument(document.orgSlug, { namespace_id: document.namespaceId, document_id: document.documentId }),
    { onSuccess: () => router.refresh() },
  );
  return (
    <div className="flex flex-col items-end gap-2">
      <Button variant="secondary" disabled={form.pending} onClick={() => form.run()}>
        {form.pending ? "Refreshing…" : "Refresh from URL"}
      </Button>
      {form.error && <Notice tone="error">{form.error}</Notice>}
    </div>
  );
}

/** How often a page with documents still being processed reads their status again. */
const REFRESH_MS = 2_000;

/**
 * Re-reads the page's server data every two seconds while `active` (a document is queued or processing), so a
 * status becomes ready or failed without a reload; nothing runs once none is.
 */
export function RefreshWhilePending({ active }: { active: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, router]);
  return null;
}
