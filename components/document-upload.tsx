"use client";
// The Documents tab's ways in: files dropped on the upload area or chosen with its file input (several at once,
// sent one after the other, each with its progress and outcome), and a URL to fetch. Files go to the console's
// upload route as the request's body (a document may be 50 MB, past what a server action takes), which runs
// the POST /documents operation as the signed-in person; its refusals (415 with the supported types, 413,
// the namespace's permission) are shown on the file's line.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useRef, useState, type DragEvent } from "react";
import type { ActionResult } from "@/lib/console/action";
import { addDocumentUrl } from "@/lib/console/actions/documents";
import { messageAbove, useActionForm, UNREACHABLE } from "./action-form";
import { documentsPath, formatBytes } from "./document-parts";
import { Button, Field, Input, Notice, useHydrated } from "./ui";

type Added = { id: string; status: string };

interface Upload {
  key: number;
  name: string;
  size: number;
  state: "waiting" | "uploading" | "added" | "failed";
  /** 0 to 1 of the bytes sent. */
  progress: number;
  error?: string;
  documentId?: string;
}

const FILE_INPUT =
  "mt-1 block w-full min-w-0 text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 " +
  "file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-50";
const PROGRESS =
  "block h-1.5 w-full appearance-none overflow-hidden rounded bg-slate-100 " +
  "[&::-webkit-progress-bar]:bg-slate-100 [&::-webkit-progress-value]:bg-indigo-500";

/** The types the file picker offers (the server decides by the bytes; anything may still be dropped). */
const ACCEPT = ".pdf,.docx,.html,.htm,.md,.markdown,.txt,.png,.jpg,.jpeg";

export function DocumentUpload({
  orgSlug,
  namespaceId,
  maxBytes,
}: {
  orgSlug: string;
  namespaceId: string;
  /** DOCUMENT_MAX_BYTES: a larger file is refused here before it is sent, as the server would. */
  maxBytes: number;
}) {
  const router = useRouter();
  const inputId = useId();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const hydrated = useHydrated();
  // Files are sent one at a time, in the order they were given: each waits for the one before it.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const nextKey = useRef(0);
  const base = documentsPath(orgSlug, namespaceId);

  const change = (key: number, patch: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  function add(files: FileList | null) {
    if (!files?.length) return;
    const added = [...files].map((file) => ({ file, key: nextKey.current++ }));
    setUploads((current) => [
      ...added.map(({ file, key }) => ({
        key,
        name: file.name,
        size: file.size,
        state: "waiting" as const,
        progress: 0,
      })),
      ...current,
    ]);
    for (const { file, key } of added) {
      queue.current = queue.current.then(async () => {
        if (file.size > maxBytes) {
          change(key, {
            state: "failed",
            error: `The document is larger than ${formatBytes(maxBytes)}, the most a document may be.`,
          });
          return;
        }
        change(key, { state: "uploading" });
        const result = await send(`${base}/upload`, file, (progress) => change(key, { progress }));
        if (result.ok) {
          change(key, { state: "added", progress: 1, documentId: result.data.id });
          router.refresh();
        } else {
          change(key, { state: "failed", error: result.error });
        }
      });
    }
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer.files);
  }

  return (
    <div className="space-y-3">
      <div
        data-testid="document-drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = "copy";
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        className={`rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm transition ${
          dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-slate-50"
        }`}
      >
        <p className="font-medium text-slate-800">Drop files here</p>
        <p className="mt-1 text-slate-600">
          PDF, Word (.docx), HTML, Markdown, text, PNG or JPEG, up to {formatBytes(maxBytes)} each.
        </p>
        <div className="mx-auto mt-3 max-w-sm text-left">
          <label htmlFor={inputId} className="block font-medium text-slate-700">
            Or choose files
          </label>
          <input
            id={inputId}
            type="file"
            multiple
            accept={ACCEPT}
            // Before the page's script runs, a chosen file would go nowhere.
            disabled={!hydrated}
            onChange={(event) => {
              add(event.currentTarget.files);
              // The same file chosen again is a new upload.
              event.currentTarget.value = "";
            }}
            className={FILE_INPUT}
          />
        </div>
      </div>
      {uploads.length > 0 && (
        <ul
          aria-label="Uploads"
          className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white text-sm"
        >
          {uploads.map((upload) => (
            <UploadLine key={upload.key} upload={upload} href={upload.documentId && `${base}/${upload.documentId}`} />
          ))}
        </ul>
      )}
    </div>
  );
}

function UploadLine({ upload, href }: { upload: Upload; href: string | undefined }) {
  const percent = Math.round(upload.progress * 100);
  return (
    <li className="space-y-1 px-3 py-2" data-testid="upload-item" data-state={upload.state}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <span className="min-w-0 font-medium text-slate-800 [overflow-wrap:anywhere]">{upload.name}</span>
        <span className="shrink-0 text-xs text-slate-600" role="status">
          {formatBytes(upload.size)} · {upload.state === "waiting" && "waiting"}
          {upload.state === "uploading" && `uploading ${percent}%`}
          {upload.state === "failed" && "not added"}
          {upload.state === "added" && (
            <>
              added
              {href && (
                <>
                  {" · "}
                  <Link href={href} className="text-indigo-600 hover:underline">
                    open
                  </Link>
                </>
              )}
            </>
          )}
        </span>
      </div>
      {upload.state === "uploading" && (
        <progress className={PROGRESS} value={upload.progress} max={1} aria-label={`Uploading ${upload.name}`} />
      )}
      {upload.error && (
        <p className="text-xs text-rose-700 [overflow-wrap:anywhere]" role="alert">
          {upload.error}
        </p>
      )}
    </li>
  );
}

/**
 * Sends one file as the request's body, reporting the bytes sent (fetch cannot say how an upload is going), and
 * resolves to the action's outcome. Its name and declared type travel in headers, percent-encoded.
 */
function send(url: string, file: File, onProgress: (fraction: number) => void): Promise<ActionResult<Added>> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.setRequestHeader("content-type", "application/octet-stream");
    request.setRequestHeader("x-file-name", encodeURIComponent(file.name));
    if (file.type) request.setRequestHeader("x-file-type", encodeURIComponent(file.type));
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      try {
        resolve(JSON.parse(request.responseText));
      } catch {
        resolve({ ok: false, error: `The upload failed (HTTP ${request.status}). Try again.` });
      }
    };
    request.onerror = () => resolve({ ok: false, error: UNREACHABLE });
    request.send(file);
  });
}

/** "Add a URL": an https address of a web page or a file, fetched by the document's processing. */
export function DocumentUrlForm({ orgSlug, namespaceId }: { orgSlug: string; namespaceId: string }) {
  const router = useRouter();
  const form = useActionForm(
    (data: FormData) => addDocumentUrl(orgSlug, { namespace_id: namespaceId, url: String(data.get("url") ?? "") }),
    { onSuccess: () => router.refresh() },
  );
  const added = form.data;
  // A refusal of the URL is said under it, not again below; any other is said below.
  const error = messageAbove(form.error, form.fields, ["url"]);
  return (
    <form
      action={form.action}
      onResetCapture={form.keepAfterRefusal}
      className="space-y-3"
      aria-label="Add a URL"
      noValidate
    >
      <p className="text-sm text-slate-600">
        An https address of a web page or a file (PDF, Word…): it is fetched, read and can be refreshed later.
      </p>
      <div className="flex flex-wrap items-start gap-x-2 gap-y-3">
        <div className="min-w-0 flex-[1_1_16rem]">
          <Field label="URL" error={form.fields.url}>
            <Input
              name="url"
              type="url"
              inputMode="url"
              required
              maxLength={2048}
              placeholder="https://example.com/handbook.pdf"
              autoComplete="off"
              defaultValue={form.values.url}
            />
          </Field>
        </div>
        {/* Level with the input, below its label. */}
        <Button type="submit" disabled={form.pending} className="sm:mt-6">
          {form.pending ? "Adding…" : "Add URL"}
        </Button>
      </div>
      {error && <Notice tone="error">{error}</Notice>}
      {added && !form.pending && !form.error && (
        <Notice tone="success">
          Added: it is fetched and read now.{" "}
          <Link href={`${documentsPath(orgSlug, namespaceId)}/${added.id}`} className="font-medium underline">
            Open it
          </Link>
          .
        </Notice>
      )}
    </form>
  );
}
