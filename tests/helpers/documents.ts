// The documents tests' calls: the API's document routes with multipart bodies, as a client would send them,
// and the processing of what is queued. PDFs come from ./pdf.ts.
import { documentJobRunners } from "@/lib/documents/ingest-document";
import { runDueJobs } from "@/lib/jobs/queue";
import { api, routeRequest } from "./api";

export { pdfOf } from "./pdf";

/** POST /documents with a multipart body: the file and the other fields as form fields. */
export async function uploadDocument(
  key: string,
  file: { bytes: Uint8Array; name: string; type: string },
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const response = await routeRequest(
    new Request("http://gateway.test/api/v1/documents", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, ...headers },
      body: form,
    }),
  );
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** Runs the queued documents' processing to the end, as the server's job worker does. */
export function processDocuments(): Promise<number> {
  return runDueJobs(documentJobRunners);
}

export async function addDocument(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/documents", { key, body });
  if (response.status !== 202) throw new Error(`add document failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; status: string };
}
