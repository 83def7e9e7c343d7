/**
 * The CSV export from PostgreSQL (decision 077): PostgreSQL writes the first
 * seven fields of every record itself (quoted, formulas neutralised, labels),
 * and the file must stay byte for byte what the encoder writes, which SQLite's
 * export still uses. The same awkward rows go into a database of each; every
 * view's file is compared, byte for byte, and with the encoder's file of the
 * rows read back whole.
 */
import { randomUUID } from "node:crypto";
import { type Insertable, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { enquiriesCsv, enquiriesCsvStream } from "~/enquiries/csv";
import { openEnquiriesExport } from "~/enquiries/export.server";
import type { InboxQuery } from "~/enquiries/inbox";
import { toSubmission } from "~/enquiries/inbox.server";
import type { Db } from "~/platform/db/db.server";
import type { ContactSubmissionTable } from "~/platform/db/schema";
import { snapshotReads } from "~/platform/db/snapshot-read.server";
import { TEST_ACTOR } from "../support/actors";
import { backends } from "../support/backends";
import { type OpenDatabase, useDatabase } from "../support/sites";

type Row = Partial<Insertable<ContactSubmissionTable>> & { name: string; email: string; message: string; created_at: string };

const SOUND = { address: "1 Quince Row, Leeds", postcode: "LS1 4AP", propertyType: "flat", bedrooms: "2", occupancy: "vacant", letBy: "asap", callTime: "any" };

/** Every shape a field can take that the two encoders might write differently. Newest last. */
const ROWS: Row[] = [
  { name: 'Ann "Nan" O\'Neil', email: "ann@example.com", message: "a, b, c", created_at: "2026-01-01T00:00:00.000Z" },
  { name: "Line Breaks", email: "lb@example.com", message: "one\r\ntwo\nthree\rfour\r\n", is_read: true, created_at: "2026-01-01T00:00:00.001Z" },
  { name: "=1+1", email: "+44@example.com", phone: "+44 20 7946 0001", message: "-minus", created_at: "2026-01-02T09:30:15.120Z" },
  { name: "@sum(A1)", email: "\tTab@example.com", phone: "\r020", message: "\rcarriage", user_type: "tenant", created_at: "2026-02-28T23:59:59.999Z" },
  {
    name: "\uFF1Dfull",
    email: "\uFF0Bfull@example.com",
    phone: "\uFF0D1",
    message: "\uFF20full",
    user_type: "investor",
    created_at: "2026-03-29T01:00:00.000Z",
  },
  {
    name: "Zoë 😀 £ € ✓ 中文",
    email: "zoe@example.com",
    message: "😀=not a formula start; é\u0301 and \u2028 and \u00a0",
    created_at: "2026-06-30T12:00:00.000Z",
  },
  { name: "", email: "", phone: "", message: "", user_type: "other", created_at: "2026-07-01T08:30:00.000Z" },
  { name: "No Phone", email: "np@example.com", phone: null, message: 'He said ""hi"" and "', created_at: "2026-07-01T08:30:00.500Z" },
  { name: "Too Fast", email: "tf@example.com", message: "quince flat", spam_signals: "too-fast", created_at: "2026-08-01T10:00:00.000Z" },
  { name: "Two Signals", email: "ts@example.com", message: "x", spam_signals: "links+too-fast", is_read: true, created_at: "2026-08-01T10:00:01.000Z" },
  { name: "Odd Signals", email: "os@example.com", message: "x", spam_signals: "__proto__+=cmd+", created_at: "2026-08-01T10:00:02.000Z" },
  { name: "Empty Signals", email: "es@example.com", message: "x", spam_signals: "", created_at: "2026-08-01T10:00:03.000Z" },
  { name: "Flooded", email: "fl@example.com", message: "x", spam_signals: "flood+too-fast", created_at: "2026-08-01T10:00:04.000Z" },
  { name: "Spam", email: "sp@example.com", message: "buy", spam_reason: "honeypot", created_at: "2026-08-02T10:00:00.000Z" },
  { name: "Spam Two", email: "sp2@example.com", message: "buy", spam_reason: "link-in-name+too-fast", is_read: true, created_at: "2026-08-02T10:00:01.000Z" },
  { name: "Spam Odd", email: "sp3@example.com", message: "buy", spam_reason: '=HYPERLINK("x")', created_at: "2026-08-02T10:00:02.000Z" },
  {
    name: "Valuation",
    email: "v@example.com",
    phone: "07700 900123",
    message: "",
    kind: "valuation",
    details: JSON.stringify(SOUND),
    created_at: "2026-09-01T10:00:00.000Z",
  },
  {
    name: "Valuation Awkward",
    email: "va@example.com",
    message: "quince",
    kind: "valuation",
    status: "contacted",
    details: JSON.stringify({ ...SOUND, address: '=1 "Quince", Row\r\nLeeds 😀', postcode: "-LS1", propertyType: "semi-detached", bedrooms: "5-plus" }),
    created_at: "2026-09-01T10:00:01.000Z",
  },
  {
    name: "Valuation Escapes",
    email: "ve@example.com",
    message: "x",
    kind: "valuation",
    details:
      '{"address":"caf\\u00e9 \\ud83d\\ude00","postcode":"LS1 4AP","propertyType":"flat","bedrooms":"studio","occupancy":"let","letBy":"later","callTime":"evening","postcode":"@LS2"}',
    created_at: "2026-09-01T10:00:02.000Z",
  },
  { name: "Valuation Missing", email: "vm@example.com", message: "x", kind: "valuation", details: null, created_at: "2026-09-01T10:00:03.000Z" },
  { name: "Valuation Array", email: "vx@example.com", message: "x", kind: "valuation", details: "[1, 2]", created_at: "2026-09-01T10:00:04.000Z" },
  { name: "Valuation Null", email: "vn@example.com", message: "x", kind: "valuation", details: "null", created_at: "2026-09-01T10:00:05.000Z" },
  {
    name: "Valuation Unknown Choice",
    email: "vu@example.com",
    message: "x",
    kind: "valuation",
    details: JSON.stringify({ ...SOUND, bedrooms: "9" }),
    created_at: "2026-09-01T10:00:06.000Z",
  },
  {
    name: "Valuation Number Address",
    email: "vna@example.com",
    message: "x",
    kind: "valuation",
    details: JSON.stringify({ ...SOUND, address: 12 }),
    created_at: "2026-09-01T10:00:07.000Z",
  },
  {
    name: "Contact With Details",
    email: "cd@example.com",
    message: "x",
    kind: "contact",
    details: JSON.stringify(SOUND),
    created_at: "2026-09-01T10:00:08.000Z",
  },
  {
    name: "Valuation Spam",
    email: "vs@example.com",
    message: "x",
    kind: "valuation",
    details: JSON.stringify(SOUND),
    spam_signals: "too-fast",
    created_at: "2026-09-01T10:00:09.000Z",
  },
  { name: "Valuation Not JSON", email: "vj@example.com", message: "x", kind: "valuation", details: "{not json", created_at: "2026-09-01T10:00:10.000Z" },
];

const NOT_JSON = "Valuation Not JSON";

/** The views compared: every filter (Spam has the reason column), a status, a search. */
const QUERIES: InboxQuery[] = [
  { filter: "all" },
  { filter: "unread" },
  { filter: "read" },
  { filter: "held" },
  { filter: "spam" },
  { filter: "all", status: "contacted" },
];
const SEARCHED: InboxQuery[] = [
  { filter: "all", search: "quince" },
  { filter: "unread", search: "QUINCE" },
];

async function insertRows(db: Db) {
  await db
    .insertInto("contact_submissions")
    .values(
      ROWS.map((row) => ({
        id: randomUUID(),
        phone: null,
        user_type: "landlord" as const,
        is_read: false,
        spam_reason: null,
        spam_signals: null,
        status: "new" as const,
        kind: "contact" as const,
        details: null,
        ...row,
      })),
    )
    .execute();
}

/** The file as the route streams it. */
async function exported(opened: OpenDatabase, query: InboxQuery): Promise<Buffer> {
  const source = await openEnquiriesExport(opened.db, snapshotReads(opened.reader), query, TEST_ACTOR);
  const stream = enquiriesCsvStream(source, query.filter, (error) => {
    throw error;
  });
  return Buffer.from(await new Response(stream).arrayBuffer());
}

/** Every row of All (not Spam, not held in a flood), read back whole and encoded by the encoder, newest first. */
async function encodedAll(db: Db): Promise<{ bytes: Buffer; rows: number }> {
  const stored = await db.selectFrom("contact_submissions").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").execute();
  const everyRow = stored.filter((row) => row.spam_reason === null && !(row.spam_signals ?? "").split("+").includes("flood"));
  return { bytes: Buffer.from(enquiriesCsv(everyRow.map(toSubmission), "all")), rows: everyRow.length };
}

describe.each(backends)("the CSV export on $name, byte for byte", (backend) => {
  const opened = useDatabase(backend);

  it("streams what the encoder writes of every row read back whole, every awkward field included", async () => {
    // Without the search index (where pg_trgm is missing, migration 018), PostgreSQL holds details that are not JSON, as SQLite does.
    await sql`drop index if exists contact_submissions_search_idx`.execute(opened.db);
    await insertRows(opened.db);
    const encoded = await encodedAll(opened.db);
    // Three under Spam, one held in a flood.
    expect(encoded.rows).toBe(ROWS.length - 4);
    const all = await exported(opened, { filter: "all" });
    expect(all.toString("utf8")).toBe(encoded.bytes.toString("utf8"));
    expect(all.equals(encoded.bytes)).toBe(true);
  });
});

const sqlite = backends.find((backend) => backend.name === "sqlite")!;

describe.each(backends.filter((backend) => backend.name === "postgres"))("the CSV export on $name, byte for byte with SQLite's", (backend) => {
  const fromSqlite = useDatabase(sqlite);
  const fromPostgres = useDatabase(backend);

  it("writes what SQLite's export writes, for every view and every awkward field", async () => {
    await sql`drop index if exists contact_submissions_search_idx`.execute(fromPostgres.db);
    await insertRows(fromSqlite.db);
    await insertRows(fromPostgres.db);

    for (const query of QUERIES) {
      const [fromSqliteFile, fromPostgresFile] = [await exported(fromSqlite, query), await exported(fromPostgres, query)];
      expect(fromPostgresFile.toString("utf8"), JSON.stringify(query)).toBe(fromSqliteFile.toString("utf8"));
      expect(fromPostgresFile.equals(fromSqliteFile), JSON.stringify(query)).toBe(true);
      // Each file has its header and at least one record.
      expect(fromPostgresFile.toString("utf8").split("\r\n").length, JSON.stringify(query)).toBeGreaterThan(2);
    }

    // A search reads the details as JSON on PostgreSQL (decision 068): the row that is not JSON goes first.
    for (const opened of [fromSqlite, fromPostgres]) await opened.db.deleteFrom("contact_submissions").where("name", "=", NOT_JSON).execute();
    for (const query of SEARCHED) {
      const [fromSqliteFile, fromPostgresFile] = [await exported(fromSqlite, query), await exported(fromPostgres, query)];
      expect(fromPostgresFile.toString("utf8"), JSON.stringify(query)).toBe(fromSqliteFile.toString("utf8"));
      expect(fromPostgresFile.equals(fromSqliteFile), JSON.stringify(query)).toBe(true);
      expect(fromPostgresFile.toString("utf8").split("\r\n").length, JSON.stringify(query)).toBeGreaterThan(2);
    }
  });
});
