/**
 * The inbox's counts kept by the database (migration 022, decision 063), on
 * both databases: after every kind of change that moves an enquiry between
 * the tabs, statuses and assignees (the contact form's insert, alone and in
 * grouped commits, held in a flood or marked, read and unread one by one and
 * in bulk, Spam and Not spam, a status, an assignment, a delete, a UK GDPR
 * erasure, the retention rule, a member leaving the team, a rolled-back
 * transaction, hand-written SQL), the counters are exactly what a fresh
 * count(*) gives, and the inbox's counts are read from them. On PostgreSQL,
 * concurrent changes wait for nobody's counter, and the reader folds the
 * triggers' rows without changing a count.
 */
import { randomBytes } from "node:crypto";
import { sql, type Insertable } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { createAdmin } from "~/auth/admins.server";
import { assignEnquiry } from "~/enquiries/assignment.server";
import { eraseDataHeld } from "~/enquiries/data-requests.server";
import { insertEnquiry, saveEnquiry, type SaveEnquiryOptions } from "~/enquiries/enquiries.server";
import {
  countByStatus,
  countSubmissions,
  listSubmissions,
  markNotSpam,
  markSpam,
  setEnquiryStatus,
  setSubmissionRead,
  setSubmissionsRead,
  deleteSubmissions,
} from "~/enquiries/inbox.server";
import { deleteExpiredEnquiries } from "~/enquiries/retention.server";
import { migrateToLatest, type Db } from "~/platform/db/db.server";
import { groupCommits } from "~/platform/db/group-commit.server";
import type { ContactSubmissionTable } from "~/platform/db/schema";
import { TEST_ACTOR } from "../support/actors";
import { backends } from "../support/backends";
import { freshCounts, keptCounts } from "../support/enquiry-counts";
import { NO_MAIL, filedAsSpam, valuationDetails } from "../support/enquiries";
import { useDatabase, useDatabaseBefore } from "../support/sites";

const FLOOD = { flood: { siteLimit: 100, reviewUrl: undefined } } as const;

function enquiryOf(name: string) {
  return {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
    phone: undefined,
    userType: "landlord" as const,
    message: `Words of ${name}.`,
  };
}

async function enquiry(db: Db, name: string, options: Partial<SaveEnquiryOptions> = {}): Promise<string> {
  return (await saveEnquiry(db, enquiryOf(name), { ...NO_MAIL, ...options })).id;
}

describe.each(backends)("the inbox's counts kept by $name", (backend) => {
  const data = useDatabase(backend);
  beforeEach(async () => {
    await data.db.deleteFrom("email_outbox").execute();
    await data.db.deleteFrom("contact_submissions").execute();
  });

  /** The counters and a fresh count agree, and the inbox's counts (read from the counters) say the same as the rows. */
  async function expectExact(step: string) {
    const fresh = await freshCounts(data.db);
    expect(await keptCounts(data.db), step).toEqual(fresh);
  }

  async function member(): Promise<string> {
    return (await createAdmin(data.db, `member-${randomBytes(4).toString("hex")}@example.com`, "a member's long password", TEST_ACTOR)).id;
  }

  it("stay exactly a fresh count(*) through every kind of change", async () => {
    const [anna, bob] = [await member(), await member()];
    const ids = {
      clean: await Promise.all(["Ada One", "Ben Two", "Cy Three", "Di Four", "Ed Five"].map((name) => enquiry(data.db, name))),
      possible: await enquiry(data.db, "Pat Possible", { verdict: { kind: "possible-spam", signals: ["too-fast"] } }),
      spam: await enquiry(data.db, "Sam Spam", { verdict: filedAsSpam("links") }),
      held: await enquiry(data.db, "Hal Held", FLOOD),
      heldMarked: await enquiry(data.db, "Hil Held", { ...FLOOD, verdict: { kind: "possible-spam", signals: ["too-fast"] } }),
      valuation: (await saveEnquiry(data.db, { ...enquiryOf("Val Uation"), valuation: valuationDetails() }, NO_MAIL)).id,
    };
    await expectExact("inserted by the contact form's path");
    expect(await countSubmissions(data.db)).toEqual({ all: 7, unread: 7, read: 0, held: 2, spam: 1 });

    // Grouped commits: the piece that fails takes its count with it.
    const transactions = groupCommits(data.db);
    const grouped = await Promise.allSettled(
      ["Gus Grouped", "Failing Piece", "Gil Grouped"].map((name) =>
        transactions.run(async (trx) => {
          const inserted = await insertEnquiry(trx, enquiryOf(name), NO_MAIL);
          if (name === "Failing Piece") throw new Error("this piece's own fault");
          return inserted.id;
        }),
      ),
    );
    expect(grouped.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    await expectExact("inserted in grouped commits");
    expect(await countSubmissions(data.db)).toMatchObject({ all: 9, unread: 9 });

    expect(await setSubmissionsRead(data.db, ids.clean.slice(0, 3), true, TEST_ACTOR)).toBe(3);
    expect(await setSubmissionRead(data.db, ids.clean[0]!, false, TEST_ACTOR)).toBe(true);
    expect(await setSubmissionRead(data.db, ids.possible, true, TEST_ACTOR)).toBe(true);
    await expectExact("read and unread");

    expect(await markNotSpam(data.db, ids.spam, TEST_ACTOR)).toBe("moved");
    expect(await markNotSpam(data.db, ids.held, TEST_ACTOR)).toBe("released");
    expect(await markNotSpam(data.db, ids.possible, TEST_ACTOR)).toBe("unmarked");
    expect(await markSpam(data.db, ids.clean[4]!, TEST_ACTOR)).toBe(true);
    await expectExact("spam and not spam");

    expect(await setEnquiryStatus(data.db, ids.clean[1]!, { status: "contacted" }, TEST_ACTOR)).toBe(true);
    expect(await setEnquiryStatus(data.db, ids.clean[2]!, { status: "not-proceeding", reason: "Sold" }, TEST_ACTOR)).toBe(true);
    expect(await setEnquiryStatus(data.db, ids.valuation, { status: "instructed" }, TEST_ACTOR)).toBe(true);
    expect(await setEnquiryStatus(data.db, ids.heldMarked, { status: "instructed" }, TEST_ACTOR)).toBe(true);
    await expectExact("statuses");

    for (const [id, assigneeId] of [
      [ids.clean[1]!, anna],
      [ids.clean[2]!, anna],
      [ids.valuation, bob],
      [ids.heldMarked, bob],
      [ids.clean[2]!, bob],
      [ids.clean[3]!, anna],
      [ids.clean[3]!, null],
    ] as const) {
      expect(await assignEnquiry(data.db, { id, assigneeId }, TEST_ACTOR, undefined)).toMatch(/^(un)?assigned$/);
    }
    await expectExact("assignments");
    expect(await countSubmissions(data.db, { assignee: { member: bob } })).toEqual({ all: 2, unread: 1, read: 1, held: 1, spam: 0 });
    expect(await countSubmissions(data.db, { assignee: { member: anna } })).toEqual({ all: 1, unread: 0, read: 1, held: 0, spam: 0 });
    expect(await countByStatus(data.db, { filter: "all", assignee: { member: bob } })).toMatchObject({ instructed: 1, "not-proceeding": 1, new: 0 });

    // A change rolled back changes no count.
    await expect(
      data.db.transaction().execute(async (trx) => {
        await trx.updateTable("contact_submissions").set({ is_read: true, status: "contacted", assigned_to: null }).execute();
        throw new Error("undone");
      }),
    ).rejects.toThrow("undone");
    await expectExact("rolled back");

    // Hand-written SQL over many rows at once, as an operator might.
    await data.db.updateTable("contact_submissions").set({ status: "contacted" }).where("status", "=", "new").execute();
    await sql`update contact_submissions set spam_signals = 'flood+links' where name = 'Ada One'`.execute(data.db);
    await expectExact("hand-written SQL");

    expect(await deleteSubmissions(data.db, [ids.clean[0]!, ids.spam], TEST_ACTOR)).toBe(2);
    expect((await eraseDataHeld(data.db, "Di.Four@example.com", TEST_ACTOR)).submissions).toBe(1);
    await data.db.updateTable("contact_submissions").set({ created_at: "2020-01-01T00:00:00.000Z" }).where("id", "=", ids.held).execute();
    expect(await deleteExpiredEnquiries(data.db, 365, new Date())).toBe(1);
    await expectExact("deleted, erased, expired");

    // Anna leaves the team: her enquiries are nobody's (the foreign key's SET NULL moves them too).
    await data.db.deleteFrom("admin_users").where("id", "=", anna).execute();
    await expectExact("a member left");
    expect(await countSubmissions(data.db, { assignee: { member: anna } })).toEqual({ all: 0, unread: 0, read: 0, held: 0, spam: 0 });
    const everyone = await countSubmissions(data.db);
    const byAssignee = [await countSubmissions(data.db, { assignee: "unassigned" }), await countSubmissions(data.db, { assignee: { member: bob } })];
    for (const tab of ["all", "unread", "read", "held", "spam"] as const) expect(byAssignee[0]![tab] + byAssignee[1]![tab], tab).toBe(everyone[tab]);

    await data.db.deleteFrom("email_outbox").execute();
    await data.db.deleteFrom("contact_submissions").execute();
    await expectExact("all gone");
    expect(await countSubmissions(data.db)).toEqual({ all: 0, unread: 0, read: 0, held: 0, spam: 0 });
  });

  it("answer the views without a search from the counters, and a search or Due from the rows, alike", async () => {
    const anna = await member();
    const names = ["Kay One", "Lee Two", "May Three", "Ned Four"];
    const ids = await Promise.all(names.map((name) => enquiry(data.db, name)));
    await setSubmissionsRead(data.db, ids.slice(0, 2), true, TEST_ACTOR);
    await setEnquiryStatus(data.db, ids[1]!, { status: "instructed" }, TEST_ACTOR);
    await assignEnquiry(data.db, { id: ids[1]!, assigneeId: anna }, TEST_ACTOR, undefined);
    await data.db.updateTable("contact_submissions").set({ follow_up_on: "2026-01-01" }).execute();
    for (const assignee of [undefined, "unassigned" as const, { member: anna }]) {
      const narrow = assignee === undefined ? {} : { assignee };
      const counted = await listSubmissions(data.db, { filter: "all", ...narrow });
      // Due with every enquiry due, and a search every enquiry matches ("words of"), count the rows: the same numbers.
      for (const rows of [{ dueBy: "2026-12-31" }, { search: "words of" }]) {
        const fromRows = await listSubmissions(data.db, { filter: "all", ...narrow, ...rows });
        expect(fromRows.counts).toEqual(counted.counts);
        expect(fromRows.statusCounts).toEqual(counted.statusCounts);
      }
    }
    expect((await listSubmissions(data.db, { filter: "read", status: "instructed" })).counts).toEqual({ all: 1, unread: 0, read: 1, held: 0, spam: 0 });
  });
});

describe.each(backends.filter((backend) => backend.name === "postgres"))("the counts kept by $name under concurrent writers", (backend) => {
  const data = useDatabase(backend);
  beforeEach(async () => {
    await data.db.deleteFrom("email_outbox").execute();
    await data.db.deleteFrom("contact_submissions").execute();
  });
  const expectExact = async (step: string) => expect(await keptCounts(data.db), step).toEqual(await freshCounts(data.db));

  it("lets concurrent changes through without waiting on a counter, and folds the rows they add", async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, (_, n) => enquiry(data.db, `Con Current${n}`)));
    await setSubmissionsRead(data.db, ids.slice(20), true, TEST_ACTOR);
    // A transaction holds its changes of both groups (unread → read) open while other connections move enquiries the other way and add one: they finish first.
    const elsewhere = await data.db.transaction().execute(async (trx) => {
      await setSubmissionsRead(trx, ids.slice(0, 5), true, TEST_ACTOR);
      const others = Promise.all([
        setSubmissionsRead(data.db, ids.slice(20, 25), false, TEST_ACTOR),
        setEnquiryStatus(data.db, ids[30]!, { status: "contacted" }, TEST_ACTOR),
        enquiry(data.db, "Late Comer"),
      ]);
      const waited = new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 5_000).unref());
      return Promise.race([others.then(() => "done" as const), waited]);
    });
    expect(elsewhere, "the other connections' changes did not wait for the open transaction").toBe("done");
    await expectExact("changes side by side");
    // Many transactions at once, each moving its own enquiries one way or the other between the same groups.
    await Promise.all(
      Array.from({ length: 12 }, (_, round) =>
        Promise.all([
          setSubmissionsRead(data.db, ids.slice(round * 3, round * 3 + 3), round % 2 === 0, TEST_ACTOR),
          setEnquiryStatus(data.db, ids[39 - round]!, { status: "contacted" }, TEST_ACTOR),
          enquiry(data.db, `Late Comer${round}`),
        ]),
      ),
    );
    await expectExact("concurrent changes");
    // Many statements each leave a row; the next read folds them into one per group and counts the same.
    for (let round = 0; round < 300; round++) await setSubmissionRead(data.db, ids[Math.floor(round / 2) % 40]!, round % 2 === 0, TEST_ACTOR);
    const before = await keptCounts(data.db);
    const rowsBefore = Number((await sql<{ n: string }>`select count(*) as n from enquiry_counts`.execute(data.db)).rows[0]!.n);
    expect(rowsBefore).toBeGreaterThan(500);
    const counts = await countSubmissions(data.db);
    const rowsAfter = Number((await sql<{ n: string }>`select count(*) as n from enquiry_counts`.execute(data.db)).rows[0]!.n);
    expect(rowsAfter).toBeLessThan(20);
    expect(await keptCounts(data.db)).toEqual(before);
    await expectExact("folded");
    expect(counts.all).toBe(53);
  });
});

describe.each(backends)("migration 022 on $name", (backend) => {
  const database = useDatabaseBefore(backend, "022");

  it("counts the enquiries already there, and keeps counting from then on", async () => {
    const at = "2026-11-20T10:00:00.000Z";
    const member = { id: "m1", email: "m1@example.com", password_hash: "$argon2id$x", role: "owner" as const, created_at: at, updated_at: at };
    await database.db.insertInto("admin_users").values(member).execute();
    const row = (n: number, set: Partial<Insertable<ContactSubmissionTable>>): Insertable<ContactSubmissionTable> => ({
      id: `e${n}`,
      name: `Enquirer ${n}`,
      email: `e${n}@example.com`,
      user_type: "landlord",
      message: "Written before 022.",
      is_read: false,
      created_at: at,
      status: "new",
      spam_reason: null,
      spam_signals: null,
      assigned_to: null,
      ...set,
    });
    await database.db
      .insertInto("contact_submissions")
      .values([
        row(1, {}),
        row(2, { is_read: true, status: "instructed", assigned_to: "m1" }),
        row(3, { spam_reason: "links" }),
        row(4, { spam_signals: "too-fast+flood" }),
        row(5, { spam_signals: "too-fast", assigned_to: "m1" }),
        row(6, { is_read: true }),
      ])
      .execute();
    await migrateToLatest(database);
    expect(await keptCounts(database.db)).toEqual(await freshCounts(database.db));
    expect(await countSubmissions(database.db)).toEqual({ all: 4, unread: 2, read: 2, held: 1, spam: 1 });
    expect(await countSubmissions(database.db, { assignee: { member: "m1" } })).toEqual({ all: 2, unread: 1, read: 1, held: 0, spam: 0 });
    await database.db.updateTable("contact_submissions").set({ is_read: true }).where("id", "=", "e1").execute();
    expect(await keptCounts(database.db)).toEqual(await freshCounts(database.db));
    expect(await countSubmissions(database.db)).toMatchObject({ unread: 1, read: 3 });
  });
});
