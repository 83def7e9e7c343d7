import { describe, expect, it } from "vitest";
import { CSV_BATCH_SIZE, CSV_BOM, csvField, csvRecord, downloadDate, enquiriesCsv, enquiriesCsvStream } from "./csv";
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

  it("streams the same file in batches, in the order given, leaving out what is gone", async () => {
    const ids = Array.from({ length: CSV_BATCH_SIZE + 2 }, (_, i) => `id-${i}`);
    const gone = new Set(["id-1", `id-${CSV_BATCH_SIZE + 1}`]);
    const batches: number[] = [];
    const stream = enquiriesCsvStream(
      ids,
      "all",
      async (batch) => {
        batches.push(batch.length);
        // Answered in another order than asked: the stream keeps the order of `ids`.
        return batch
          .filter((id) => !gone.has(id))
          .reverse()
          .map((id) => submission({ id, name: id }));
      },
      () => {},
    );
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    expect(batches).toEqual([CSV_BATCH_SIZE, 2]);
    expect([...bytes.subarray(0, 3)], "UTF-8 byte-order mark").toEqual([0xef, 0xbb, 0xbf]);
    const expected = ids.filter((id) => !gone.has(id)).map((id) => submission({ id, name: id }));
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)).toBe(enquiriesCsv(expected, "all"));
  });

  it("stops the stream with the error, and reports it, when a batch cannot be loaded", async () => {
    const reported: unknown[] = [];
    const failure = new Error("database gone");
    const stream = enquiriesCsvStream(
      ["a"],
      "all",
      () => Promise.reject(failure),
      (error) => reported.push(error),
    );
    await expect(new Response(stream).text()).rejects.toThrow("database gone");
    expect(reported).toEqual([failure]);
  });

  it("names its file by the UK calendar day", () => {
    expect(downloadDate(new Date("2026-07-01T23:30:00.000Z"))).toBe("2026-07-02");
    expect(downloadDate(new Date("2026-12-31T23:30:00.000Z"))).toBe("2026-12-31");
  });
});
