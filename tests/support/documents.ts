/**
 * PDF files as an admin (or an attacker) might upload them as the client
 * money protection certificate.
 */

/** A small valid PDF: one page, a correct cross-reference table; `extra` goes into the page's dictionary. */
export function minimalPdf(extra = ""): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] ${extra}>>`,
  ];
  let body = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** An HTML page with a script, as a file named certificate.pdf would carry it. */
export const HTML_AS_PDF = Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");

/** The PDF header in front of an HTML page: no trailer, nothing a PDF reader could open. */
export const HTML_BEHIND_PDF_HEADER = Buffer.from("%PDF-1.4\n<html><body><script>alert(document.cookie)</script></body></html>\n");
