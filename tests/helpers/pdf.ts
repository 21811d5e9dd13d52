// PDFs for the documents tests (API and browser), written with pdf-lib: each page a heading in a large bold
// font, then paragraphs of body text.
import fs from "node:fs";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";

export async function pdfOf(
  pages: { heading: string; paragraphs: string[] }[],
  title?: string,
  headingSize = 20,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (title) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const { heading, paragraphs } of pages) {
    const page = pdf.addPage([612, 792]);
    let y = 720;
    page.drawText(heading, { x: 72, y, size: headingSize, font: bold });
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

/** A PDF of `pages` scanned pages (a picture of a line of text each, no text layer): each is read by OCR. */
export async function scannedPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const scan = await pdf.embedPng(
    fs.readFileSync(path.join(import.meta.dirname, "../fixtures/documents/scan-text.png")),
  );
  for (let i = 0; i < pages; i++) pdf.addPage([612, 792]).drawImage(scan, { x: 6, y: 500, width: 600, height: 150 });
  return pdf.save();
}
