import type { PDFContext, PDFObject } from "@cantoo/pdf-lib";
import { DOCUMENT_TEXT } from "./image-files";
import { ImageError } from "./process.server";

type PdfLib = typeof import("@cantoo/pdf-lib");

/**
 * Is this a PDF we will publish? Checked by content, never by name or declared
 * type (decisions 030 and 041): the `%PDF-1.x` / `%PDF-2.0` header at the very
 * start (so no HTML page or polyglot that a browser might sniff can pass), the
 * trailer a reader starts from (`startxref`, an offset inside the file that
 * points at a cross-reference table or stream, then `%%EOF`), and then the
 * whole file parsed by a kept PDF library (@cantoo/pdf-lib, pdf-lib's
 * maintained fork): every object, those inside compressed object streams
 * too, with escaped names (`/J#61vaScript`) decoded as a viewer decodes them.
 * A PDF that does not parse, or is encrypted (its contents cannot be read
 * without the key), is refused; so is one that holds scripts, actions that
 * run or open something, or attached files, which a certificate needs none of.
 * The file is stored as it came (a PDF's signature would not survive
 * rewriting) and is always served as application/pdf with nosniff, so a
 * browser never reads it as a page.
 */
const HEADER = /^%PDF-(1\.[0-7]|2\.0)[\r\n\s%]/;

/** Names that carry scripts, actions that run, leave or send, attached files and multimedia: refused wherever they appear, as key or value. */
const ACTIVE_NAMES = new Set([
  "JavaScript",
  "JS",
  "AA",
  "Launch",
  "SubmitForm",
  "ImportData",
  "GoToR",
  "GoToE",
  "EmbeddedFile",
  "EmbeddedFiles",
  "EF",
  "FileAttachment",
  "RichMedia",
  "XFA",
  "Rendition",
  "Movie",
  "Sound",
  "3D",
]);

/** Where a link may lead: a web page or an e-mail address. */
const SAFE_URI = /^(https?:|mailto:)/i;

/** Objects parsed between two turns of the event loop, so a large file does not hold up other requests. */
const OBJECTS_PER_TICK = 200;

export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-";
}

export async function checkPdf(bytes: Uint8Array): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  if (!HEADER.test(text.slice(0, 16))) throw new ImageError(415, DOCUMENT_TEXT.invalidType);
  const tail = text.slice(-2048);
  const trailer = /startxref\s+(\d{1,10})\s+%%EOF\s*$/.exec(tail);
  if (!trailer) throw new ImageError(422, DOCUMENT_TEXT.damaged);
  const offset = Number(trailer[1]);
  if (offset <= 0 || offset >= bytes.byteLength) throw new ImageError(422, DOCUMENT_TEXT.damaged);
  const atOffset = text.slice(offset, offset + 64);
  if (!/^\s*(xref\b|\d+\s+\d+\s+obj\b)/.test(atOffset)) throw new ImageError(422, DOCUMENT_TEXT.damaged);

  // Loaded on first use, like pg and the S3 client: a site that never receives a PDF never loads it.
  const pdf = await import("@cantoo/pdf-lib");
  let context: PDFContext;
  try {
    context = await pdf.PDFParser.forBytesWithOptions(bytes, OBJECTS_PER_TICK, /* throwOnInvalidObject */ true).parseDocument();
  } catch {
    // Encrypted object streams cannot be read without the key: say so rather than "damaged".
    throw new ImageError(422, /\/Encrypt\b/.test(text) ? DOCUMENT_TEXT.encrypted : DOCUMENT_TEXT.damaged);
  }
  if (context.trailerInfo.Encrypt) throw new ImageError(422, DOCUMENT_TEXT.encrypted);
  const catalog = context.lookup(context.trailerInfo.Root);
  if (!(catalog instanceof pdf.PDFDict) || catalog.get(pdf.PDFName.of("Type")) !== pdf.PDFName.of("Catalog")) throw new ImageError(422, DOCUMENT_TEXT.damaged);
  if (hidesObjects(pdf, context)) throw new ImageError(422, DOCUMENT_TEXT.damaged);
  if (holdsActiveContent(pdf, context)) throw new ImageError(422, DOCUMENT_TEXT.active);
}

/** An object's header, or the end of a stream or object: what a stream's own bytes never hold by chance. */
const OBJECT_SYNTAX = /(?:^|[\r\n])[ \t]*\d+[ \t\r\n]+\d+[ \t\r\n]+obj\b|\bendstream\b|\bendobj\b/;

/**
 * Whether a stream's bytes hold what looks like another object: a viewer
 * that follows the cross-reference table to an offset inside the stream
 * would read an object there that this parser, reading the stream whole,
 * never sees. A stream's data cannot hold such text by chance (compressed
 * data would need eight or more given bytes in a row), so such a file is
 * refused as damaged.
 */
function hidesObjects(pdf: PdfLib, context: PDFContext): boolean {
  return context
    .enumerateIndirectObjects()
    .some(([, object]) => object instanceof pdf.PDFRawStream && OBJECT_SYNTAX.test(Buffer.from(object.getContents()).toString("latin1")));
}

/** Whether any object of the document (the trailer's too) names active content, as ACTIVE_NAMES, an unsafe link or an opening action says. */
function holdsActiveContent(pdf: PdfLib, context: PDFContext): boolean {
  const { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFStream, PDFString } = pdf;
  const resolve = (object: PDFObject | undefined) => (object instanceof PDFRef ? context.lookup(object) : object);
  const textOf = (object: PDFObject | undefined) => (object instanceof PDFString || object instanceof PDFHexString ? object.decodeText() : undefined);

  /** An opening action may only show a place in the document: a destination, or a GoTo action to one. */
  const opensSafely = (value: PDFObject | undefined) => {
    const target = resolve(value);
    if (target instanceof PDFArray || target instanceof PDFName || textOf(target) !== undefined) return true;
    return target instanceof PDFDict && target.get(PDFName.of("S")) === PDFName.of("GoTo");
  };
  const linksSafely = (value: PDFObject | undefined) => SAFE_URI.test((textOf(resolve(value)) ?? "").trim());

  // Depth-first over direct objects, with a stack of our own: nesting is the file's choice.
  const pending: PDFObject[] = context.enumerateIndirectObjects().map(([, object]) => object);
  for (const value of Object.values(context.trailerInfo)) if (value) pending.push(value);
  while (pending.length > 0) {
    const object = pending.pop()!;
    if (object instanceof PDFName) {
      if (ACTIVE_NAMES.has(object.decodeText())) return true;
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    } else if (object instanceof PDFStream) {
      pending.push(object.dict);
    } else if (object instanceof PDFDict) {
      for (const [key, value] of object.entries()) {
        const name = key.decodeText();
        if (ACTIVE_NAMES.has(name)) return true;
        if (name === "OpenAction" && !opensSafely(value)) return true;
        if (name === "URI" && !(resolve(value) instanceof PDFDict) && !linksSafely(value)) return true;
        pending.push(value);
      }
    }
  }
  return false;
}
