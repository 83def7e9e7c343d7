import { DOCUMENT_TEXT } from "./image-files";
import { ImageError } from "./process.server";

/**
 * Is this a PDF we will publish? Checked by content, never by name or declared
 * type: the `%PDF-1.x` / `%PDF-2.0` header at the very start (so no HTML page
 * or polyglot that a browser might sniff can pass), the trailer a reader
 * starts from (`startxref`, an offset inside the file that points at a
 * cross-reference table or stream, then `%%EOF`), and at least one object.
 * A PDF that names scripts, launch actions or attached files is refused: a
 * certificate needs none of them (decision 030). The file is stored as it
 * came (a PDF's signature would not survive rewriting) and is always served
 * as application/pdf with nosniff, so a browser never reads it as a page.
 */
const HEADER = /^%PDF-(1\.[0-7]|2\.0)[\r\n\s%]/;
const ACTIVE = /\/(JavaScript|JS|Launch|EmbeddedFile|EmbeddedFiles|RichMedia|XFA|SubmitForm|ImportData)\b/;

export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-";
}

export function checkPdf(bytes: Uint8Array): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  if (!HEADER.test(text.slice(0, 16))) throw new ImageError(415, DOCUMENT_TEXT.invalidType);
  const tail = text.slice(-2048);
  const trailer = /startxref\s+(\d{1,10})\s+%%EOF\s*$/.exec(tail);
  if (!trailer) throw new ImageError(422, DOCUMENT_TEXT.damaged);
  const offset = Number(trailer[1]);
  if (offset <= 0 || offset >= bytes.byteLength) throw new ImageError(422, DOCUMENT_TEXT.damaged);
  const atOffset = text.slice(offset, offset + 64);
  if (!/^\s*(xref\b|\d+\s+\d+\s+obj\b)/.test(atOffset)) throw new ImageError(422, DOCUMENT_TEXT.damaged);
  if (!/\d+\s+\d+\s+obj\b/.test(text)) throw new ImageError(422, DOCUMENT_TEXT.damaged);
  if (ACTIVE.test(text)) throw new ImageError(422, DOCUMENT_TEXT.active);
}
