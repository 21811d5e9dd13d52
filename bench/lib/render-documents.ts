// The benchmark's documents: a corpus rendered to real PDF (pdf-lib) and DOCX (docx) files, one document of
// the corpus after another, so that extraction can be compared with the same corpus sent as text.
import { Document, HeadingLevel, Packer, Paragraph } from "docx";
import { PDFDocument, StandardFonts, type PDFFont } from "pdf-lib";

export interface CorpusDoc {
  id: string;
  title: string;
  text: string;
}

const PAGE = { width: 612, height: 792, margin: 54 };
const BODY = { size: 10, leading: 12.5 };
const TITLE = { size: 14, leading: 18 };

/**
 * The text as PDF's standard fonts can draw it (WinAnsi: Latin-1 and a few more): accents decomposed and
 * dropped, other characters (Greek letters, math) as a space. The text baseline of the fidelity measure is
 * sent this same text, so that only extraction differs.
 */
export function standardFontText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\x20-\x7e\xa0-\xff]/g, " ")
    .replace(/ {2,}/g, " ")
    .trim();
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A PDF of the documents, each starting on a new page with its title in a larger bold font, its text
 * continuing on further pages when it is long. Returns which corpus document each page (1-based) holds.
 */
export async function renderPdf(docs: CorpusDoc[]): Promise<{ bytes: Uint8Array; docOfPage: string[] }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - 2 * PAGE.margin;
  const docOfPage: string[] = [];
  for (const doc of docs) {
    let page = pdf.addPage([PAGE.width, PAGE.height]);
    docOfPage.push(doc.id);
    let y = PAGE.height - PAGE.margin;
    const title = standardFontText(doc.title);
    for (const line of title ? wrap(title, bold, TITLE.size, width) : []) {
      page.drawText(line, { x: PAGE.margin, y, size: TITLE.size, font: bold });
      y -= TITLE.leading;
    }
    y -= BODY.leading;
    for (const line of wrap(standardFontText(doc.text), font, BODY.size, width)) {
      if (y < PAGE.margin) {
        page = pdf.addPage([PAGE.width, PAGE.height]);
        docOfPage.push(doc.id);
        y = PAGE.height - PAGE.margin;
      }
      page.drawText(line, { x: PAGE.margin, y, size: BODY.size, font });
      y -= BODY.leading;
    }
  }
  return { bytes: await pdf.save(), docOfPage };
}

/** A DOCX of the documents: each title a level-1 heading, its text the paragraph under it. */
export async function renderDocx(docs: CorpusDoc[]): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        children: docs.flatMap((doc) => [
          new Paragraph({ text: doc.title || doc.id, heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: doc.text }),
        ]),
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}
