// Documents as structured text (lib/documents/extract): real files generated here (PDF with pdf-lib, DOCX with
// docx) and two images rendered by Chromium (tests/fixtures/documents), read back with the text, order, page
// numbers and heading paths a reader of the original would expect. No database, no network.
import fs from "node:fs";
import path from "node:path";
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from "docx";
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from "pdf-lib";
import { extractImages, getDocumentProxy } from "unpdf";
import { afterAll, describe, expect, test } from "vitest";
import {
  closeOcr,
  detectContentType,
  DocumentUnreadableError,
  type ExtractedDocument,
  extractDocument,
  type ExtractionLimits,
  SUPPORTED_CONTENT_TYPES,
} from "@/lib/documents/extract";

const LIMITS: ExtractionLimits = { maxPages: 50, maxOcrPages: 5, timeoutMs: 60_000 };
const PDF = "application/pdf";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
// OCR on this 2-core machine takes a second or two per image, plus about one to start the worker.
const OCR_TIMEOUT = 120_000;

const fixture = (name: string) =>
  new Uint8Array(fs.readFileSync(path.join(import.meta.dirname, "../fixtures/documents", name)));
const utf8 = (text: string) => new TextEncoder().encode(text);
const texts = (document: ExtractedDocument) => document.blocks.map((block) => block.text);
/** Words only: OCR may read punctuation and letter case a little differently from the original. */
const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9 ]/g, "");

afterAll(async () => {
  await closeOcr();
});

/**
 * Two A4-ish pages, each with a heading in 22 pt and two columns of 11 pt text whose lines sit level with
 * each other (so reading line by line across the page would interleave them), the first column with a word
 * hyphenated over a line break.
 */
async function twoColumnPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle("Field Guide to Wet Places");
  const body = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const column = (page: PDFPage, x: number, paragraphs: string[][]) => {
    let y = 680;
    for (const lines of paragraphs) {
      for (const line of lines) {
        page.drawText(line, { x, y, size: 11, font: body });
        y -= 14;
      }
      y -= 12;
    }
  };
  const pages = [
    { heading: "Wetlands", left: "Herons", right: "Otters" },
    { heading: "Rivers", left: "Salmon", right: "Beavers" },
  ];
  for (const { heading, left, right } of pages) {
    const page = pdf.addPage([612, 792]);
    page.drawText(heading, { x: 50, y: 730, size: 22, font: bold });
    column(page, 50, [
      [`${left} wade through the shallow`, "marshes and keep careful infor-", "mation about the tides."],
      [`${left} nest in the tall reeds.`],
    ]);
    column(page, 320, [
      [`${right} swim along the muddy`, "banks at dusk and dawn."],
      [`${right} rest in the cold shade.`],
    ]);
    page.drawText(String(pdf.getPageCount()), { x: 300, y: 40, size: 9, font: body });
  }
  return pdf.save();
}

describe("PDF", () => {
  test("two columns come out column by column, with page numbers, headings and mended hyphenation", async () => {
    const document = await extractDocument(await twoColumnPdf(), PDF, LIMITS);
    expect(document.title).toBe("Field Guide to Wet Places");
    expect(document.pageCount).toBe(2);
    expect(document.ocrPages).toEqual([]);
    expect(document.blocks).toEqual([
      {
        page: 1,
        section: ["Wetlands"],
        text: "Herons wade through the shallow marshes and keep careful information about the tides.",
      },
      { page: 1, section: ["Wetlands"], text: "Herons nest in the tall reeds." },
      { page: 1, section: ["Wetlands"], text: "Otters swim along the muddy banks at dusk and dawn." },
      { page: 1, section: ["Wetlands"], text: "Otters rest in the cold shade." },
      {
        page: 2,
        section: ["Rivers"],
        text: "Salmon wade through the shallow marshes and keep careful information about the tides.",
      },
      { page: 2, section: ["Rivers"], text: "Salmon nest in the tall reeds." },
      { page: 2, section: ["Rivers"], text: "Beavers swim along the muddy banks at dusk and dawn." },
      { page: 2, section: ["Rivers"], text: "Beavers rest in the cold shade." },
    ]);
  });

  test("a larger heading holds the smaller ones under it, across pages", async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.TimesRoman);
    const first = pdf.addPage([612, 792]);
    first.drawText("Benefits", { x: 72, y: 720, size: 24, font });
    first.drawText("Parental leave", { x: 72, y: 680, size: 16, font });
    first.drawText("Parents take sixteen weeks of paid leave.", { x: 72, y: 655, size: 11, font });
    const second = pdf.addPage([612, 792]);
    second.drawText("Leave may start before the birth.", { x: 72, y: 720, size: 11, font });
    second.drawText("Pensions", { x: 72, y: 690, size: 16, font });
    second.drawText("The employer adds five percent of salary.", { x: 72, y: 665, size: 11, font });
    const document = await extractDocument(await pdf.save(), PDF, LIMITS);
    // No Title in the document info: the first heading is the title.
    expect(document.title).toBe("Benefits");
    expect(document.blocks).toEqual([
      { page: 1, section: ["Benefits", "Parental leave"], text: "Parents take sixteen weeks of paid leave." },
      { page: 2, section: ["Benefits", "Parental leave"], text: "Leave may start before the birth." },
      { page: 2, section: ["Benefits", "Pensions"], text: "The employer adds five percent of salary." },
    ]);
  });

  test(
    "a scanned page (an image, no text layer) is read by OCR",
    async () => {
      const pdf = await PDFDocument.create();
      const font = await pdf.embedFont(StandardFonts.Helvetica);
      pdf.addPage([612, 792]).drawText("This first page has a real text layer.", { x: 72, y: 700, size: 12, font });
      const scan = await pdf.embedPng(fixture("scan-text.png"));
      pdf.addPage([612, 792]).drawImage(scan, { x: 6, y: 500, width: 600, height: 150 });
      const document = await extractDocument(await pdf.save(), PDF, LIMITS);
      expect(document.pageCount).toBe(2);
      expect(document.ocrPages).toEqual([2]);
      expect(document.blocks.map((block) => [block.page, words(block.text)])).toEqual([
        [1, "this first page has a real text layer"],
        [2, "the lighthouse keeper logs every passing ship"],
        [2, "quarterly invoices are due on the fifth of march"],
      ]);
      // Only so many scanned pages are read.
      await expect(extractDocument(await pdf.save(), PDF, { ...LIMITS, maxOcrPages: 0 })).rejects.toThrow(
        new DocumentUnreadableError(
          "The PDF has more than 0 scanned pages without text, more than can be read by OCR.",
        ),
      );
    },
    OCR_TIMEOUT,
  );

  test(
    "a bilevel scan (1 bit per pixel, as most document scanners make) is read by OCR too",
    async () => {
      // The fixture's pixels, thresholded to black and white, in a 1-bit DeviceGray image (1 = white).
      const holder = await PDFDocument.create();
      const png = await holder.embedPng(fixture("scan-text.png"));
      holder.addPage([800, 200]).drawImage(png, { x: 0, y: 0, width: 800, height: 200 });
      const [{ data, width, height, channels }] = await extractImages(await getDocumentProxy(await holder.save()), 1);
      const rowBytes = Math.ceil(width / 8);
      const bits = new Uint8Array(rowBytes * height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const pixel = (y * width + x) * channels;
          if (data[pixel] + data[pixel + 1] + data[pixel + 2] >= 384) bits[y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
        }
      }
      const pdf = await PDFDocument.create();
      const scan = pdf.context.register(
        pdf.context.flateStream(bits, {
          Type: "XObject",
          Subtype: "Image",
          Width: width,
          Height: height,
          ColorSpace: "DeviceGray",
          BitsPerComponent: 1,
        }),
      );
      const page = pdf.addPage([612, 792]);
      const name = page.node.newXObject("Scan", scan);
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(600, 0, 0, 150, 6, 500),
        drawObject(name),
        popGraphicsState(),
      );
      const document = await extractDocument(await pdf.save(), PDF, LIMITS);
      expect(document.ocrPages).toEqual([1]);
      expect(document.blocks.map((block) => words(block.text))).toEqual([
        "the lighthouse keeper logs every passing ship",
        "quarterly invoices are due on the fifth of march",
      ]);
    },
    OCR_TIMEOUT,
  );

  test("too many pages, a damaged file and a file that only claims to be a PDF are unreadable", async () => {
    await expect(extractDocument(await twoColumnPdf(), PDF, { ...LIMITS, maxPages: 1 })).rejects.toThrow(
      new DocumentUnreadableError("The PDF has 2 pages, more than the 1 a document may have."),
    );
    const damaged = utf8("%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\n garbage \u0001\u0002 trailer");
    await expect(extractDocument(damaged, PDF, LIMITS)).rejects.toBeInstanceOf(DocumentUnreadableError);
    const truncated = (await twoColumnPdf()).slice(0, 400);
    await expect(extractDocument(truncated, PDF, LIMITS)).rejects.toBeInstanceOf(DocumentUnreadableError);
    await expect(extractDocument(utf8("just some words"), PDF, LIMITS)).rejects.toThrow(/not a valid PDF/);
  });
});

describe("DOCX", () => {
  test("headings make the section path, a table is one block per row, the first heading is the title", async () => {
    const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: "Employee Handbook", heading: HeadingLevel.HEADING_1 }),
            new Paragraph("Welcome to Northwind Traders."),
            new Paragraph({ text: "Parental leave", heading: HeadingLevel.HEADING_2 }),
            new Paragraph("Parents take sixteen weeks of paid leave."),
            new Table({
              rows: [
                new TableRow({ children: [cell("Country"), cell("Weeks")] }),
                new TableRow({ children: [cell("France"), cell("16")] }),
                new TableRow({ children: [cell("Norway"), cell("49")] }),
              ],
            }),
            new Paragraph({ text: "Security", heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: "Lock your screen when you leave your desk.", bullet: { level: 0 } }),
          ],
        },
      ],
    });
    const document = await extractDocument(new Uint8Array(await Packer.toBuffer(docx)), DOCX, LIMITS);
    expect(document).toEqual({
      title: "Employee Handbook",
      pageCount: null,
      ocrPages: [],
      blocks: [
        { page: null, section: ["Employee Handbook"], text: "Welcome to Northwind Traders." },
        {
          page: null,
          section: ["Employee Handbook", "Parental leave"],
          text: "Parents take sixteen weeks of paid leave.",
        },
        { page: null, section: ["Employee Handbook", "Parental leave"], text: "Country | Weeks" },
        { page: null, section: ["Employee Handbook", "Parental leave"], text: "France | 16" },
        { page: null, section: ["Employee Handbook", "Parental leave"], text: "Norway | 49" },
        { page: null, section: ["Security"], text: "Lock your screen when you leave your desk." },
      ],
    });
  });

  test("a damaged or password-protected Word file is unreadable", async () => {
    await expect(extractDocument(utf8("PK\u0003\u0004 not really a zip"), DOCX, LIMITS)).rejects.toThrow(/damaged/);
    const oleHeader = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    await expect(extractDocument(oleHeader, DOCX, LIMITS)).rejects.toThrow(/password-protected/);
  });
});

describe("HTML", () => {
  const page = `<!doctype html>
<html lang="en">
<head><title>Composting at home | Green Gazette</title><style>body { font: 16px serif }</style></head>
<body>
  <div class="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>
  <header><a href="/">Green Gazette</a> <span>Subscribe today</span></header>
  <nav><ul><li><a href="/news">Newsroom</a></li><li><a href="/shop">Gift shop</a></li></ul></nav>
  <main>
    <article>
      <h1>Composting at home</h1>
      <p>Composting turns kitchen scraps and garden waste into dark, crumbly soil that feeds your plants.
         A small bin in a shady corner of the garden is all most households need to get started.</p>
      <div class="ad">Buy the MegaCompost 3000 now, limited offer!</div>
      <p>Mix green material such as vegetable peelings with brown material such as dry leaves and cardboard,
         and keep the heap as damp as a wrung-out sponge.<script>document.write("tracking pixel")</script></p>
      <h2>What not to compost</h2>
      <p>Leave out meat, dairy and cooked food, which attract rats, and never add dog or cat waste to a heap
         that will feed vegetables.</p>
      <ul><li>Glossy paper</li><li>Coal ash</li></ul>
      <table><tr><th>Material</th><th>Weeks to break down</th></tr><tr><td>Grass cuttings</td><td>4</td></tr></table>
    </article>
    <aside class="sidebar"><h3>Popular stories</h3><p>Ten houseplants that survive anything.</p></aside>
  </main>
  <footer><p>Copyright Green Gazette Media Group. All rights reserved.</p></footer>
</body>
</html>`;

  test("only the article is kept: navigation, header, ads, sidebar, footer and scripts are gone", async () => {
    const document = await extractDocument(utf8(page), "text/html; charset=utf-8", LIMITS, {
      baseUrl: "https://gazette.example/composting",
    });
    expect(document.title).toBe("Composting at home");
    expect(document.pageCount).toBeNull();
    expect(texts(document)).toEqual([
      "Composting turns kitchen scraps and garden waste into dark, crumbly soil that feeds your plants. " +
        "A small bin in a shady corner of the garden is all most households need to get started.",
      "Mix green material such as vegetable peelings with brown material such as dry leaves and cardboard, " +
        "and keep the heap as damp as a wrung-out sponge.",
      "Leave out meat, dairy and cooked food, which attract rats, and never add dog or cat waste to a heap " +
        "that will feed vegetables.",
      "Glossy paper",
      "Coal ash",
      "Material | Weeks to break down",
      "Grass cuttings | 4",
    ]);
    expect(document.blocks.map((block) => block.section)).toEqual([
      ["Composting at home"],
      ["Composting at home"],
      ...Array(5).fill(["Composting at home", "What not to compost"]),
    ]);
    const all = texts(document).join(" ");
    for (const absent of ["cookies", "Subscribe", "Newsroom", "Gift shop", "MegaCompost", "Popular", "Copyright"]) {
      expect(all).not.toContain(absent);
    }
    expect(all).not.toContain("tracking");
  });

  test("a short page without an article is read from its body, less navigation and footer", async () => {
    const short = `<html><head><title>Opening hours</title></head><body>
      <nav>Home · Menu · Contact</nav>
      <h1>Opening hours</h1><p>Monday to Friday, 9 to 5.</p>
      <footer>© Corner Café</footer></body></html>`;
    const document = await extractDocument(utf8(short), "text/html", LIMITS);
    expect(document.title).toBe("Opening hours");
    expect(texts(document)).toEqual(["Monday to Friday, 9 to 5."]);
  });
});

describe("Markdown and plain text", () => {
  test("ATX and setext headings build the section path; markup is stripped; a fenced block stays whole", async () => {
    const markdown = [
      "---",
      "layout: post",
      "---",
      "Release notes",
      "=============",
      "",
      "This release makes *search* **faster** and fixes [the importer](https://example.com/importer).",
      "It also adds `memgw export`.",
      "",
      "## Upgrading",
      "",
      "1. Stop the server.",
      "2. Run the migration:",
      "",
      "```bash",
      "memgw migrate --to 42",
      "```",
      "",
      "Configuration",
      "-------------",
      "",
      "| Setting | Default |",
      "| ------- | ------- |",
      "| `PORT`  | 3000    |",
      "",
      "### Limits ###",
      "> Uploads are capped at _25 MB_ &amp; 500 pages.",
    ].join("\n");
    const document = await extractDocument(utf8(markdown), "text/markdown", LIMITS);
    expect(document.title).toBe("Release notes");
    expect(document.blocks).toEqual([
      {
        page: null,
        section: ["Release notes"],
        text: "This release makes search faster and fixes the importer. It also adds memgw export.",
      },
      { page: null, section: ["Release notes", "Upgrading"], text: "Stop the server." },
      { page: null, section: ["Release notes", "Upgrading"], text: "Run the migration:" },
      { page: null, section: ["Release notes", "Upgrading"], text: "memgw migrate --to 42" },
      { page: null, section: ["Release notes", "Configuration"], text: "Setting | Default" },
      { page: null, section: ["Release notes", "Configuration"], text: "PORT | 3000" },
      {
        page: null,
        section: ["Release notes", "Configuration", "Limits"],
        text: "Uploads are capped at 25 MB & 500 pages.",
      },
    ]);
  });

  test("characters no stored text may hold (NUL, lone surrogates) are dropped, emoji kept", async () => {
    const markdown = "A NUL\u0000 byte, a &#xD800;lone surrogate and \u{1F600} pair.";
    const document = await extractDocument(utf8(markdown), "text/markdown", LIMITS);
    expect(texts(document)).toEqual(["A NUL byte, a lone surrogate and \u{1F600} pair."]);
  });

  test("plain text: paragraphs between blank lines, no title, a BOM and NUL bytes dropped", async () => {
    const text = "\uFEFFFirst paragraph,\r\nwrapped over two lines.\r\n\r\n  \r\nSecond\u0000 paragraph.\n";
    const document = await extractDocument(utf8(text), "text/plain", LIMITS);
    expect(document).toEqual({
      title: null,
      pageCount: null,
      ocrPages: [],
      blocks: [
        { page: null, section: [], text: "First paragraph, wrapped over two lines." },
        { page: null, section: [], text: "Second paragraph." },
      ],
    });
  });
});

describe("images", () => {
  test(
    "a PNG and a JPEG are read by OCR, one after the other in the shared worker",
    async () => {
      const [png, jpeg] = await Promise.all([
        extractDocument(fixture("scan-text.png"), "image/png", LIMITS),
        extractDocument(fixture("photo-text.jpg"), "image/jpeg", LIMITS),
      ]);
      expect(png.pageCount).toBe(1);
      expect(png.ocrPages).toEqual([1]);
      expect(png.blocks.map((block) => [block.page, words(block.text)])).toEqual([
        [1, "the lighthouse keeper logs every passing ship"],
        [1, "quarterly invoices are due on the fifth of march"],
      ]);
      expect(jpeg.blocks.map((block) => words(block.text))).toEqual([
        "harbor cranes unload timber before noon",
        "the museum closes early on public holidays",
      ]);
    },
    OCR_TIMEOUT,
  );

  test("an image whose header claims more than 40 megapixels is refused before it is decoded", async () => {
    const png = fixture("scan-text.png").slice();
    const header = new DataView(png.buffer);
    header.setUint32(16, 20_000);
    header.setUint32(20, 10_000);
    await expect(extractDocument(png, "image/png", LIMITS)).rejects.toThrow(
      new DocumentUnreadableError(
        "The image is too large to read (20000 × 10000 pixels, 200 megapixels; the limit is 40).",
      ),
    );
    // A JPEG's frame header: 65,000 × 65,000.
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0xfd, 0xe8, 0xfd, 0xe8, 0x03]);
    await expect(extractDocument(jpeg, "image/jpeg", LIMITS)).rejects.toThrow(/too large to read/);
    await expect(extractDocument(utf8("not an image"), "image/png", LIMITS)).rejects.toThrow(/damaged/);
  });

  test(
    "a document that takes longer than the time limit is stopped with a clear error",
    async () => {
      await expect(extractDocument(fixture("scan-text.png"), "image/png", { ...LIMITS, timeoutMs: 5 })).rejects.toThrow(
        new DocumentUnreadableError("Reading the document took longer than 0.005 s, so it was stopped."),
      );
      // The worker stopped for it is replaced for the next image.
      const document = await extractDocument(fixture("scan-text.png"), "image/png", LIMITS);
      expect(words(document.blocks[0].text)).toBe("the lighthouse keeper logs every passing ship");
    },
    OCR_TIMEOUT,
  );
});

describe("detectContentType", () => {
  test("magic bytes win over the declared type and the name", async () => {
    const pdf = await twoColumnPdf();
    expect(detectContentType(pdf, "text/plain", "notes.txt")).toBe(PDF);
    const docx = new Uint8Array(
      await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph("Hello")] }] })),
    );
    expect(detectContentType(docx, "application/octet-stream", "upload.bin")).toBe(DOCX);
    expect(detectContentType(fixture("scan-text.png"), "image/jpeg", "photo.jpg")).toBe("image/png");
    expect(detectContentType(fixture("photo-text.jpg"), null, null)).toBe("image/jpeg");
  });

  test("then the declared type (parameters and case aside, aliases known), then the extension", () => {
    const text = utf8("# Hello\n\nSome text.");
    expect(detectContentType(text, "Text/HTML; charset=UTF-8", null)).toBe("text/html");
    expect(detectContentType(text, "application/xhtml+xml", null)).toBe("text/html");
    expect(detectContentType(text, "text/x-markdown", "a.txt")).toBe("text/markdown");
    expect(detectContentType(text, "application/octet-stream", "README.MD")).toBe("text/markdown");
    expect(detectContentType(text, "text/plain", "README.md")).toBe("text/markdown");
    expect(detectContentType(text, null, "index.htm")).toBe("text/html");
    expect(detectContentType(text, null, "notes.txt")).toBe("text/plain");
    expect(detectContentType(text, null, "scan.pdf")).toBe(PDF);
    expect(detectContentType(text, null, "cat.JPEG")).toBe("image/jpeg");
    expect([...SUPPORTED_CONTENT_TYPES].sort()).toEqual(
      [PDF, DOCX, "text/html", "text/markdown", "text/plain", "image/png", "image/jpeg"].sort(),
    );
  });

  test("unknown types, other zips and binary bytes claimed as text are null", () => {
    expect(detectContentType(utf8("a,b\n1,2"), "text/csv", "data.csv")).toBeNull();
    expect(detectContentType(utf8("hello"), null, null)).toBeNull();
    expect(detectContentType(utf8("PK\u0003\u0004xl/workbook.xml"), null, "book.xlsx")).toBeNull();
    expect(detectContentType(new Uint8Array([0x68, 0x69, 0x00, 0x01]), "text/plain", "a.txt")).toBeNull();
    expect(detectContentType(new Uint8Array([0x68, 0xff, 0xfe, 0xfd]), "text/plain", null)).toBeNull();
    // Not UTF-8, but the charset it is in is declared: a legacy page is text.
    const latin1 = new Uint8Array([...utf8("<p>caf"), 0xe9, ...utf8("</p>")]);
    expect(detectContentType(latin1, "text/html; charset=windows-1252", null)).toBe("text/html");
    expect(detectContentType(latin1, "text/html", null)).toBeNull();
  });

  test("a legacy charset, declared or in <meta>, decodes the page", async () => {
    const html = new Uint8Array([
      ...utf8('<html><head><meta charset="windows-1252"></head><body><p>Caf'),
      0xe9,
      ...utf8(" cr"),
      0xe8,
      ...utf8("me</p></body></html>"),
    ]);
    expect(detectContentType(html, null, "menu.html")).toBe("text/html");
    expect(texts(await extractDocument(html, "text/html", LIMITS))).toEqual(["Café crème"]);
  });
});
