import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { eraseDataHeld } from "~/enquiries/data-requests.server";
import { parseCursor, parseSearch, type InboxQuery } from "~/enquiries/inbox";
import { INBOX_PAGE_SIZE, SEARCH_COUNT_LIMIT, countSubmissions, deleteSubmission, deleteSubmissions, listSubmissions } from "~/enquiries/inbox.server";
import { deleteExpiredEnquiries } from "~/enquiries/retention.server";
import type { EnquiryStatus } from "~/enquiries/pipeline";
import { backends } from "../support/backends";
import { NO_MAIL } from "../support/enquiries";
import { useDatabase } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

/** The search, the keyset pages and the counts of the inbox (decision 058), on each database. */
describe.each(backends)("the inbox's search and pages on $name", (backend) => {
  const data = useDatabase(backend);

  beforeEach(async () => {
    await data.db.deleteFrom("contact_submissions").execute();
  });

  type Row = {
    name?: string;
    email?: string;
    phone?: string | null;
    message?: string;
    created_at: string;
    is_read?: boolean;
    status?: EnquiryStatus;
    spam_reason?: string | null;
  };

  /** Rows straight into the table (created_at as given, ties included); answers their ids. */
  async function insert(rows: Row[]): Promise<string[]> {
    const values = rows.map((row) => ({
      id: randomUUID(),
      name: row.name ?? "Pat Doe",
      email: row.email ?? "pat@example.com",
      email_folded: row.email ?? "pat@example.com",
      phone: row.phone ?? null,
      user_type: "landlord" as const,
      message: row.message ?? "A flat to let.",
      is_read: row.is_read ?? false,
      created_at: row.created_at,
      status: row.status ?? "new",
      spam_reason: row.spam_reason ?? null,
    }));
    for (let start = 0; start < values.length; start += 100)
      await data.db
        .insertInto("contact_submissions")
        .values(values.slice(start, start + 100))
        .execute();
    return values.map((value) => value.id);
  }

  const names = async (search: string, query: Partial<InboxQuery> = {}) =>
    (await listSubmissions(data.db, { filter: "all", ...query, search: parseSearch(search) })).submissions.map((submission) => submission.name).sort();

  async function enquiry(name: string, email: string, phone: string | undefined, message: string): Promise<string> {
    return (await saveEnquiry(data.db, { name, email, phone, userType: "landlord", message }, NO_MAIL)).id;
  }

  it("finds an enquiry by a part of its name, e-mail, phone or a word of its message, whatever the case", async () => {
    await enquiry("Zebedee Quartermaine", "zeb.q@harbour.example", "07700 900461", "I own a converted Lighthouse near Whitby.");
    await enquiry("Ada Lovelace", "ada@example.com", undefined, "Two flats in Leeds.");
    expect(await names("quarterMAINE")).toEqual(["Zebedee Quartermaine"]);
    expect(await names("ZEB.Q@HARB")).toEqual(["Zebedee Quartermaine"]);
    expect(await names("900461")).toEqual(["Zebedee Quartermaine"]);
    expect(await names("lighthouse")).toEqual(["Zebedee Quartermaine"]);
    expect(await names("ted lig")).toEqual(["Zebedee Quartermaine"]);
    expect(await names("leeds")).toEqual(["Ada Lovelace"]);
    // Short searches (under three characters) find substrings too.
    expect(await names("ov")).toEqual(["Ada Lovelace"]);
    expect(await names("e")).toEqual(["Ada Lovelace", "Zebedee Quartermaine"]);
    expect(await names("lighthouses")).toEqual([]);
  });

  it("finds a valuation request by its property's address or postcode, not by the names of its choices, and forgets them on erasure", async () => {
    const details = { propertyType: "flat", bedrooms: "2", occupancy: "vacant", letBy: "asap", callTime: "morning" } as const;
    await saveEnquiry(
      data.db,
      {
        name: "Val Landlord",
        email: "val@example.com",
        phone: "07700 900123",
        userType: "landlord",
        message: "",
        valuation: { ...details, address: "14 Quayside Mews, Whitstable", postcode: "CT5 1AB" },
      },
      NO_MAIL,
    );
    await enquiry("Carl Contact", "carl@example.com", undefined, "A house near the harbour.");
    expect(await names("quayside")).toEqual(["Val Landlord"]);
    expect(await names("ct5 1ab")).toEqual(["Val Landlord"]);
    expect(await names("CT5")).toEqual(["Val Landlord"]);
    // Short searches read the same texts.
    expect(await names("1A")).toEqual(["Val Landlord"]);
    // The details' keys and choices are not searched: every request has them.
    expect(await names("postcode")).toEqual([]);
    expect(await names("vacant")).toEqual([]);
    await eraseDataHeld(data.db, "val@example.com", TEST_ACTOR);
    expect(await names("quayside")).toEqual([]);
    await expectIndexWithout("Quayside");
    await expectIndexWithout("CT5 1AB");
  });

  it("folds the case of letters beyond ASCII", async () => {
    await enquiry("Émilie Dubois", "emilie@example.fr", undefined, "Un appartement à Londres, ÉTÉ 2027.");
    expect(await names("émilie")).toEqual(["Émilie Dubois"]);
    expect(await names("été 2027")).toEqual(["Émilie Dubois"]);
    // No accent is dropped: a substring, not a word stem.
    expect(await names("emilie d")).toEqual([]);
  });

  it("takes %, _, quotes and the text search's own syntax as the characters they are", async () => {
    await enquiry("Percy Cent", "percy@example.com", undefined, "Is the fee 100% of the first month, or 10_0?");
    await enquiry("Quinn Quote", "quinn@example.com", undefined, 'He said "NEAR the park" AND * then left.');
    await enquiry("Other One", "other@example.com", undefined, "A fee of 1000 pounds, no percent sign here.");
    expect(await names("100%")).toEqual(["Percy Cent"]);
    expect(await names("10_0")).toEqual(["Percy Cent"]);
    expect(await names("%")).toEqual(["Percy Cent"]);
    expect(await names("_")).toEqual(["Percy Cent"]);
    expect(await names('"NEAR the')).toEqual(["Quinn Quote"]);
    expect(await names("AND *")).toEqual(["Quinn Quote"]);
    expect(await names("NEAR(")).toEqual([]);
    expect(await names('"')).toEqual(["Quinn Quote"]);
  });

  it("keeps the search in step with every insert, change and delete, in the same transaction", async () => {
    const id = await enquiry("Walter Index", "walter@example.com", "01632 960001", "A mews house in Bath.");
    expect(await names("mews house")).toEqual(["Walter Index"]);
    await data.db.updateTable("contact_submissions").set({ message: "A barn conversion in Wells.", phone: "01632 960777" }).where("id", "=", id).execute();
    expect(await names("mews house")).toEqual([]);
    expect(await names("960001")).toEqual([]);
    expect(await names("barn conv")).toEqual(["Walter Index"]);
    expect(await names("960777")).toEqual(["Walter Index"]);
    // A change rolled back leaves the search as it was.
    await expect(
      data.db.transaction().execute(async (trx) => {
        await trx.updateTable("contact_submissions").set({ name: "Rolled Back" }).where("id", "=", id).execute();
        throw new Error("undone");
      }),
    ).rejects.toThrow("undone");
    expect(await names("rolled back")).toEqual([]);
    expect(await names("walter")).toEqual(["Walter Index"]);
    expect(await deleteSubmission(data.db, id, TEST_ACTOR)).toBe(true);
    expect(await names("barn conv")).toEqual([]);
    expect(await countSubmissions(data.db, { search: "barn conv" })).toEqual({ all: 0, unread: 0, read: 0, held: 0, spam: 0 });
    await expectIndexWithout("barn conv");
  });

  /** On SQLite the index itself (not only the inbox's answer) holds nothing of the words. */
  async function expectIndexWithout(words: string) {
    if (backend.name !== "sqlite") return;
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from contact_submissions_search where contact_submissions_search match ${`"${words}"`}`.execute(data.db);
    expect(Number(rows[0]!.n)).toBe(0);
  }

  it("lets the inbox's Delete leave its words to the index's next merge, and every other delete still wipe them", async () => {
    const ids = await Promise.all(["Dora Deleted", "Dan Deleted"].map((name) => enquiry(name, "dd@example.com", undefined, "A haunted lighthouse to let.")));
    expect(await names("haunted")).toEqual(["Dan Deleted", "Dora Deleted"]);
    expect(await deleteSubmissions(data.db, ids, TEST_ACTOR)).toBe(2);
    expect(await names("haunted")).toEqual([]);
    await expectIndexWithout("haunted");
    // SQLite's FTS5 option (decision 069), a row of the index's own config table, is set back in the same transaction:
    // an erasure, the retention rule or a delete by hand still rewrites the index. PostgreSQL's index has no such option.
    if (backend.name === "sqlite") {
      const { rows } = await sql<{ v: number }>`select v from contact_submissions_search_config where k = 'secure-delete'`.execute(data.db);
      expect(rows.map((row) => Number(row.v))).toEqual([1]);
    }
  });

  it("empties the search of what a UK GDPR erasure and the retention rule delete", async () => {
    await enquiry("Erin Erased", "erin@example.com", "07700 900999", "Please forget my tumbledown cottage.");
    await enquiry("Kim Kept", "kim@example.com", undefined, "My tumbledown cottage stays.");
    expect(await names("tumbledown")).toEqual(["Erin Erased", "Kim Kept"]);
    await eraseDataHeld(data.db, "erin@example.com", TEST_ACTOR);
    expect(await names("tumbledown")).toEqual(["Kim Kept"]);
    expect(await names("900999")).toEqual([]);
    expect(await names("erin")).toEqual([]);
    await expectIndexWithout("Erin Erased");
    await expectIndexWithout("forget my");

    await insert([{ name: "Olga Old", message: "An ancient enquiry about a windmill.", created_at: "2020-01-01T00:00:00.000Z" }]);
    expect(await names("windmill")).toEqual(["Olga Old"]);
    await deleteExpiredEnquiries(data.db, 365, new Date());
    expect(await names("windmill")).toEqual([]);
    await expectIndexWithout("windmill");
  });

  /** Every page of a view, following Next's cursor from the newest; answers the ids in order and the page numbers. */
  async function walk(query: InboxQuery): Promise<{ ids: string[]; pages: Array<{ page: number; ids: string[]; previous?: string }> }> {
    const pages: Array<{ page: number; ids: string[]; previous?: string }> = [];
    let result = await listSubmissions(data.db, query);
    for (;;) {
      pages.push({ page: result.page, ids: result.submissions.map((s) => s.id), ...(result.previousCursor ? { previous: result.previousCursor } : {}) });
      if (!result.hasMore) break;
      result = await listSubmissions(data.db, query, { page: result.page + 1, after: parseCursor(result.nextCursor ?? null)! });
    }
    return { ids: pages.flatMap((page) => page.ids), pages };
  }

  /** Newest first, the id breaking ties, as the inbox orders. */
  const newestFirst = (rows: Array<{ id: string; created_at: string }>) =>
    [...rows].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1)).map((row) => row.id);

  it("pages through every enquiry exactly once, ties in created_at included, and back", async () => {
    // 173 enquiries over 20 milliseconds: up to 9 share each.
    const rows = Array.from({ length: 173 }, (_, index) => ({ created_at: new Date(Date.UTC(2026, 10, 1, 9, 0, 0, index % 20)).toISOString() }));
    const ids = await insert(rows);
    const expected = newestFirst(ids.map((id, index) => ({ id, created_at: rows[index]!.created_at })));

    const { ids: seen, pages } = await walk({ filter: "all" });
    expect(seen).toEqual(expected);
    expect(pages.map((page) => page.page)).toEqual([1, 2, 3, 4]);
    expect(pages.map((page) => page.ids.length)).toEqual([INBOX_PAGE_SIZE, INBOX_PAGE_SIZE, INBOX_PAGE_SIZE, 23]);

    // Previous from page 4 and page 3 gives pages 3 and 2 as they were.
    for (const index of [3, 2]) {
      const back = await listSubmissions(data.db, { filter: "all" }, { page: index, before: parseCursor(pages[index]!.previous!)! });
      expect(back.page).toBe(index);
      expect(back.submissions.map((s) => s.id)).toEqual(pages[index - 1]!.ids);
      expect(back.hasMore).toBe(true);
    }
    // Previous near the top comes back to the newest page itself.
    const top = await listSubmissions(data.db, { filter: "all" }, { page: 1, before: parseCursor(pages[1]!.previous!)! });
    expect(top).toMatchObject({ page: 1, cursor: {} });
    expect(top.submissions.map((s) => s.id)).toEqual(pages[0]!.ids);

    // The old ?page=n (an offset) still answers the same pages.
    const third = await listSubmissions(data.db, { filter: "all" }, 3);
    expect(third.submissions.map((s) => s.id)).toEqual(pages[2]!.ids);
  });

  it("pages a search matching more than 1,000 enquiries newest first, each once, and says so instead of counting; 1,000 are still counted", async () => {
    // A word in most messages, read and unread, every few a status or spam, ties in created_at; and a rarer word among them.
    const rows: Row[] = Array.from({ length: SEARCH_COUNT_LIMIT + 60 }, (_, index) => ({
      name: `Person ${index}`,
      message: index < SEARCH_COUNT_LIMIT ? (index % 25 === 0 ? "My boiler and the garden." : "My boiler is broken.") : "A garden flat.",
      is_read: index % 3 === 0,
      status: index % 4 === 1 ? "contacted" : "new",
      spam_reason: index % 50 === 7 ? "honeypot" : null,
      created_at: new Date(Date.UTC(2026, 10, 3, 9, 0, 0, index % 90)).toISOString(),
    }));
    const ids = await insert(rows);
    const matching = (query: InboxQuery, row: Row) =>
      row.message!.toLowerCase().includes(query.search!.toLowerCase()) &&
      (query.filter === "spam" ? row.spam_reason !== null : row.spam_reason === null && (query.filter !== "unread" || !row.is_read)) &&
      (query.status === undefined || row.status === query.status);
    const expected = (query: InboxQuery, from = rows, fromIds = ids) =>
      newestFirst(fromIds.flatMap((id, index) => (matching(query, from[index]!) ? [{ id, created_at: from[index]!.created_at }] : [])));

    // Exactly the limit: counted as ever.
    const counted = await listSubmissions(data.db, { filter: "all", search: "boiler" }, 1, "2026-11-27");
    expect(counted.matchesOver).toBeUndefined();
    expect(counted.counts).toMatchObject({ all: expected({ filter: "all", search: "boiler" }).length, spam: 20 });
    expect(counted.due).toBe(0);

    // One more: the tabs, statuses and Due are not counted, and the page says how many there are at least.
    const newest: Row = {
      name: "Newest Boiler",
      message: "Another BOILER.",
      is_read: false,
      status: "new",
      spam_reason: null,
      created_at: "2026-11-04T09:00:00.000Z",
    };
    const more = await insert([newest]);
    const all = [...rows, newest];
    const allIds = [...ids, ...more];
    const first = await listSubmissions(data.db, { filter: "all", search: "boiler" }, 1, "2026-11-27");
    expect(first.matchesOver).toBe(SEARCH_COUNT_LIMIT);
    expect(first.counts).toBeUndefined();
    expect(first.statusCounts).toBeUndefined();
    expect(first.due).toBeUndefined();
    expect(first.submissions[0]!.name).toBe("Newest Boiler");

    // The right enquiries in the right order, every page once, Next and Previous as ever.
    for (const query of [
      { filter: "all", search: "Boiler" },
      { filter: "unread", status: "contacted", search: "boiler" },
      { filter: "spam", search: "boiler" },
    ] satisfies InboxQuery[]) {
      const { ids: seen, pages } = await walk(query);
      expect(seen, JSON.stringify(query)).toEqual(expected(query, all, allIds));
      expect(pages.map((page) => page.page)).toEqual(pages.map((_, index) => index + 1));
      if (pages.length > 2) {
        const back = await listSubmissions(data.db, query, { page: 2, before: parseCursor(pages[2]!.previous!)! });
        expect(back.submissions.map((s) => s.id)).toEqual(pages[1]!.ids);
        expect(back).toMatchObject({ page: 2, hasMore: true, matchesOver: SEARCH_COUNT_LIMIT });
      }
    }

    // A rarer word of the same enquiries is counted.
    const garden = await listSubmissions(data.db, { filter: "all", search: "garden" });
    expect(garden.matchesOver).toBeUndefined();
    expect(garden.counts?.all).toBe(expected({ filter: "all", search: "garden" }).length);
    expect(garden.submissions.map((s) => s.id)).toEqual(expected({ filter: "all", search: "garden" }).slice(0, INBOX_PAGE_SIZE));
  });

  it("combines a filter, a status, a search and the cursor, and counts what they select", async () => {
    const rows: Row[] = Array.from({ length: 400 }, (_, index) => ({
      name: `Person ${index}`,
      message: index % 2 === 0 ? "My boiler is broken." : "A garden flat.",
      is_read: index % 3 === 0,
      status: (["new", "contacted", "instructed"] as const)[index % 3 === 1 ? 1 : index % 5 === 0 ? 2 : 0]!,
      spam_reason: index % 17 === 0 ? "honeypot" : null,
      created_at: new Date(Date.UTC(2026, 10, 2, 9, 0, 0, index % 40)).toISOString(),
    }));
    const ids = await insert(rows);
    const query: InboxQuery = { filter: "unread", status: "contacted", search: "BOILER" };
    const matches = (row: Row) => row.spam_reason === null && !row.is_read && row.status === "contacted" && row.message!.includes("boiler");
    const expected = newestFirst(ids.flatMap((id, index) => (matches(rows[index]!) ? [{ id, created_at: rows[index]!.created_at }] : [])));
    expect(expected.length).toBeGreaterThan(INBOX_PAGE_SIZE);
    const { ids: seen } = await walk(query);
    expect(seen).toEqual(expected);

    const page = await listSubmissions(data.db, query);
    const real = rows.filter((row) => row.spam_reason === null && row.status === "contacted" && row.message!.includes("boiler"));
    expect(page.counts).toEqual({
      all: real.length,
      unread: real.filter((row) => !row.is_read).length,
      read: real.filter((row) => row.is_read).length,
      held: 0,
      spam: rows.filter((row) => row.spam_reason !== null && row.status === "contacted" && row.message!.includes("boiler")).length,
    });
    const unreadBoilers = rows.filter((row) => row.spam_reason === null && !row.is_read && row.message!.includes("boiler"));
    expect(page.statusCounts).toEqual({
      new: unreadBoilers.filter((row) => row.status === "new").length,
      contacted: unreadBoilers.filter((row) => row.status === "contacted").length,
      "valuation-booked": 0,
      instructed: unreadBoilers.filter((row) => row.status === "instructed").length,
      "not-proceeding": 0,
    });
  });
});
