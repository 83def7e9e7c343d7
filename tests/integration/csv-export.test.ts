/**
 * GET /admin/enquiries.csv (issue 5): the inbox view the admin is looking at
 * (filter and search), every row of it, as a CSV file a spreadsheet opens
 * safely. Through the built server, signed in, on each backend.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSV_BATCH_SIZE } from "~/enquiries/csv";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import type { UserType } from "~/enquiries/schema";
import { backends } from "../support/backends";
import { VALUATION_DETAIL_LABELS } from "~/enquiries/valuation";
import { parseCsv } from "../support/csv";
import { NO_MAIL, postJson } from "../support/enquiries";
import type { SpamSignal } from "~/enquiries/spam";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

const COLUMNS = ["Submitted", "Name", "Email", "Phone", "User type", "Message", "Read"];
/** After the columns that were there before (decision 057): the kind, and a valuation request's details (tests/integration/valuation.test.ts). */
const VALUATION_COLUMNS = ["Kind", ...VALUATION_DETAIL_LABELS];
/** What those columns hold for the contact form's enquiries. */
const CONTACT_FORM = ["Contact form", ...VALUATION_DETAIL_LABELS.map(() => "")];
/** Every filter but Spam says what marked an enquiry as possible spam, if anything did. */
const HEADER = [...COLUMNS, "Possible spam", ...VALUATION_COLUMNS];

type Seed = { name: string; email: string; phone?: string; userType: UserType; message: string; read?: boolean; spam?: SpamSignal; createdAt: string };

/** Oldest first; the file lists newest first. */
const SEEDS: Seed[] = [
  {
    name: "Ada Lovelace",
    email: "ada@example.com",
    userType: "investor",
    message: 'Two flats in Camden,\r\none "garden" flat.\r\n\r\nCall after 5pm — £ € ✓',
    read: true,
    createdAt: "2026-11-01T09:00:00.000Z",
  },
  {
    name: "Ben Okri",
    email: "ben@example.com",
    phone: "020 7946 0001",
    userType: "landlord",
    message: "A house in Leeds.",
    createdAt: "2026-11-01T09:01:00.000Z",
  },
  { name: "Cara Spam", email: "cara@example.com", userType: "other", message: "Cheap cheap cheap.", spam: "links", createdAt: "2026-11-01T09:02:00.000Z" },
  { name: "Dee Marsh", email: "dee@example.com", userType: "tenant", message: "Looking for an agent on Quince Row.", createdAt: "2026-07-01T08:30:00.000Z" },
];

const columns = (seed: Seed) => [
  seed.createdAt,
  seed.name,
  seed.email,
  seed.phone ?? "",
  { investor: "Property Investor", landlord: "Landlord", tenant: "Tenant", other: "Other" }[seed.userType],
  seed.message,
  seed.read ? "Yes" : "No",
];
const row = (seed: Seed) => [...columns(seed), "", ...CONTACT_FORM];
const [ada, ben, cara, dee] = SEEDS as [Seed, Seed, Seed, Seed];

beforeAll(() => assertBuilt());

describe.each(backends)("the CSV export on $name", (backend) => {
  const site = useSite(backend);

  beforeEach(async () => {
    const { db } = site;
    await db.deleteFrom("email_outbox").execute();
    await db.deleteFrom("contact_submissions").execute();
    // The contact API's per-IP limit: each test starts with its allowance.
    await db.deleteFrom("rate_limit_events").execute();
    for (const seed of SEEDS) {
      const { id } = await saveEnquiry(
        db,
        { name: seed.name, email: seed.email, phone: seed.phone, userType: seed.userType, message: seed.message },
        { ...NO_MAIL, verdict: seed.spam ? { kind: "spam", signals: [seed.spam] } : undefined },
      );
      await db
        .updateTable("contact_submissions")
        .set({ created_at: seed.createdAt, is_read: seed.read ?? false })
        .where("id", "=", id)
        .execute();
    }
  });

  async function download(query: string, { signedOut = false } = {}) {
    const headers: Record<string, string> = signedOut ? {} : { cookie: site.cookie };
    const response = await fetch(`${site.server.url}/admin/enquiries.csv${query}`, { headers });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { response, bytes, records: () => parseCsv(new TextDecoder().decode(bytes)) };
  }

  it("is a UTF-8 CSV attachment with a byte-order mark, named by filter and day, never stored", async () => {
    const { response, bytes } = await download("?filter=unread");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="enquiries-unread-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get("cache-control")).toMatch(/\bno-store\b/);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // CRLF after every record; the line breaks inside Ada's message stay inside her quoted field.
    expect(new TextDecoder().decode(bytes).endsWith('"No","","Contact form","","","","","","",""\r\n')).toBe(true);
  });

  it("holds every real enquiry for All, newest first, with line breaks and quotes kept in their field", async () => {
    const { records } = await download("");
    expect(records()).toEqual([HEADER, row(ben), row(ada), row(dee)]);
  });

  it("holds what the Unread and Read filters show", async () => {
    expect((await download("?filter=unread")).records()).toEqual([HEADER, row(ben), row(dee)]);
    expect((await download("?filter=read")).records()).toEqual([HEADER, row(ada)]);
  });

  it("adds the spam reason for the Spam filter, and only there", async () => {
    const { response, records } = await download("?filter=spam");
    expect(response.headers.get("content-disposition")).toContain('filename="enquiries-spam-');
    expect(records()).toEqual([
      [...COLUMNS, "Spam reason", ...VALUATION_COLUMNS],
      [...columns(cara), "Three or more links in the message", ...CONTACT_FORM],
    ]);
  });

  it("holds what a search finds in the name, e-mail or message, within the filter", async () => {
    expect((await download("?q=QUINCE")).records()).toEqual([HEADER, row(dee)]);
    expect((await download("?q=example.com&filter=read")).records()).toEqual([HEADER, row(ada)]);
    expect((await download("?q=nobody-has-this")).records()).toEqual([HEADER]);
  });

  it("falls back as the inbox does for filters and searches it does not know, never failing", async () => {
    const odd = new URLSearchParams({ filter: "../../etc", q: `  \u0000${"x".repeat(5_000)}` }).toString();
    const { response, records } = await download(`?${odd}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain('filename="enquiries-all-');
    expect(records()).toEqual([HEADER]);
    const spaced = await download("?filter=&q=%20%20");
    expect(spaced.records()).toEqual([HEADER, row(ben), row(ada), row(dee)]);
  });

  it("holds every row, however many pages the inbox would take", async () => {
    const count = CSV_BATCH_SIZE + 20;
    const start = Date.UTC(2026, 0, 1);
    const many = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      name: `Sender ${String(i).padStart(4, "0")}`,
      email: `sender${i}@example.org`,
      phone: null,
      user_type: "tenant" as const,
      message: `Message ${i}`,
      is_read: false,
      created_at: new Date(start + i * 60_000).toISOString(),
      spam_reason: null,
    }));
    await site.db.insertInto("contact_submissions").values(many).execute();
    const names = (await download("?q=example.org"))
      .records()
      .slice(1)
      .map((record) => record[1]);
    expect(names).toEqual(many.map((seed) => seed.name).reverse());
  });

  it("neutralises formulas that visitors typed into the contact form", async () => {
    const payloads = [
      { name: "@SUM(A1)", email: "-2+3@example.com", phone: "+44 20 7946 0000", userType: "landlord", message: '=HYPERLINK("http://evil","x")' },
      { name: "+1+1", email: "=1+1@example.com", phone: "-1", userType: "tenant", message: "-2+3 is what I owe" },
    ];
    for (const payload of payloads) {
      const response = await postJson(site.server.url, payload, { origin: site.server.url });
      expect(response.status, await response.clone().text()).toBe(201);
    }
    const records = (await download("?q=%2B1%2B1")).records().concat((await download("?q=SUM")).records().slice(1));
    expect(records.map((record) => record.slice(1, 4).concat(record[5]!))).toEqual([
      ["Name", "Email", "Phone", "Message"],
      ["'+1+1", "'=1+1@example.com", "'-1", "'-2+3 is what I owe"],
      ["'@SUM(A1)", "'-2+3@example.com", "'+44 20 7946 0000", `'=HYPERLINK("http://evil","x")`],
    ]);
  });

  it("exports nothing for a HEAD request, which gets the download's headers only", async () => {
    const before = await exportsAudited();
    const response = await fetch(`${site.server.url}/admin/enquiries.csv?filter=unread`, { method: "HEAD", headers: { cookie: site.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="enquiries-unread-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(await exportsAudited()).toEqual(before);
  });

  /**
   * Enough valuation requests (their addresses long) that the file is read in
   * several chunks and is far larger than what the connection buffers ahead:
   * oldest first, "Sender 0000" the oldest of all, so the last in the file.
   */
  async function seedLongInbox(): Promise<string[]> {
    const count = 2 * CSV_BATCH_SIZE + 10;
    const start = Date.UTC(2025, 0, 1);
    const details = JSON.stringify({
      address: `1 Long Row, ${"Upper Lodge Lane, ".repeat(80)}Leeds`,
      postcode: "LS1 6AF",
      propertyType: "flat",
      bedrooms: "2",
      occupancy: "vacant",
      letBy: "asap",
      callTime: "any",
    });
    const rows = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      name: `Sender ${String(i).padStart(4, "0")}`,
      email: `sender${i}@example.net`,
      phone: "0113 496 0000",
      user_type: "landlord" as const,
      message: "",
      is_read: false,
      created_at: new Date(start + i * 60_000).toISOString(),
      spam_reason: null,
      kind: "valuation" as const,
      details,
    }));
    for (let at = 0; at < rows.length; at += 200)
      await site.db
        .insertInto("contact_submissions")
        .values(rows.slice(at, at + 200))
        .execute();
    return rows.map((row) => row.id);
  }

  async function exportsAudited(): Promise<Array<string | null>> {
    return (await site.db.selectFrom("audit_log").select("details").where("action", "=", "enquiries-exported").orderBy("id").execute()).map(
      (entry) => entry.details,
    );
  }

  it("holds the inbox as it was when the download began (what changes, goes or arrives meanwhile does not show), and stops reading when the download stops", async () => {
    const [oldest, secondOldest] = await seedLongInbox();
    const auditedBefore = (await exportsAudited()).length;
    const response = await fetch(`${site.server.url}/admin/enquiries.csv?filter=all`, { headers: { cookie: site.cookie, "accept-encoding": "identity" } });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const pieces: Uint8Array[] = [(await reader.read()).value!];
    // The download has begun; the oldest enquiries, at the end of the file, are still to come.
    await site.db.deleteFrom("contact_submissions").where("id", "=", oldest!).execute();
    await site.db.updateTable("contact_submissions").set({ name: "Renamed meanwhile" }).where("id", "=", secondOldest!).execute();
    await saveEnquiry(site.db, { name: "Newcomer", email: "new@example.com", userType: "tenant", message: "Arrived during the download." }, NO_MAIL);
    for (let next = await reader.read(); !next.done; next = await reader.read()) pieces.push(next.value);
    const names = parseCsv(new TextDecoder().decode(Buffer.concat(pieces)))
      .slice(1)
      .map((record) => record[1]);
    expect(names.slice(0, 3)).toEqual([ben.name, ada.name, dee.name]);
    expect(names.slice(-2)).toEqual(["Sender 0001", "Sender 0000"]);
    expect(names).toHaveLength(3 + 2 * CSV_BATCH_SIZE + 10);
    expect(names).not.toContain("Newcomer");
    expect(new Set(names).size, "no enquiry twice").toBe(names.length);
    const audited = await exportsAudited();
    expect(audited.slice(auditedBefore)).toEqual([JSON.stringify({ searched: false, count: names.length })]);

    // A download stopped half-way leaves no read of the database open.
    const stop = new AbortController();
    const stopped = await fetch(`${site.server.url}/admin/enquiries.csv`, {
      headers: { cookie: site.cookie, "accept-encoding": "identity" },
      signal: stop.signal,
    });
    const stoppedReader = stopped.body!.getReader();
    await stoppedReader.read();
    // A write after that read began: while it is open, SQLite cannot take the write-ahead log back to nothing.
    await saveEnquiry(site.db, { name: "After", email: "after@example.com", userType: "tenant", message: "Written after the download began." }, NO_MAIL);
    expect(await openReads(), "the read open while the download is").toBe(1);
    stop.abort();
    await expect(stoppedReader.read()).rejects.toThrow();
    await expect.poll(() => openReads(), { timeout: 5_000 }).toBe(0);
    // A client going away is not the export failing.
    expect(site.server.stdout() + site.server.stderr()).not.toContain("Could not export contact submissions");
  });

  /** Reads of the site's database still open: on PostgreSQL, a connection in the export's transaction; on SQLite, a reader holding the write-ahead log. */
  async function openReads(): Promise<number> {
    if (backend.name === "postgres") {
      const { rows } = await sql<{ open: number | string }>`select count(*) as open from pg_stat_activity
        where datname = current_database() and state <> 'idle' and query like '%snapshot_read_%' and pid <> pg_backend_pid()`.execute(site.db);
      return Number(rows[0]?.open);
    }
    await sql`pragma busy_timeout = 0`.execute(site.db);
    try {
      const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(site.db);
      return Number(rows[0]?.busy);
    } finally {
      await sql`pragma busy_timeout = 5000`.execute(site.db);
    }
  }

  it("is refused with 401 without a session, and holds no enquiry", async () => {
    const { response, bytes } = await download("?filter=all", { signedOut: true });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-disposition")).toBeNull();
    const text = new TextDecoder().decode(bytes);
    for (const seed of SEEDS) expect(text).not.toContain(seed.email);
  });
});

describe.each(backends.filter((backend) => backend.name === "postgres"))("the CSV export on $name when the database ends its read", (backend) => {
  const site = useSite(backend);

  it("stops the download short, names it in the log, and the site goes on (the next export is whole)", async () => {
    const count = 2 * CSV_BATCH_SIZE + 10;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      name: `Sender ${i}`,
      email: `sender${i}@example.net`,
      email_folded: `sender${i}@example.net`,
      user_type: "landlord" as const,
      message: "A flat to let.",
      is_read: false,
      created_at: new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString(),
    }));
    for (let at = 0; at < rows.length; at += 500)
      await site.db
        .insertInto("contact_submissions")
        .values(rows.slice(at, at + 500))
        .execute();
    const download = () => fetch(`${site.server.url}/admin/enquiries.csv?filter=all`, { headers: { cookie: site.cookie, "accept-encoding": "identity" } });

    const response = await download();
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    // What a restart or a failover does to the export's connection, half-way through the file.
    const { rows: ended } = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended from pg_stat_activity
      where datname = current_database() and query like '%snapshot_read_%' and pid <> pg_backend_pid()`.execute(site.db);
    expect(ended.map((row) => row.ended)).toEqual([true]);
    await expect(
      (async () => {
        for (let next = await reader.read(); !next.done; next = await reader.read());
      })(),
    ).rejects.toThrow();

    await expect.poll(() => site.server.stdout() + site.server.stderr(), { timeout: 5_000 }).toContain("Could not export contact submissions");
    const again = await download();
    expect(again.status).toBe(200);
    expect(parseCsv(await again.text()).slice(1)).toHaveLength(count);
  });
});
