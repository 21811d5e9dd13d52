// Documents crafted to exhaust a reader's memory, built on the fly (a few hundred KB to a few MB each, none
// checked in): the resource-isolation tests and `BENCH_ONLY=isolation` upload them. Also a large but harmless
// PDF (one short page beside an unreferenced stream of random bytes) for transfer load: its size is the upload's
// and the download's, while reading it costs next to nothing.
import { randomBytes } from "node:crypto";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";

/** A PDF's bytes from its objects' bodies (object n is `objects[n - 1]`), with a valid cross-reference table. */
function pdfFromObjects(objects: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let length = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    parts.push(object);
    length += object.length;
  });
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n `),
    "trailer",
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    "startxref",
    String(length),
    "%%EOF",
    "",
  ].join("\n");
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from("\nendstream"),
  ]);
}

/** `bytes` of one repeated byte, deflated (zlib, or raw deflate) as a stream: never the whole expansion in memory. */
async function deflatedRepeat(
  bytes: number,
  byte: number,
  { raw = false, head = Buffer.alloc(0), tail = Buffer.alloc(0) } = {},
): Promise<{ data: Buffer; crc: number; size: number }> {
  const slice = Buffer.alloc(8 * 1024 * 1024, byte);
  let crc = zlib.crc32(head);
  const body = Math.max(0, bytes - head.length - tail.length);
  async function* expansion() {
    yield head;
    for (let left = body; left > 0; left -= slice.length) {
      const piece = left >= slice.length ? slice : slice.subarray(0, left);
      crc = zlib.crc32(piece, crc);
      yield piece;
    }
    crc = zlib.crc32(tail, crc);
    yield tail;
  }
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(expansion()),
    raw ? zlib.createDeflateRaw({ level: 9 }) : zlib.createDeflate({ level: 9 }),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  );
  return { data: Buffer.concat(out), crc, size: head.length + body + tail.length };
}

/**
 * A one-page PDF whose page draws `images` separate grey images of `side`×`side` pixels, each a FlateDecode
 * stream of zeros (16 of 6000×6000: ~560 KB of file, 576 MB of decoded grey pixels, more as RGBA).
 */
export function pdfImageBomb({ images = 16, side = 6000 } = {}): Buffer {
  const image = zlib.deflateSync(Buffer.alloc(side * side), { level: 9 });
  const names = Array.from({ length: images }, (_, i) => `/Im${i} ${5 + i} 0 R`).join(" ");
  const draw = Array.from(
    { length: images },
    (_, i) => `q 30 0 0 30 ${20 + (i % 16) * 32} ${700 - Math.floor(i / 16) * 32} cm /Im${i} Do Q`,
  );
  // No text on the page: a scanned page, which the reader hands to OCR, decoding its images.
  const content = Buffer.from(draw.join("\n"));
  return pdfFromObjects([
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ` +
        `/Resources << /Font << /F1 ${5 + images} 0 R >> /XObject << ${names} >> >> >>`,
    ),
    stream("", content),
    ...Array.from({ length: images }, () =>
      stream(
        `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray ` +
          `/BitsPerComponent 8 /Filter /FlateDecode`,
        image,
      ),
    ),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
  ]);
}

/** A one-page PDF whose content stream inflates to `expandedBytes` (1.5 GB: a file of ~1.5 MB). */
export async function pdfStreamBomb({ expandedBytes = 1_500_000_000 } = {}): Promise<Buffer> {
  // Spaces: whitespace to a content parser, so nothing stops reading it early.
  const content = (await deflatedRepeat(expandedBytes, 0x20)).data;
  return pdfFromObjects([
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R " +
        "/Resources << /Font << /F1 5 0 R >> >> >>",
    ),
    stream("/Filter /FlateDecode", content),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
  ]);
}

/**
 * A PDF of `bytes` (at least ~1 KB): one page saying `text`, beside an unreferenced stream of random bytes that
 * no reader decodes. Distinct bytes on every call, so that no deduplication answers for it.
 */
export function largePdf(bytes: number, text = "A large document whose size is mostly an attachment."): Buffer {
  const page = Buffer.from(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET`);
  const head = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R " +
        "/Resources << /Font << /F1 5 0 R >> >> >>",
    ),
    stream("", page),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
  ];
  // The stream's /Length and the cross-reference offsets grow by a few digits with the padding: settle them.
  let padding = Math.max(0, bytes - pdfFromObjects([...head, stream("", Buffer.alloc(0))]).length);
  for (let i = 0; i < 3; i++) {
    const size = pdfFromObjects([...head, stream("", Buffer.alloc(padding))]).length;
    padding = Math.max(0, padding - (size - bytes));
  }
  return pdfFromObjects([...head, stream("", randomBytes(padding))]);
}

// A ZIP archive written by hand (one pass, sizes known): the DOCX bomb's document.xml is too large to hold as a
// string, so it is deflated in slices and its CRC-32 computed along.
interface ZipEntry {
  name: string;
  crc: number;
  size: number;
  data: Buffer;
}

function zipArchive(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function smallEntry(name: string, text: string): ZipEntry {
  const data = Buffer.from(text);
  return { name, crc: zlib.crc32(data), size: data.length, data: zlib.deflateRawSync(data) };
}

/** A DOCX whose word/document.xml expands to about `expandedBytes` (1.2 GB: a file of ~1.2 MB) of one run's text. */
export async function docxBomb({ expandedBytes = 1_200_000_000 } = {}): Promise<Buffer> {
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>',
  );
  const tail = Buffer.from("</w:t></w:r></w:p></w:body></w:document>");
  const document: ZipEntry = {
    name: "word/document.xml",
    ...(await deflatedRepeat(expandedBytes, 0x61, { raw: true, head, tail })),
  };
  return zipArchive([
    smallEntry(
      "[Content_Types].xml",
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    smallEntry(
      "_rels/.rels",
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" ' +
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
        'Target="word/document.xml"/></Relationships>',
    ),
    document,
  ]);
}
