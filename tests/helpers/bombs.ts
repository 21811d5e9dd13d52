// Documents made to exhaust a reader's memory, built by the tests themselves (small files, huge when read):
// PDFs written by hand with FlateDecode streams of one repeated byte (deflate packs ~1000:1), and a DOCX zip
// whose word/document.xml expands to more than a gigabyte. Everything is deflated as a stream, so building a
// gigabyte bomb never holds a gigabyte here.
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";

const MiB = 1024 * 1024;

/** `size` bytes of `byte`, deflated (zlib format for PDF streams, raw for zip entries) a mebibyte at a time. */
function deflatedRepeat(size: number, byte: number, raw: boolean, prefix = "", suffix = "") {
  // The tightest packing for what takes a moment; the fastest for the gigabytes.
  const level = size <= 64 * MiB ? 9 : 1;
  const deflate = raw ? zlib.createDeflateRaw({ level }) : zlib.createDeflate({ level });
  const chunks: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => chunks.push(chunk));
  const block = Buffer.alloc(MiB, byte);
  let crc = 0;
  const write = (data: Buffer) => {
    crc = zlib.crc32(data, crc);
    deflate.write(data);
  };
  write(Buffer.from(prefix));
  for (let left = size; left > 0; left -= MiB) write(left >= MiB ? block : block.subarray(0, left));
  write(Buffer.from(suffix));
  return new Promise<{ data: Buffer; crc: number; size: number }>((resolve, reject) => {
    deflate.on("end", () => resolve({ data: Buffer.concat(chunks), crc, size: prefix.length + size + suffix.length }));
    deflate.on("error", reject);
    deflate.end();
  });
}

/** A PDF of numbered objects (`1 0 obj` …; object 1 the catalog), with a correct cross-reference table. */
function pdfOf(objects: (string | Buffer)[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let length = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`),
      typeof body === "string" ? Buffer.from(body, "latin1") : body,
      Buffer.from("\nendobj\n"),
    ]);
    parts.push(object);
    length += object.length;
  });
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f \n" + offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join(""),
  ].join("\n");
  parts.push(
    Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`),
  );
  return new Uint8Array(Buffer.concat(parts));
}

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from("\nendstream"),
  ]);
}

/**
 * One page drawing `count` separate `size`×`size` grey images (each its own object, so none is shared), and
 * no text: the page is one to read by OCR, and pdf.js decodes every image on it first. 16 of 6000×6000 is
 * ~0.6 MB of file and 576 megapixels.
 */
export async function pdfImageBomb(count = 16, size = 6000): Promise<Uint8Array> {
  const pixels = await deflatedRepeat(size * size, 0x80, false);
  const firstImage = 5;
  const names = Array.from({ length: count }, (_, index) => `/Im${index} ${firstImage + index} 0 R`).join(" ");
  const drawing = Array.from({ length: count }, (_, index) => `q 600 0 0 760 6 16 cm /Im${index} Do Q`).join("\n");
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << ${names} >> >> /Contents 4 0 R >>`,
    stream("", Buffer.from(drawing)),
    ...Array.from({ length: count }, () =>
      stream(
        `/Type /XObject /Subtype /Image /Width ${size} /Height ${size} /ColorSpace /DeviceGray ` +
          "/BitsPerComponent 8 /Filter /FlateDecode",
        pixels.data,
      ),
    ),
  ]);
}

/** One page of text whose content stream expands to `expandedBytes` (spaces, after a line of text). */
export async function pdfContentStreamBomb(expandedBytes = 1536 * MiB): Promise<Uint8Array> {
  const content = await deflatedRepeat(expandedBytes, 0x20, false, "BT /F1 12 Tf 72 720 Td (A page of text) Tj ET\n");
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " +
      "/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    stream("/Filter /FlateDecode", content.data),
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ' +
  'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
  'Target="word/document.xml"/></Relationships>';

/**
 * A DOCX whose word/document.xml is one paragraph of `expandedBytes` letters. With `lying`, the zip's
 * directory declares every entry 1 KB when expanded (its sizes cannot be trusted).
 */
export async function docxBomb(expandedBytes = 1200 * 1024 * 1024, { lying = false } = {}): Promise<Uint8Array> {
  const document = await deflatedRepeat(
    expandedBytes,
    0x61,
    true,
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ' +
      'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>',
    "</w:t></w:r></w:p></w:body></w:document>",
  );
  const entries = [
    { name: "[Content_Types].xml", ...(await deflatedRepeat(0, 0, true, CONTENT_TYPES)) },
    { name: "_rels/.rels", ...(await deflatedRepeat(0, 0, true, RELS)) },
    { name: "word/document.xml", ...document },
  ];
  return zipOf(entries.map((entry) => ({ ...entry, size: lying ? 1024 : entry.size })));
}

/** A zip of deflated entries (local headers, data, central directory), sizes as given. */
function zipOf(entries: { name: string; data: Buffer; crc: number; size: number }[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, crc, size } of entries) {
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/**
 * A harmless PDF of exactly `bytes` (at least ~700): one page saying `text`, beside an unreferenced stream of
 * random bytes no reader decodes, for transfer load (its size is the upload's and the download's, while reading
 * it costs next to nothing). Distinct bytes on every call, so no deduplication answers for it.
 */
export function largePdf(bytes: number, text = "A large document whose size is mostly an attachment."): Uint8Array {
  const objects = (padding: Buffer) => [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " +
      "/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    stream("", Buffer.from(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET`)),
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    stream("", padding),
  ];
  // The stream's /Length and the offsets grow by a few digits with the padding: settle them.
  let padding = Math.max(0, bytes - pdfOf(objects(Buffer.alloc(0))).length);
  for (let i = 0; i < 3; i++) padding = Math.max(0, padding - (pdfOf(objects(Buffer.alloc(padding))).length - bytes));
  return pdfOf(objects(randomBytes(padding)));
}
