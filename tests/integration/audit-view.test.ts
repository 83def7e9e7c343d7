/**
 * The Audit log's page and its CSV over HTTP, on the built server, on each
 * backend (issue 21, decision 050): newest first in words and UK time, who
 * and from which address; filtered by person, action and UK days; a page at
 * a time by keyset, so an entry written between two pages neither repeats
 * nor hides one; Export CSV of what the filters select, in the enquiries'
 * encoding (formulas neutralised); and nothing on the page changes an entry.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIT_TEXT } from "~/admin/team-texts";
import { auditWorkDone } from "~/audit/audit.server";
import { memberActor, type Actor } from "~/audit/actor";
import { AUDIT_PAGE_SIZE } from "~/auth/audit-log.server";
import { TEST_ADMIN } from "../support/admin-http";
import { backends } from "../support/backends";
import { parseCsv } from "../support/csv";
import { visibleText } from "../support/html";
import type { RawResponse } from "../support/http";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";
import { shown } from "../support/team-http";

const ALICE = memberActor({ adminId: "00000000-0000-4000-8000-0000000a11ce", email: "alice@example.com", role: "editor" }, "198.51.100.7");
/** A member whose address a spreadsheet would run as a formula. */
const FORMULA = memberActor({ adminId: "00000000-0000-4000-8000-00000000f0f0", email: "=1+2@example.com", role: "enquiries" }, "203.0.113.9");

/** The entries' rows of the page's table, as their cells' text. */
function rowsOf(response: RawResponse): string[][] {
  const body = /<tbody[^>]*>([\s\S]*?)<\/tbody>/.exec(response.text)?.[1] ?? "";
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell]) => visibleText(cell!)),
  );
}

/** The Older entries link of a page, as the browser would follow it. */
function olderOf(response: RawResponse): string | undefined {
  const match = new RegExp(`<a[^>]*href="([^"]*)"[^>]*>${AUDIT_TEXT.older}</a>`).exec(response.text);
  return match?.[1]?.replace(/&amp;/g, "&");
}

beforeAll(() => assertBuilt());

describe.each(backends)("the Audit log over HTTP on $name", (backend) => {
  const site = useSite(backend);
  const entry = (actor: Actor, action: Parameters<typeof auditWorkDone>[1]["action"], at: string, target?: string) =>
    auditWorkDone(site.db, { actor, action, at: new Date(at), target });

  beforeAll(async () => {
    // Around midnight in London in summer (BST): 23:30 UTC is 00:30 the next day.
    await entry(ALICE, "project-created", "2026-06-30T22:30:00.000Z", "11111111-1111-4111-8111-111111111111");
    await entry(ALICE, "project-deleted", "2026-06-30T23:30:00.000Z", "11111111-1111-4111-8111-111111111111");
    await entry(ALICE, "website-published", "2026-07-01T12:00:00.000Z", "fees");
    await entry(FORMULA, "enquiry-deleted", "2026-07-01T23:30:00.000Z", "22222222-2222-4222-8222-222222222222");
  });

  it("shows the newest first, in words and UK time, with who, the record and the client address", async () => {
    const page = await site.get("/admin/team/audit", { cookie: site.cookie });
    expect(page.status).toBe(200);
    const rows = rowsOf(page);
    // The fixture's sign-in (today) comes before the entries of July.
    expect(rows[0]).toEqual([
      expect.stringMatching(/^\d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/),
      TEST_ADMIN.email,
      "Signed in",
      expect.stringContaining("Member: "),
      "",
      "127.0.0.1",
    ]);
    expect(rows[0]![3]).toBe(`Member: ${TEST_ADMIN.email}`);
    const july = rows.filter((row) => / Jul 2026| Jun 2026/.test(row[0]!));
    expect(july).toEqual([
      ["2 Jul 2026, 00:30", "=1+2@example.com", "Deleted an enquiry", "Enquiry: 22222222-2222-4222-8222-222222222222", "", "203.0.113.9"],
      ["1 Jul 2026, 13:00", "alice@example.com", "Published the website", "Website: fees", "", "198.51.100.7"],
      ["1 Jul 2026, 00:30", "alice@example.com", "Deleted a project", "Project: 11111111-1111-4111-8111-111111111111", "", "198.51.100.7"],
      ["30 Jun 2026, 23:30", "alice@example.com", "Added a project", "Project: 11111111-1111-4111-8111-111111111111", "", "198.51.100.7"],
    ]);
    expect(shown(page)).toContain(AUDIT_TEXT.kept(365));
    expect(page.text).toContain('<time dateTime="2026-07-01T12:00:00.000Z">');
  });

  it("filters by person, by action and by UK days, and says what it shows", async () => {
    const byAlice = rowsOf(await site.get(`/admin/team/audit?person=${ALICE.id}`, { cookie: site.cookie }));
    expect(byAlice.map((row) => row[2])).toEqual(["Published the website", "Deleted a project", "Added a project"]);
    const deletions = rowsOf(await site.get("/admin/team/audit?kind=project-deleted&kind=enquiry-deleted", { cookie: site.cookie }));
    expect(deletions.map((row) => row[2])).toEqual(["Deleted an enquiry", "Deleted a project"]);
    // 1 July in London: from 23:00 UTC on 30 June to 23:00 UTC on 1 July.
    const firstOfJuly = await site.get("/admin/team/audit?from=2026-07-01&to=2026-07-01", { cookie: site.cookie });
    expect(rowsOf(firstOfJuly).map((row) => row[0])).toEqual(["1 Jul 2026, 13:00", "1 Jul 2026, 00:30"]);
    expect(firstOfJuly.text).toMatch(/id="audit-from"[^>]*value="2026-07-01"|value="2026-07-01"[^>]*id="audit-from"/);
    expect(shown(firstOfJuly)).toContain(AUDIT_TEXT.filters.clear);

    const nothing = await site.get("/admin/team/audit?kind=backup-restored", { cookie: site.cookie });
    expect(rowsOf(nothing)).toEqual([]);
    expect(shown(nothing)).toContain(AUDIT_TEXT.empty);
    // What the filters do not understand is left out, never an error.
    const odd = await site.get("/admin/team/audit?person=nobody&kind=nonsense&from=yesterday&to=2026-13-45&cursor=%00%00", { cookie: site.cookie });
    expect(odd.status).toBe(200);
    expect(rowsOf(odd).length).toBeGreaterThanOrEqual(5);
  });

  it("pages by keyset: an entry written between two pages neither repeats nor hides one", async () => {
    const start = Date.parse("2026-08-01T09:00:00.000Z");
    for (let i = 0; i < AUDIT_PAGE_SIZE + 10; i++) await entry(ALICE, "file-uploaded", new Date(start + i * 60_000).toISOString(), `file-${i}.jpg`);
    const first = await site.get("/admin/team/audit?kind=file-uploaded", { cookie: site.cookie });
    const firstRows = rowsOf(first);
    expect(firstRows).toHaveLength(AUDIT_PAGE_SIZE);
    expect(firstRows[0]![3]).toBe(`File: file-${AUDIT_PAGE_SIZE + 9}.jpg`);
    const older = olderOf(first);
    expect(older).toMatch(/^\/admin\/team\/audit\?kind=file-uploaded&cursor=/);

    // A new entry arrives: with OFFSET the second page would start with one already shown.
    await entry(ALICE, "file-uploaded", new Date(start + 999 * 60_000).toISOString(), "file-new.jpg");
    const second = await site.get(older!, { cookie: site.cookie });
    const secondRows = rowsOf(second);
    expect(secondRows.map((row) => row[3])).toEqual(Array.from({ length: 10 }, (_, i) => `File: file-${9 - i}.jpg`));
    expect(olderOf(second)).toBeUndefined();
    expect(shown(second)).toContain(AUDIT_TEXT.newest);
  });

  it("exports what the filters select as CSV, formulas neutralised, newest first", async () => {
    const csv = await site.get("/admin/team/audit.csv?kind=enquiry-deleted&kind=project-deleted", { cookie: site.cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(csv.headers["cache-control"]).toMatch(/no-store/);
    expect(csv.text.startsWith("\uFEFF")).toBe(true);
    const [header, ...records] = parseCsv(csv.text.slice(1));
    expect(header).toEqual(["When (UTC)", "Who", "Member id", "Client address", "Kind", "What", "Record type", "Record", "Details"]);
    expect(records.map((record) => [record[0], record[1], record[5]])).toEqual([
      ["2026-07-01T23:30:00.000Z", "'=1+2@example.com", "Deleted an enquiry"],
      ["2026-06-30T23:30:00.000Z", "alice@example.com", "Deleted a project"],
    ]);
    // The page's Export CSV link carries the same filters.
    const page = await site.get("/admin/team/audit?kind=enquiry-deleted&from=2026-07-01", { cookie: site.cookie });
    expect(page.text).toContain('href="/admin/team/audit.csv?kind=enquiry-deleted&amp;from=2026-07-01"');
  });

  it("records who exported the log, and the export of everything holds its own entry", async () => {
    const before = await site.db.selectFrom("audit_log").select("id").where("action", "=", "audit-log-exported").execute();
    const csv = await site.get("/admin/team/audit.csv", { cookie: site.cookie });
    expect(csv.status).toBe(200);
    const exported = await site.db
      .selectFrom("audit_log")
      .select(["actor_label", "target_id", "target_type"])
      .where("action", "=", "audit-log-exported")
      .orderBy("id")
      .execute();
    expect(exported).toHaveLength(before.length + 1);
    expect(exported.at(-1)).toEqual({ actor_label: TEST_ADMIN.email, target_id: "audit-log", target_type: "team" });
    const [, newest] = parseCsv(csv.text.slice(1));
    expect([newest![1], newest![5]]).toEqual([TEST_ADMIN.email, "Exported the audit log as CSV"]);
  });

  it("offers nothing that changes an entry: no form posts there, and a POST is refused", async () => {
    const page = await site.get("/admin/team/audit", { cookie: site.cookie });
    const posting = [...page.text.matchAll(/<form[^>]*method="post"[^>]*>/g)].map(([form]) => form);
    expect(posting.every((form) => form.includes('action="/admin/sign-out"'))).toBe(true);
    const before = await site.db.selectFrom("audit_log").select("id").orderBy("id").execute();
    const post = await site.postForm("/admin/team/audit", { intent: "delete", id: String(before[0]!.id) });
    expect(post.status).toBe(405);
    expect((await site.db.selectFrom("audit_log").select("id").orderBy("id").execute()).slice(0, before.length)).toEqual(before);
  });
});
