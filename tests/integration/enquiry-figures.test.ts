/**
 * How the team is doing (issue 22, decision 060), on both databases: the
 * first response is kept once (a status change sets it, a later one does
 * not move it; migration 020 fills it from the audit log); this week's and
 * last week's real enquiries by kind and status, the share Instructed and
 * the median time to first response in office hours, with the weeks'
 * boundaries at Monday midnight in UK time; the panel on the Contact
 * Submissions tab; the month-by-month CSV, refused to an Editor.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIGURES_TEXT } from "~/admin/TeamFigures";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import type { Log } from "~/platform/observe/log.server";
import { readTeamFigures } from "~/routes/admin/enquiries/figures.server";
import { createAdmin } from "~/auth/admins.server";
import { changeRole } from "~/auth/team.server";
import type { OpeningDay } from "~/company/office-hours";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { monthlyFigures } from "~/enquiries/figures";
import { figureRows, figuresToExport, teamFigures } from "~/enquiries/figures.server";
import { markFirstResponse } from "~/enquiries/first-response.server";
import { setEnquiryStatus } from "~/enquiries/inbox.server";
import type { EnquiryStatus } from "~/enquiries/pipeline";
import { migrateToLatest, type Database } from "~/platform/db/db.server";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { TEST_ACTOR } from "../support/actors";
import { signInOverHttp } from "../support/admin-http";
import { backends, type TestDatabase } from "../support/backends";
import { NO_MAIL, filedAsSpam } from "../support/enquiries";
import { visibleText } from "../support/html";
import { useDatabase, useDatabaseBefore, useSite } from "../support/sites";

/** The specification's hours: Monday – Friday 9:00 – 18:00, Saturday 10:00 – 16:00, Sunday closed. */
const open = (opens: string, closes: string): OpeningDay => ({ open: true, opens, closes });
const HOURS: OpeningDay[] = [...Array.from({ length: 5 }, () => open("09:00", "18:00")), open("10:00", "16:00"), { open: false, opens: "", closes: "" }];

type Row = { createdAt: string; status?: EnquiryStatus; firstResponseAt?: string; spamReason?: string; spamSignals?: string };

async function insert(db: Db, row: Row): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("contact_submissions")
    .values({
      id,
      name: "Lena Landlord",
      email: "lena@example.com",
      phone: null,
      user_type: "landlord",
      message: "A flat to let.",
      is_read: false,
      created_at: row.createdAt,
      spam_reason: row.spamReason ?? null,
      spam_signals: row.spamSignals ?? null,
      status: row.status ?? "new",
      first_response_at: row.firstResponseAt ?? null,
    })
    .execute();
  return id;
}

const firstResponseOf = async (db: Db, id: string) => {
  const row = await db.selectFrom("contact_submissions").select("first_response_at").where("id", "=", id).executeTakeFirstOrThrow();
  return row.first_response_at === null ? null : toIsoString(row.first_response_at);
};

describe.each(backends)("the first response on $name", (backend) => {
  const opened = useDatabase(backend);

  it("is the first status change, and a later change or reply does not move it", async () => {
    const id = await insert(opened.db, { createdAt: "2026-07-06T08:00:00.000Z" });
    expect(await firstResponseOf(opened.db, id)).toBeNull();
    await setEnquiryStatus(opened.db, id, { status: "contacted" }, TEST_ACTOR, new Date("2026-07-06T09:15:00.000Z"));
    expect(await firstResponseOf(opened.db, id)).toBe("2026-07-06T09:15:00.000Z");
    await setEnquiryStatus(opened.db, id, { status: "instructed" }, TEST_ACTOR, new Date("2026-07-07T10:00:00.000Z"));
    expect(await firstResponseOf(opened.db, id)).toBe("2026-07-06T09:15:00.000Z");
    // A reply after it (the reply path calls the same function) moves nothing either.
    expect(await opened.db.transaction().execute((trx) => markFirstResponse(trx, id, new Date("2026-07-08T10:00:00.000Z")))).toBe(false);
    expect(await firstResponseOf(opened.db, id)).toBe("2026-07-06T09:15:00.000Z");
  });

  it("is the reply when a reply came first", async () => {
    const id = await insert(opened.db, { createdAt: "2026-07-06T08:00:00.000Z" });
    expect(await opened.db.transaction().execute((trx) => markFirstResponse(trx, id, new Date("2026-07-06T08:30:00.000Z")))).toBe(true);
    await setEnquiryStatus(opened.db, id, { status: "contacted" }, TEST_ACTOR, new Date("2026-07-06T09:15:00.000Z"));
    expect(await firstResponseOf(opened.db, id)).toBe("2026-07-06T08:30:00.000Z");
  });
});

describe.each(backends)("this week's and last week's figures on $name", (backend) => {
  const opened = useDatabase(backend);
  // Wednesday 8 July 2026, 13:00 in London (BST): this week began Monday 6 July 00:00 BST = 5 July 23:00 UTC.
  const now = new Date("2026-07-08T12:00:00.000Z");

  beforeAll(async () => {
    const rows: Row[] = [
      // This week. Monday 00:30 BST, answered Monday 10:00 BST: one office hour (from 9:00).
      { createdAt: "2026-07-05T23:30:00.000Z", status: "instructed", firstResponseAt: "2026-07-06T09:00:00.000Z" },
      // Monday 9:00 → 12:00 BST: three hours.
      { createdAt: "2026-07-06T08:00:00.000Z", status: "contacted", firstResponseAt: "2026-07-06T11:00:00.000Z" },
      // Tuesday 17:30 → Wednesday 9:30 BST: half an hour each side of the night.
      { createdAt: "2026-07-07T16:30:00.000Z", status: "valuation-booked", firstResponseAt: "2026-07-08T08:30:00.000Z" },
      // Not answered yet.
      { createdAt: "2026-07-08T10:00:00.000Z" },
      // Spam and held in a flood: not real enquiries, never counted.
      { createdAt: "2026-07-07T10:00:00.000Z", status: "instructed", firstResponseAt: "2026-07-07T10:01:00.000Z", spamReason: "honeypot" },
      { createdAt: "2026-07-07T10:00:00.000Z", spamSignals: "flood+too-fast" },
      // Last week. Sunday 5 July 23:30 BST (22:30 UTC): Sunday is closed, answered Monday 9:30 BST: 30 minutes.
      { createdAt: "2026-07-05T22:30:00.000Z", status: "instructed", firstResponseAt: "2026-07-06T08:30:00.000Z" },
      // Monday 29 June 9:00 → 9:45 BST: 45 minutes.
      { createdAt: "2026-06-29T08:00:00.000Z", status: "not-proceeding", firstResponseAt: "2026-06-29T08:45:00.000Z" },
      // Sunday 28 June 23:30 BST: the week before last.
      { createdAt: "2026-06-28T22:30:00.000Z", status: "instructed" },
      // April: the CSV's first month, then a May with none.
      { createdAt: "2026-04-15T10:00:00.000Z", status: "contacted", firstResponseAt: "2026-04-15T12:00:00.000Z" },
    ];
    for (const row of rows) await insert(opened.db, row);
  });

  it("counts this week's real enquiries by kind and status, the share Instructed and the median in office hours", async () => {
    const [thisWeek, lastWeek] = (await teamFigures(opened.db, HOURS, now)).weeks;
    expect(thisWeek).toMatchObject({
      heading: "This week",
      dates: "6 Jul – 12 Jul",
      total: 4,
      byKind: [
        { label: "Contact form", count: 4 },
        { label: "Valuation request", count: 0 },
      ],
      byStatus: [
        { label: "New", count: 1 },
        { label: "Contacted", count: 1 },
        { label: "Valuation booked", count: 1 },
        { label: "Instructed", count: 1 },
        { label: "Not proceeding", count: 0 },
      ],
      instructed: "25% (1 of 4)",
      answered: "3 of 4",
      // 1 hour, 3 hours, 1 hour.
      medianResponse: "1 hour",
    });
    expect(lastWeek).toMatchObject({
      heading: "Last week",
      dates: "29 Jun – 5 Jul",
      total: 2,
      instructed: "50% (1 of 2)",
      answered: "2 of 2",
      // The mean of 30 and 45 minutes, rounded.
      medianResponse: "38 minutes",
    });
  });

  it("says so when a week has no enquiries or none was answered", async () => {
    const [empty] = (await teamFigures(opened.db, HOURS, new Date("2026-09-02T12:00:00.000Z"))).weeks;
    expect(empty).toMatchObject({ total: 0, instructed: "No enquiries", answered: "0 of 0", medianResponse: "No responses yet" });
  });

  it("makes the month-by-month table of every real enquiry, months without any included, and audits the export", async () => {
    const months = await figuresToExport(opened.db, HOURS, TEST_ACTOR, now);
    expect(months.map(({ month, figures }) => [month, figures.total, figures.byStatus.instructed])).toEqual([
      ["2026-04", 1, 0],
      ["2026-05", 0, 0],
      // 28 and 29 June.
      ["2026-06", 2, 1],
      // 5 July 23:30 BST is still July's; the four of this week.
      ["2026-07", 5, 2],
    ]);
    // April: 10:00 → 12:00 UTC on a Wednesday is 11:00 → 13:00 BST, two office hours.
    expect(months[0]!.figures.medianResponseMs).toBe(2 * 3_600_000);
    const entry = await opened.db
      .selectFrom("audit_log")
      .select(["action", "target_id", "details"])
      .where("action", "=", "enquiry-figures-exported")
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ target_id: "months" });
    expect(JSON.parse(entry.details!)).toEqual({ count: 4 });
    // The rows the figures read are the real enquiries only.
    expect(monthlyFigures(await figureRows(opened.db), HOURS, now)).toEqual(months);
  });
});

describe.each(backends)("migration 020 on $name", (backend) => {
  const database = useDatabaseBefore(backend, "020");

  it("takes each enquiry's first response from the earliest status change the audit log holds", async () => {
    const untyped = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const enquiry = (id: string) => ({
      id,
      name: "Lena",
      email: "lena@example.com",
      user_type: "landlord",
      message: "A flat.",
      is_read: false,
      created_at: "2026-07-01T09:00:00.000Z",
    });
    await untyped
      .insertInto("contact_submissions")
      .values([enquiry("changed"), enquiry("untouched")])
      .execute();
    const entry = (at: string, action: string, target: string) => ({
      at,
      actor_type: "member",
      actor_label: "jo@example.com",
      action,
      target_type: "enquiry",
      target_id: target,
    });
    await untyped
      .insertInto("audit_log")
      .values([
        entry("2026-07-02T10:00:00.000Z", "enquiry-status-changed", "changed"),
        entry("2026-07-01T11:00:00.000Z", "enquiry-status-changed", "changed"),
        entry("2026-07-01T09:30:00.000Z", "enquiry-marked-read", "changed"),
        entry("2026-07-01T09:30:00.000Z", "enquiry-marked-read", "untouched"),
      ])
      .execute();

    expect(await migrateToLatest(database)).toContain("020-first-response");
    expect(await firstResponseOf(database.db, "changed")).toBe("2026-07-01T11:00:00.000Z");
    expect(await firstResponseOf(database.db, "untouched")).toBeNull();
  });
});

describe.each(backends)("the figures when the database fails on $name", (backend) => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    // Never migrated: no table to read.
    testDb = await backend.createDatabase();
    database = testDb.open();
  });
  afterAll(() => testDb.cleanup());

  it("says they could not be read, and logs why, without failing the tab", async () => {
    const logged: string[] = [];
    const log = { error: (_fields: object, message: string) => void logged.push(message) } as unknown as Log;
    const figures = await readTeamFigures({ db: database.db, company: PLACEHOLDER_COMPANY, log }, "enquiries");
    expect(figures).toEqual({ weeks: undefined, canExport: true });
    expect(logged).toContain("Could not read the enquiry figures");
  });
});

describe.each(backends)("the panel and the CSV over HTTP on $name", (backend) => {
  const site = useSite(backend);
  const signedIn = (path: string) => site.get(path, { cookie: site.cookie });

  async function enquiry(name: string): Promise<string> {
    const { id } = await saveEnquiry(
      site.db,
      { name, email: "vic@example.com", phone: undefined, userType: "landlord", message: `A house to let, from ${name}.` },
      { ...NO_MAIL, verdict: filedAsSpam(undefined) },
    );
    return id;
  }

  it("shows this week's figures on the Contact Submissions tab, and they follow a status change", async () => {
    const first = await enquiry("Vic Valuer");
    await enquiry("Wes Waiting");
    const before = visibleText((await signedIn("/admin/enquiries")).text);
    expect(before).toContain(FIGURES_TEXT.heading);
    expect(before).toMatch(/Became Instructed\s+0% \(0 of 2\)/);
    expect(before).toMatch(/Median time to first response \(office hours\)\s+No responses yet/);

    expect((await site.postForm("/admin/enquiries", { intent: "set-status", id: first, status: "instructed" })).status).toBe(200);
    const page = await signedIn("/admin/enquiries");
    const after = visibleText(page.text);
    expect(after).toMatch(/Became Instructed\s+50% \(1 of 2\)/);
    expect(after).toMatch(/Answered\s+1 of 2/);
    expect(after).not.toMatch(/Median time to first response \(office hours\)\s+No responses yet/);
    expect(page.text).toContain('href="/admin/enquiries/figures.csv"');
  });

  it("downloads the month-by-month CSV, audited, formula-safe and quoted", async () => {
    const response = await signedIn("/admin/enquiries/figures.csv");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="enquiry-figures-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...records] = response.text.replace(/^\uFEFF/, "").split("\r\n");
    expect(header).toBe(
      '"Month","Enquiries","Contact form","Valuation request","New","Contacted","Valuation booked","Instructed","Not proceeding","Instructed (%)","Answered","Median time to first response (office hours, minutes)"',
    );
    // This month's row: the two enquiries of the test before, one Instructed and answered.
    expect(records[0]).toMatch(/^"\d{4}-\d{2}","2","2","0","1","0","0","1","0","50","1","\d+"$/);
    const audited = await site.db.selectFrom("audit_log").select("actor_label").where("action", "=", "enquiry-figures-exported").execute();
    expect(audited).toHaveLength(1);
  });

  it("refuses an Editor (403) before reading anything, and audits nothing", async () => {
    const email = `editor-${randomBytes(4).toString("hex")}@example.com`;
    const admin = await createAdmin(site.db, email, "an editor's long password", TEST_ACTOR);
    await changeRole(site.db, admin.id, "editor", TEST_ACTOR);
    const cookie = await signInOverHttp(site.server, { email, password: "an editor's long password" });
    const refused = await site.get("/admin/enquiries/figures.csv", { cookie });
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain("Month");
    const audited = await site.db.selectFrom("audit_log").select("id").where("action", "=", "enquiry-figures-exported").execute();
    expect(audited).toHaveLength(1);
  });
});
