// Documents in the benchmark. Fidelity, through lib/ (embedded PGlite, local embeddings): the SciFact corpus
// rendered to PDF and to DOCX files, each file added as a document and processed like any other, against the
// same corpus sent as text: nDCG@10 of hybrid recall, each passage counted as the corpus document it came
// from. Ingestion, over HTTP against the production build: pages per second of a 100-page text PDF and of
// scanned images read by OCR, and recall latency from another namespace while they are processed.
import { createDocument } from "@/lib/documents/create-document";
import { documentJobRunners } from "@/lib/documents/ingest-document";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { runDueJobs } from "@/lib/jobs/queue";
import { createNamespace } from "@/lib/namespaces/namespaces";
import { loadDataset, type Dataset } from "./lib/beir";
import { renderDocx, renderPdf, standardFontText, type CorpusDoc } from "./lib/render-documents";
import { benchPrincipal, cachedEmbedder, evaluate, loadIntoNamespace } from "./quality";

/** Documents per rendered file: a handbook's size, and a corpus of 5,183 in eleven files. */
const DOCS_PER_FILE = 500;

export interface FidelityRow {
  form: "text" | "text (standard-font characters)" | "pdf" | "docx";
  files: number;
  pages: number | null;
  passages: number;
  ndcg10: number;
  /** Passages whose corpus document could not be told (counted as no document). */
  unmapped: number;
  processingSeconds: number;
}

type Principal = Awaited<ReturnType<typeof benchPrincipal>>;

const inFiles = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / DOCS_PER_FILE) }, (_, i) =>
    items.slice(i * DOCS_PER_FILE, (i + 1) * DOCS_PER_FILE),
  );

/** Adds files as documents of a new namespace and processes them; the passages' memories, with where they sit. */
async function ingestFiles(
  principal: Principal,
  name: string,
  files: { bytes: Uint8Array; contentType: string }[],
  log: (line: string) => void,
) {
  const namespace = await createNamespace(principal, { name });
  const started = performance.now();
  const documentIds: string[] = [];
  for (const file of files) {
    const document = await createDocument(principal, {
      namespace_id: namespace.id,
      content: Buffer.from(file.bytes).toString("base64"),
      content_encoding: "base64",
      content_type: file.contentType,
    });
    documentIds.push(document.id);
    await runDueJobs(documentJobRunners);
    log(`  ${name}: ${documentIds.length}/${files.length} files processed (${seconds(started)} s)`);
  }
  const prisma = await db();
  const failed = await prisma.document.findMany({ where: { namespaceId: namespace.id, status: { not: "ready" } } });
  if (failed.length) throw new Error(`documents not processed: ${failed.map((d) => d.error).join("; ")}`);
  const pages = await prisma.document.aggregate({ where: { namespaceId: namespace.id }, _sum: { pageCount: true } });
  const memories = await prisma.memory.findMany({
    where: { namespaceId: namespace.id },
    select: { id: true, documentId: true, metadata: true },
  });
  return {
    namespace,
    documentIds,
    memories,
    pages: pages._sum.pageCount,
    processingSeconds: (performance.now() - started) / 1000,
  };
}

const seconds = (started: number) => ((performance.now() - started) / 1000).toFixed(0);
const heading = (text: string) => text.replace(/\s+/g, " ").trim();

export async function measureDocumentFidelity(options: {
  datasetsDir: string;
  log: (line: string) => void;
}): Promise<FidelityRow[]> {
  const cache = cachedEmbedder();
  const principal = await benchPrincipal();
  const scifact = loadDataset(options.datasetsDir, "scifact");
  const queryVectors = await cache.embed(
    scifact.queries.map((q) => q.text),
    "query",
  );
  const rows: FidelityRow[] = [];
  const hybrid = async (namespaceId: string, dataset: Dataset, docOf?: Map<string, string>) => {
    await (await db()).$executeRaw(Prisma.sql`VACUUM ANALYZE`);
    const [row] = await evaluate(
      principal.orgId,
      namespaceId,
      dataset,
      queryVectors,
      [{ mode: "hybrid" }],
      () => {},
      docOf,
    );
    return row.ndcg10;
  };
  const textRow = async (form: FidelityRow["form"], dataset: Dataset) => {
    const started = performance.now();
    const namespace = await loadIntoNamespace(principal, dataset, () => {});
    const passages = await (await db()).memory.count({ where: { namespaceId: namespace.id } });
    const row: FidelityRow = {
      form,
      files: 0,
      pages: null,
      passages,
      ndcg10: await hybrid(namespace.id, dataset),
      unmapped: 0,
      processingSeconds: (performance.now() - started) / 1000,
    };
    options.log(`  ${form}: nDCG@10 ${row.ndcg10.toFixed(3)} (${passages} memories)`);
    rows.push(row);
  };
  await textRow("text", scifact);
  // PDF's standard fonts draw Latin-1 only: the PDF is compared with the same characters sent as text.
  const standard: Dataset = {
    ...scifact,
    name: "scifact-standard-font",
    docs: scifact.docs.map((d) => ({ ...d, title: standardFontText(d.title), text: standardFontText(d.text) })),
  };
  await textRow("text (standard-font characters)", standard);

  const pdfFiles = await Promise.all(inFiles<CorpusDoc>(scifact.docs).map(renderPdf));
  const pdf = await ingestFiles(
    principal,
    "scifact-pdf",
    pdfFiles.map((file) => ({ bytes: file.bytes, contentType: "application/pdf" })),
    options.log,
  );
  const pdfDocOf = new Map<string, string>();
  let pdfUnmapped = 0;
  for (const memory of pdf.memories) {
    const file = pdf.documentIds.indexOf(memory.documentId ?? "");
    const page = (memory.metadata as { page?: number }).page;
    const doc = file >= 0 && page ? pdfFiles[file].docOfPage[page - 1] : undefined;
    if (doc) pdfDocOf.set(memory.id, doc);
    else pdfUnmapped += 1;
  }
  rows.push({
    form: "pdf",
    files: pdfFiles.length,
    pages: pdf.pages,
    passages: pdf.memories.length,
    ndcg10: await hybrid(pdf.namespace.id, standard, pdfDocOf),
    unmapped: pdfUnmapped,
    processingSeconds: pdf.processingSeconds,
  });
  options.log(`  pdf: nDCG@10 ${rows.at(-1)!.ndcg10.toFixed(3)} (${pdf.memories.length} passages, ${pdf.pages} pages)`);

  const docxGroups = inFiles<CorpusDoc>(scifact.docs);
  const docxFiles = await Promise.all(docxGroups.map(renderDocx));
  const docx = await ingestFiles(
    principal,
    "scifact-docx",
    docxFiles.map((bytes) => ({
      bytes,
      contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    })),
    options.log,
  );
  const docOfHeading = docxGroups.map((group) => {
    const byTitle = new Map<string, string>();
    for (const doc of group)
      if (!byTitle.has(heading(doc.title || doc.id))) byTitle.set(heading(doc.title || doc.id), doc.id);
    return byTitle;
  });
  const docxDocOf = new Map<string, string>();
  let docxUnmapped = 0;
  for (const memory of docx.memories) {
    const file = docx.documentIds.indexOf(memory.documentId ?? "");
    const section = (memory.metadata as { section?: string }).section;
    const doc = file >= 0 && section ? docOfHeading[file].get(heading(section)) : undefined;
    if (doc) docxDocOf.set(memory.id, doc);
    else docxUnmapped += 1;
  }
  rows.push({
    form: "docx",
    files: docxFiles.length,
    pages: null,
    passages: docx.memories.length,
    ndcg10: await hybrid(docx.namespace.id, scifact, docxDocOf),
    unmapped: docxUnmapped,
    processingSeconds: docx.processingSeconds,
  });
  options.log(`  docx: nDCG@10 ${rows.at(-1)!.ndcg10.toFixed(3)} (${docx.memories.length} passages)`);
  return rows;
}
