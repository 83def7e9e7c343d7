import { describe, expect, it } from "vitest";
import { stringify } from "csv-stringify/sync";
import { CSV_BOM, csvField, csvRecord, downloadDate, enquiriesCsv, enquiriesCsvStream, type CsvSubmission } from "./csv";
import type { StoredSubmission } from "./inbox";
import { parseCsv } from "../../tests/support/csv";

function submission(overrides: Partial<StoredSubmission> = {}): StoredSubmission {
  return {
    id: "3f0c1a52-5a6b-4c2d-9e8f-0a1b2c3d4e5f",
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: null,
    user_type: "investor",
    message: "Two flats in Camden.",
    is_read: false,
    created_at: "2026-07-01T08:30:00.000Z",
    spam_reason: null,
    spam_signals: null,
    status: "new",
    status_reason: null,
    status_changed_at: null,
    status_changed_by: null,
    assigned_to: null,
    assigned_at: null,
    follow_up_on: null,
    kind: "contact",
    valuation: null,
    ...overrides,
  };
}

describe("a CSV field", () => {
  it("is always quoted, with inner quotes doubled", () => {
    expect(csvField("plain")).toBe('"plain"');
    expect(csvField("")).toBe('""');
    expect(csvField('She said "hello", then left')).toBe('"She said ""hello"", then left"');
  });

  it("keeps line breaks inside the quotes", () => {
    expect(csvField("line one\r\nline two\nline three")).toBe('"line one\r\nline two\nline three"');
  });

  it.each([
    ['=HYPERLINK("http://evil","x")', `'=HYPERLINK("http://evil","x")`],
    ["+1+1", "'+1+1"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", "'\r=1+1"],
    ["+44 20 7946 0000", "'+44 20 7946 0000"],
  ])("neutralises the formula %j as text", (value, shown) => {
    expect(csvField(value)).toBe(`"${shown.replaceAll('"', '""')}"`);
    expect(parseCsv(csvRecord([value]))).toEqual([[shown]]);
  });

  it.each(["Ada Lovelace", "020 7946 0000", "a=b", "1+1", "email@example.com", " =1 (a leading space)", "£1,200 — café", "'quoted'"])(
    "leaves the harmless %j as it is",
    (value) => {
      expect(csvField(value)).toBe(`"${value.replaceAll('"', '""')}"`);
      expect(parseCsv(csvRecord([value]))).toEqual([[value]]);
    },
  );
});

describe("the encoding, written out here (decision 064)", () => {
  /** What csv-stringify writes with the options the file was made with before. */
  const library = (values: string[]) => stringify([values], { quoted: true, quoted_empty: true, escape_formulas: true, record_delimiter: "windows" });
  /** mulberry32: the same "random" values every run, so a failure can be repeated. */
  function random(seed: number) {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const ALPHABET = [
    '"',
    "'",
    ",",
    ";",
    "=",
    "+",
    "-",
    "@",
    "\t",
    "\r",
    "\n",
    " ",
    "a",
    "Z",
    "0",
    "é",
    "£",
    "\uFF1D",
    "\uFF0B",
    "\uFF0D",
    "\uFF20",
    "😀",
    "\\",
    "\u0000",
  ];

  it("writes what csv-stringify writes, for edge cases and 5,000 random records", () => {
    const edges = ["", " ", '"', '""', "'", "=", "-", "+1", "@", "\t", "\r", "\n", "\r\n", "\uFF1D1", "\uFF0B", "\uFF0D", "\uFF20", "😀=", "a,b", 'a"b"c'];
    expect(csvRecord(edges)).toBe(library(edges));
    const next = random(64);
    for (let record = 0; record < 5_000; record++) {
      const values = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
        Array.from({ length: Math.floor(next() * 6) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(""),
      );
      expect(csvRecord(values), JSON.stringify(values)).toBe(library(values));
    }
  });
});

/** After the columns that were there before: the kind and a valuation request's details, empty for the contact form's. */
const VALUATION_COLUMNS = [
  "Kind",
  "Property address",
  "Postcode",
  "Property type",
  "Bedrooms",
  "Vacant, let or not yet bought",
  "Would like it let",
  "Best time to call",
];
const CONTACT_FORM = ["Contact form", "", "", "", "", "", "", ""];

describe("the enquiries CSV", () => {
  it("starts with a byte-order mark and the header, one CRLF record per submission", () => {
    const text = enquiriesCsv(
      [
        submission({ is_read: true, phone: "020 7946 0001", message: 'Two flats,\r\none "garden" flat' }),
        submission({ name: "Ben", email: "ben@example.com", user_type: "tenant", spam_signals: "too-fast" }),
      ],
      "all",
    );
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(parseCsv(text.slice(CSV_BOM.length))).toEqual([
      ["Submitted", "Name", "Email", "Phone", "User type", "Message", "Read", "Possible spam", ...VALUATION_COLUMNS],
      [
        "2026-07-01T08:30:00.000Z",
        "Ada Lovelace",
        "ada@example.com",
        "020 7946 0001",
        "Property Investor",
        'Two flats,\r\none "garden" flat',
        "Yes",
        "",
        ...CONTACT_FORM,
      ],
      [
        "2026-07-01T08:30:00.000Z",
        "Ben",
        "ben@example.com",
        "",
        "Tenant",
        "Two flats in Camden.",
        "No",
        "Sent within 3 seconds of opening the page",
        ...CONTACT_FORM,
      ],
    ]);
  });

  it("adds the spam reason, by its label, for the Spam filter", () => {
    const text = enquiriesCsv([submission({ spam_reason: "honeypot" })], "spam");
    const [header, row] = parseCsv(text.slice(CSV_BOM.length));
    expect(header![7]).toBe("Spam reason");
    expect(row![7]).toBe("Filled in the hidden field that only bots see");
  });

  it("is only the header when nothing matches", () => {
    expect(enquiriesCsv([], "unread")).toBe(
      `${CSV_BOM}"Submitted","Name","Email","Phone","User type","Message","Read","Possible spam",${VALUATION_COLUMNS.map((column) => `"${column}"`).join(",")}\r\n`,
    );
  });

  /** A source of these chunks that counts what was read and when it was closed; reading chunk `failAt` fails. */
  function source(chunks: CsvSubmission[][], failAt?: number) {
    const state = { read: 0, closed: 0 };
    async function* read() {
      for (const [index, chunk] of chunks.entries()) {
        if (index === failAt) throw new Error("database gone");
        state.read++;
        yield { submissions: chunk };
      }
    }
    const close = async () => {
      state.closed++;
    };
    return { state, source: { chunks: read(), close } };
  }

  it("streams the same file as a whole one, a chunk at a time as it is read, then closes its source", async () => {
    const rows = Array.from({ length: 5 }, (_, i) =>
      submission({
        name: `Sender ${i} Zoë 😀`,
        // The last one longer than a chunk's first buffer, in characters of two and three bytes.
        message: i === 4 ? "£€".repeat(20_000) : i % 2 ? "=1+1" : 'A "quoted"\r\nmessage',
        spam_signals: i === 3 ? "too-fast" : null,
      }),
    );
    const { state, source: from } = source([rows.slice(0, 2), [], rows.slice(2)]);
    const reader = enquiriesCsvStream(from, "all", () => {}).getReader();
    const first = await reader.read();
    expect([...first.value!.subarray(0, 3)], "UTF-8 byte-order mark").toEqual([0xef, 0xbb, 0xbf]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.read, "one chunk ready ahead of the download, no more").toBe(1);
    const pieces = [first.value!];
    for (let next = await reader.read(); !next.done; next = await reader.read()) pieces.push(next.value);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(Buffer.concat(pieces))).toBe(enquiriesCsv(rows, "all"));
    expect(state.closed).toBe(1);
  });

  it("stops the stream with the error, reports it and closes its source, when a chunk cannot be read", async () => {
    const reported: unknown[] = [];
    const { state, source: from } = source([[submission()], [submission()]], 1);
    const stream = enquiriesCsvStream(from, "all", (error) => reported.push(error));
    await expect(new Response(stream).text()).rejects.toThrow("database gone");
    expect(reported).toEqual([new Error("database gone")]);
    expect(state.closed).toBe(1);
  });

  it("closes its source when the download is cancelled half-way, reading no further", async () => {
    const { state, source: from } = source([[submission()], [submission()], [submission()]]);
    const reader = enquiriesCsvStream(from, "all", () => {}).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(state.read).toBe(1);
    expect(state.closed).toBe(1);
  });

  it("drops the chunk being read when the download is cancelled meanwhile, closing its source once and reporting nothing", async () => {
    const reported: unknown[] = [];
    let closed = 0;
    let release: (() => void) | undefined;
    async function* slow() {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      yield { submissions: [submission()] };
    }
    const close = async () => {
      closed++;
    };
    const reader = enquiriesCsvStream({ chunks: slow(), close }, "all", (error) => reported.push(error)).getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await reader.cancel();
    release!();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reported).toEqual([]);
    expect(closed).toBe(1);
  });

  it("names its file by the UK calendar day", () => {
    expect(downloadDate(new Date("2026-07-01T23:30:00.000Z"))).toBe("2026-07-02");
    expect(downloadDate(new Date("2026-12-31T23:30:00.000Z"))).toBe("2026-12-31");
  });
});
