// Real documents for the documents tests: PDFs written with pdf-lib, and the API's document routes called
// with multipart bodies, as a client would send them.
import { PDFDocument, StandardFonts } from "pdf-lib";
import { documentJobRunners } from "@/lib/documents/ingest-document";
import { runDueJobs } from "@/lib/jobs/queue";
import { api, routeRequest } from "./api";

/** A PDF of these pages, each a heading in a large font and paragraphs of body text. */
export async function pdfOf(pages: { heading: string; paragraphs: string[] }[], title?: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (title) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const { heading, paragraphs } of pages) {
    const page = pdf.addPage([612, 792]);
    let y = 720;
    page.drawText(heading, { x: 72, y, size: 20, font: bold });
    y -= 40;
    for (const paragraph of paragraphs) {
      for (const line of wrap(paragraph, 80)) {
        page.drawText(line, { x: 72, y, size: 11, font });
        y -= 15;
      }
      y -= 12;
    }
  }
  return pdf.save();
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

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
