/**
 * Form bodies for the form fuzz test (tests/integration/form-fuzz.test.ts):
 * a form's fields and files, and the ways to send them broken, url-encoded and
 * multipart, each case saying what its answer must be.
 */

export const BOUNDARY = "----form-fuzz-7MA4YWxkTrZu0gW";

export type FilePart = { name: string; filename: string; type: string; data: Buffer };
/** A form as a browser would send it: text fields in order, then files (multipart only). */
export type Form = { fields: Array<[string, string]>; files: FilePart[] };

/**
 * unreadable: refused with 400 and the form's message. refused: a limit (4xx,
 * its own message). any: may be accepted (repeated or unknown fields,
 * random damage); refused, it changes nothing.
 */
export type Expect = "unreadable" | "refused" | "any";
export type Case = { label: string; contentType: string; body: Buffer; expect: Expect };

/** Byte sequences that are not UTF-8, raw and percent-encoded. */
const NOT_UTF8: Array<{ label: string; raw: Buffer; escaped: string }> = [
  { label: "0xFF", raw: Buffer.from([0xff]), escaped: "%FF" },
  { label: "a cut-off lead byte", raw: Buffer.from([0xc3]), escaped: "%C3" },
  { label: "a lone continuation byte", raw: Buffer.from([0xa9]), escaped: "%a9" },
  { label: "an overlong '/'", raw: Buffer.from([0xc0, 0xaf]), escaped: "%C0%AF" },
  { label: "a UTF-16 surrogate", raw: Buffer.from([0xed, 0xa0, 0x80]), escaped: "%ED%A0%80" },
  { label: "a code point past U+10FFFF", raw: Buffer.from([0xf4, 0x90, 0x80, 0x80]), escaped: "%F4%90%80%80" },
];

const URLENCODED = "application/x-www-form-urlencoded";
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");

/** A url-encoded body from pairs of bytes (already encoded). */
function urlencodedBody(pairs: Array<[Buffer, Buffer]>): Buffer {
  return Buffer.concat(pairs.flatMap(([name, value], i) => [Buffer.from(i === 0 ? "" : "&"), name, Buffer.from("="), value]));
}

export function urlencodedCases(form: Form, random: () => number): Case[] {
  const pairs = (fields: Array<[string, string]>): Array<[Buffer, Buffer]> =>
    fields.map(([name, value]) => [Buffer.from(encode(name)), Buffer.from(encode(value))]);
  const base = pairs(form.fields);
  const damaged = (index: number, at: "name" | "value", bytes: Buffer): Buffer =>
    urlencodedBody(
      base.map((pair, i) => (i !== index ? pair : at === "name" ? [Buffer.concat([pair[0], bytes]), pair[1]] : [pair[0], Buffer.concat([pair[1], bytes])])),
    );
  const cases: Case[] = [];
  const add = (label: string, body: Buffer, expect: Expect) => cases.push({ label: `urlencoded: ${label}`, contentType: URLENCODED, body, expect });

  form.fields.forEach(([name], i) => {
    const bad = NOT_UTF8[i % NOT_UTF8.length]!;
    add(`${bad.label} (raw) in the value of ${name}`, damaged(i, "value", bad.raw), "unreadable");
    const escaped = NOT_UTF8[(i + 3) % NOT_UTF8.length]!;
    add(`${escaped.escaped} in the value of ${name}`, damaged(i, "value", Buffer.from(escaped.escaped)), "unreadable");
  });
  const last = form.fields.length - 1;
  add(`${NOT_UTF8[0]!.label} (raw) in the name of ${form.fields[0]![0]}`, damaged(0, "name", NOT_UTF8[0]!.raw), "unreadable");
  add(`${NOT_UTF8[4]!.escaped} in the name of ${form.fields[last]![0]}`, damaged(last, "name", Buffer.from(NOT_UTF8[4]!.escaped)), "unreadable");
  for (let n = 0; n < 4; n++) {
    const index = Math.floor(random() * form.fields.length);
    const bad = NOT_UTF8[Math.floor(random() * NOT_UTF8.length)]!;
    const raw = random() < 0.5;
    add(
      `${raw ? bad.label : bad.escaped} in the value of ${form.fields[index]![0]} (random #${n})`,
      damaged(index, "value", raw ? bad.raw : Buffer.from(bad.escaped)),
      "unreadable",
    );
  }

  add("every field twice", urlencodedBody([...base, ...base]), "any");
  add("every field first empty, then as sent", urlencodedBody([...pairs(form.fields.map(([name]) => [name, ""])), ...base]), "any");
  add(
    "unknown fields",
    urlencodedBody([
      ...base,
      ...pairs([
        ["unknown", "x"],
        ["__proto__", "y"],
        ["constructor", "z"],
        ["", "no name"],
      ]),
    ]),
    "any",
  );
  add("900 more fields", urlencodedBody([...base, ...pairs(Array.from({ length: 900 }, (_, i) => [`f${i}`, "1"]))]), "any");
  add("1,001 more fields", urlencodedBody([...base, ...pairs(Array.from({ length: 1001 }, (_, i) => [`f${i}`, "1"]))]), "refused");
  return cases;
}

/** A part: its name, value and file name as bytes; `disposition` replaces the Content-Disposition built from them. */
type Part = { name: Buffer; value: Buffer; filename?: Buffer; type?: string; disposition?: string; headers?: string };

export const textPart = (name: string, value: string): Part => ({ name: Buffer.from(name), value: Buffer.from(value) });
export const filePart = (file: FilePart): Part => ({ name: Buffer.from(file.name), value: file.data, filename: Buffer.from(file.filename), type: file.type });

/** A multipart body, and where each delimiter ("\r\n--boundary", the first without its line end) starts. */
export function buildMultipart(parts: Part[], { boundary = BOUNDARY, lineEnd = "\r\n" } = {}): { body: Buffer; delimiters: number[] } {
  const pieces: Buffer[] = [];
  const delimiters: number[] = [];
  let length = 0;
  const push = (piece: Buffer | string) => {
    const bytes = typeof piece === "string" ? Buffer.from(piece) : piece;
    pieces.push(bytes);
    length += bytes.length;
  };
  parts.forEach((part, i) => {
    delimiters.push(length);
    push(`${i === 0 ? "" : lineEnd}--${boundary}${lineEnd}`);
    if (part.disposition !== undefined) push(`Content-Disposition: ${part.disposition}`);
    else {
      push('Content-Disposition: form-data; name="');
      push(part.name);
      push('"');
      if (part.filename) {
        push('; filename="');
        push(part.filename);
        push('"');
      }
    }
    if (part.type) push(`${lineEnd}Content-Type: ${part.type}`);
    if (part.headers) push(`${lineEnd}${part.headers}`);
    push(`${lineEnd}${lineEnd}`);
    push(part.value);
  });
  delimiters.push(length);
  push(`${parts.length === 0 ? "" : lineEnd}--${boundary}--${lineEnd}`);
  return { body: Buffer.concat(pieces), delimiters };
}

/** Random damage to a body: flipped bytes, cuts, insertions, repeats (as in http.test.ts, over bytes). */
function damage(source: Buffer, random: () => number): Buffer {
  const pick = (n: number) => Math.floor(random() * n);
  const alphabet = Buffer.from(`\r\n-"=;:${BOUNDARY.slice(0, 8)}\u0000\u00ff`, "latin1");
  let bytes = Buffer.from(source);
  for (let edits = 1 + pick(4); edits > 0; edits--) {
    const at = pick(bytes.length + 1);
    switch (pick(5)) {
      case 0:
        if (at < bytes.length) bytes[at] = pick(256);
        break;
      case 1:
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1 + pick(40))]);
        break;
      case 2:
        bytes = Buffer.concat([
          bytes.subarray(0, at),
          Buffer.from(Array.from({ length: 1 + pick(8) }, () => alphabet[pick(alphabet.length)]!)),
          bytes.subarray(at),
        ]);
        break;
      case 3:
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at, at + pick(80)), bytes.subarray(at)]);
        break;
      default:
        bytes = bytes.subarray(0, at);
    }
  }
  return bytes;
}

export function multipartCases(form: Form, random: () => number, { randomDamage }: { randomDamage: boolean }): Case[] {
  const texts = form.fields.map(([name, value]) => textPart(name, value));
  const files = form.files.map(filePart);
  const parts = [...texts, ...files];
  const cases: Case[] = [];
  const add = (label: string, body: Buffer, expect: Expect, contentType = MULTIPART) => cases.push({ label: `multipart: ${label}`, contentType, body, expect });
  const withPart = (index: number, change: Partial<Part>) => buildMultipart(parts.map((part, i) => (i === index ? { ...part, ...change } : part))).body;

  texts.forEach((part, i) => {
    const bad = NOT_UTF8[i % NOT_UTF8.length]!;
    add(`${bad.label} in the value of ${part.name}`, withPart(i, { value: Buffer.concat([part.value, bad.raw]) }), "unreadable");
  });
  if (parts.length > 0) {
    add(`${NOT_UTF8[0]!.label} in the name of ${parts[0]!.name}`, withPart(0, { name: Buffer.concat([parts[0]!.name, NOT_UTF8[0]!.raw]) }), "unreadable");
  }
  files.forEach((part, i) => {
    const bad = NOT_UTF8[(i + 1) % NOT_UTF8.length]!;
    add(`${bad.label} in the file name of ${part.name}`, withPart(texts.length + i, { filename: Buffer.concat([part.filename!, bad.raw]) }), "unreadable");
  });

  // Cut off: before each delimiter, just after it, and inside the part's headers.
  const { body, delimiters } = buildMultipart(parts);
  const delimiterLength = `\r\n--${BOUNDARY}`.length;
  delimiters.forEach((at, k) => {
    const what = k === parts.length ? "the closing delimiter" : `part ${k + 1} of ${parts.length}`;
    add(`cut before ${what}`, body.subarray(0, at), "unreadable");
    add(`cut just after the delimiter of ${what}`, body.subarray(0, at + delimiterLength), "unreadable");
    if (k < parts.length) add(`cut inside the headers of ${what}`, body.subarray(0, at + delimiterLength + 20), "unreadable");
  });
  add("cut inside the closing delimiter", body.subarray(0, body.length - 4), "unreadable");

  add("LF-only line ends", buildMultipart(parts, { lineEnd: "\n" }).body, "unreadable");
  add("no boundary in the Content-Type", body, "unreadable", "multipart/form-data");
  add("an empty boundary", body, "unreadable", "multipart/form-data; boundary=");
  add("a boundary the body does not use", body, "unreadable", "multipart/form-data; boundary=another-boundary");
  add("the body's boundary, quoted", body, "any", `multipart/form-data; boundary="${BOUNDARY}"`);
  add("a header line of 9 KB", withPart(0, { headers: `X-Padding: ${"p".repeat(9 * 1024)}` }), "unreadable");

  // Files where text is expected, and in fields nobody takes.
  texts.forEach((part, i) => {
    add(`a file in the text field ${part.name}`, withPart(i, { filename: Buffer.from(`${part.name}.txt`), type: "text/plain" }), "unreadable");
  });
  if (texts.length > 0) {
    add(`${texts[0]!.name} as application/octet-stream`, withPart(0, { type: "application/octet-stream" }), "unreadable");
    add(
      `${texts[0]!.name} as a file named in an unknown charset`,
      withPart(0, { disposition: `form-data; name="${texts[0]!.name}"; filename*=x-no-such-charset''a.txt` }),
      "unreadable",
    );
  }
  add(
    "a file in a field the form does not have",
    buildMultipart([...parts, filePart({ name: "attachment", filename: "a.txt", type: "text/plain", data: Buffer.from("a file") })]).body,
    "unreadable",
  );
  files.forEach((part, i) => {
    add(
      `the file of ${part.name} named in an unknown charset`,
      withPart(texts.length + i, { disposition: `form-data; name="${part.name}"; filename*=x-no-such-charset''photo.jpg` }),
      "any",
    );
  });

  add("every part twice", buildMultipart([...parts, ...parts]).body, "any");
  add("unknown fields", buildMultipart([...parts, textPart("unknown", "x"), textPart("__proto__", "y"), textPart("constructor", "z")]).body, "any");
  add("a part without a name", buildMultipart([...parts, { name: Buffer.alloc(0), value: Buffer.from("nameless") }]).body, "any");
  add("1,100 more fields", buildMultipart([...parts, ...Array.from({ length: 1100 }, (_, i) => textPart(`f${i}`, ""))]).body, "refused");
  if (randomDamage) {
    for (let n = 0; n < 16; n++) add(`random damage #${n}`, damage(body, random), "any");
  }
  return cases;
}
