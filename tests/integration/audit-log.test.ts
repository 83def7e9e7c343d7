/**
 * The audit log at module level, on each backend (issue 21): every change of
 * the back office writes its entry in its own transaction (a change that
 * fails leaves none; an entry that cannot be written takes its change down),
 * nothing free-form gets in, and the owner's view filters, pages and exports
 * it; retention is its only deletion.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit, auditEach } from "~/audit/audit.server";
import { cliActor, memberActor, systemActor, type Actor } from "~/audit/actor";
import { AUDIT_KIND_NAMES, type AuditKind } from "~/audit/kinds";
import { createAdmin } from "~/auth/admins.server";
import { auditCsvStream, deleteExpiredAuditEntries, listAuditEntries, listAuditPeople, startAuditRetention } from "~/auth/audit-log.server";
import { parseAuditQuery } from "~/auth/audit-query";
import { findSession, signOut } from "~/auth/sessions.server";
import { signIn } from "~/auth/sign-in.server";
import { changeRole } from "~/auth/team.server";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { enquiriesCsvStream } from "~/enquiries/csv";
import { eraseDataHeld, exportDataHeld } from "~/enquiries/data-requests.server";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { openEnquiriesExport } from "~/enquiries/export.server";
import { deleteSubmission, deleteSubmissions, markNotSpam, markSpam, setSubmissionRead, setSubmissionsRead } from "~/enquiries/inbox.server";
import { retryNotification } from "~/enquiries/outbox.server";
import { deleteExpiredEnquiries } from "~/enquiries/retention.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { saveImage } from "~/images/images.server";
import { dialectOf, migrateToLatest, type Database } from "~/platform/db/db.server";
import { snapshotReads } from "~/platform/db/snapshot-read.server";
import { plainLog } from "~/platform/observe/log.server";
import { LocalDiskStorage } from "~/platform/storage/storage.server";
import { inTransaction, type Trx } from "~/platform/db/transactions.server";
import { createProject, deleteProject, moveProject, setProjectActive, updateProject } from "~/projects/projects.server";
import { siteDefaults, type SiteContent } from "~/website/content";
import { cancelSchedule, publishDue, schedulePublish } from "~/website/schedule.server";
import { discardDraft, publishDraft, readDraft, restoreVersion, saveDraft } from "~/website/website.server";
import { TEST_ACTOR } from "../support/actors";
import { backends, type TestDatabase } from "../support/backends";
import { parseCsv } from "../support/csv";
import { twoToneJpeg } from "../support/images";

const DEFAULTS = siteDefaults();
const PASSWORD = "the owner's long password";
const MESSAGE = "My flat's boiler code is 4242, please call";
const MAIL = { from: "Site <site@example.com>", notifyTo: ["office@example.com"] };

const project = (title: string) => ({
  title,
  category: "Kitchen",
  description: "A new kitchen.",
  duration: "2 weeks",
  budget: "£5,000",
  before_image_url: "/images/before.jpg",
  after_image_url: "/images/after.jpg",
});

describe.each(backends)("the audit log on $name", (backend) => {
  let testDb: TestDatabase;
  let database: Database;
  let imagesDir: string;

  beforeAll(async () => {
    testDb = await backend.createDatabase();
    database = testDb.open();
    await migrateToLatest(database);
    imagesDir = await mkdtemp(path.join(tmpdir(), "audit-images-"));
  });
  afterAll(async () => {
    await testDb.cleanup();
    await rm(imagesDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    for (const table of [
      "audit_log",
      "email_outbox",
      "contact_submissions",
      "renovation_projects",
      "images",
      "site_versions",
      "site_draft",
      "site_schedule",
      "admin_sessions",
      "rate_limit_events",
      "admin_users",
      "job_runs",
    ] as const) {
      await database.db.deleteFrom(table).execute();
    }
  });

  const db = () => database.db;

  async function actions(): Promise<AuditKind[]> {
    return (await db().selectFrom("audit_log").select("action").orderBy("id").execute()).map((row) => row.action as AuditKind);
  }

  /** A trigger that makes every `event` on `table` fail, as a full disk or a broken constraint would; returns its removal. */
  async function refuse(table: "audit_log" | "email_outbox", event: "insert" | "delete"): Promise<() => Promise<void>> {
    if (dialectOf(db()) === "postgres") {
      await sql`create or replace function test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(
        db(),
      );
      await sql`create trigger test_refuse before ${sql.raw(event)} on ${sql.table(table)} for each row execute function test_refuse()`.execute(db());
      return async () => void (await sql`drop trigger test_refuse on ${sql.table(table)}`.execute(db()));
    }
    await sql`create trigger test_refuse before ${sql.raw(event)} on ${sql.table(table)} begin select raise(abort, 'refused by the test'); end`.execute(db());
    return async () => void (await sql`drop trigger test_refuse`.execute(db()));
  }

  async function storeEnquiry(message = MESSAGE): Promise<string> {
    return (
      await saveEnquiry(
        db(),
        { name: "Ada Lovelace", email: "ada@example.org", phone: undefined, userType: "landlord", message },
        { mail: MAIL, company: PLACEHOLDER_COMPANY },
      )
    ).id;
  }

  describe("written in the change's own transaction", () => {
    it("rolls the change back when its entry cannot be written", async () => {
      const enquiry = await storeEnquiry();
      const removeTrigger = await refuse("audit_log", "insert");
      try {
        await expect(createProject(db(), project("Never"), TEST_ACTOR)).rejects.toThrow(/refused by the test/);
        await expect(deleteSubmission(db(), enquiry, TEST_ACTOR)).rejects.toThrow(/refused by the test/);
        await expect(setSubmissionRead(db(), enquiry, true, TEST_ACTOR)).rejects.toThrow(/refused by the test/);
        const draft = await readDraft(db(), DEFAULTS);
        const content: SiteContent = { ...draft.content, company: { ...draft.content.company, name: "Never Ltd" } };
        await expect(
          saveDraft(db(), { content, defaults: DEFAULTS, baseRevision: draft.revision, by: "x", actor: TEST_ACTOR, now: new Date() }),
        ).rejects.toThrow(/refused by the test/);
      } finally {
        await removeTrigger();
      }
      expect(await db().selectFrom("renovation_projects").selectAll().execute()).toEqual([]);
      expect(await db().selectFrom("contact_submissions").select(["id", "is_read"]).execute()).toEqual([
        { id: enquiry, is_read: backend.name === "postgres" ? false : 0 },
      ]);
      expect((await readDraft(db(), DEFAULTS)).revision).toBe(0);
      expect(await actions()).toEqual([]);
    });

    it("leaves no entry for a change that fails after its entry was written", async () => {
      const enquiry = await storeEnquiry();
      // Deleting an enquiry writes its entries, then deletes its e-mail jobs: make that last step fail.
      const removeTrigger = await refuse("email_outbox", "delete");
      try {
        await expect(deleteSubmissions(db(), [enquiry], TEST_ACTOR)).rejects.toThrow(/refused by the test/);
      } finally {
        await removeTrigger();
      }
      expect(await db().selectFrom("contact_submissions").select("id").execute()).toEqual([{ id: enquiry }]);
      expect(await actions()).toEqual([]);
    });

    it("leaves no entry for a change refused (stale, not found) and writes one for the change that goes through", async () => {
      const draft = await readDraft(db(), DEFAULTS);
      const content: SiteContent = { ...draft.content, company: { ...draft.content.company, name: "Fresh Ltd" } };
      expect(await saveDraft(db(), { content, defaults: DEFAULTS, baseRevision: draft.revision + 5, by: "x", actor: TEST_ACTOR, now: new Date() })).toEqual({
        ok: false,
        reason: "stale",
      });
      expect(await setProjectActive(db(), "00000000-0000-4000-8000-000000000000", false, TEST_ACTOR)).toBe(false);
      expect(await markSpam(db(), "00000000-0000-4000-8000-000000000000", TEST_ACTOR)).toBe(false);
      expect(await actions()).toEqual([]);
      expect(
        (await saveDraft(db(), { content, defaults: DEFAULTS, section: "company", baseRevision: draft.revision, by: "x", actor: TEST_ACTOR, now: new Date() }))
          .ok,
      ).toBe(true);
      expect(await db().selectFrom("audit_log").select(["action", "target_id"]).execute()).toEqual([{ action: "website-saved", target_id: "company" }]);
    });

    it("cannot be written outside a transaction, nor with free text in it", async () => {
      const entry = { actor: TEST_ACTOR, action: "enquiry-deleted" as const };
      await expect(audit(db() as unknown as Trx, entry)).rejects.toThrow("An audit entry is written in its change's transaction.");
      await expect(inTransaction(db(), (trx) => audit(trx, { ...entry, target: "Dear agent, my message" }))).rejects.toThrow(/must be an id/);
      const sneaky = { count: 1, message: MESSAGE } as unknown as { count: number };
      await expect(inTransaction(db(), (trx) => audit(trx, { ...entry, details: sneaky }))).rejects.toThrow('does not take the detail "message"');
      await expect(inTransaction(db(), (trx) => audit(trx, { ...entry, details: { count: "3" as unknown as number } }))).rejects.toThrow('"count"');
      expect(await actions()).toEqual([]);
    });
  });

  it("records every kind of back-office change, by whom, from where, and never an enquiry's words, a password or a token", async () => {
    const storage = new LocalDiskStorage(imagesDir, IMAGE_NAMING);
    const log = plainLog(() => {});
    const owner = await createAdmin(db(), "owner@example.com", PASSWORD, cliActor("create"));
    const editorAccount = await createAdmin(db(), "editor@example.com", PASSWORD, cliActor("create"));
    expect((await changeRole(db(), editorAccount.id, "editor", cliActor("create"))).ok).toBe(true);

    // Signing in and out.
    const attempt = { email: "owner@example.com", limit: 100, log };
    expect((await signIn(db(), { ...attempt, password: "not the password", clientIp: "198.51.100.1" })).ok).toBe(false);
    expect((await signIn(db(), { ...attempt, email: "nobody@example.com", password: PASSWORD, clientIp: "198.51.100.2" })).ok).toBe(false);
    const signedIn = await signIn(db(), { ...attempt, password: PASSWORD, clientIp: "198.51.100.3" });
    if (!signedIn.ok) throw new Error("not signed in");
    const session = (await findSession(db(), signedIn.token))!;
    const me: Actor = memberActor(session, "198.51.100.3");

    // Projects and images.
    const image = await saveImage({ db: db(), storage }, await twoToneJpeg(64, 48), me);
    const created = await createProject(db(), { ...project("Loft"), before_image_url: image.url }, me);
    await createProject(db(), project("Garden"), me);
    await updateProject(db(), created.id, { ...project("Loft conversion"), before_image_url: image.url }, me);
    await setProjectActive(db(), created.id, false, me);
    await setProjectActive(db(), created.id, true, me);
    await moveProject(db(), created.id, "down", me);
    await deleteProject(db(), created.id, me);

    // The website.
    const draft = await readDraft(db(), DEFAULTS);
    const renamed: SiteContent = { ...draft.content, company: { ...draft.content.company, name: "Audited Lettings Ltd" } };
    const change = { defaults: DEFAULTS, by: "owner@example.com", actor: me, now: new Date() };
    expect((await saveDraft(db(), { ...change, content: renamed, section: "company", baseRevision: draft.revision })).ok).toBe(true);
    expect((await publishDraft(db(), { ...change, baseRevision: draft.revision + 1 })).ok).toBe(true);
    const again = await readDraft(db(), DEFAULTS);
    expect(
      (await saveDraft(db(), { ...change, content: { ...renamed, company: { ...renamed.company, name: "Other Ltd" } }, baseRevision: again.revision })).ok,
    ).toBe(true);
    expect((await discardDraft(db(), { ...change, baseRevision: again.revision + 1 })).ok).toBe(true);
    const publishAt = new Date(Date.now() + 60_000);
    expect(await schedulePublish(db(), { ...change, baseRevision: again.revision + 2, publishAt })).toEqual({ ok: true });
    expect(await cancelSchedule(db(), { defaults: DEFAULTS, actor: me })).toBe(true);
    expect(await schedulePublish(db(), { ...change, baseRevision: again.revision + 2, publishAt })).toEqual({ ok: true });
    expect(await publishDue(db(), new Date(publishAt.getTime() + 1))).toBe(2);
    expect((await restoreVersion(db(), { ...change, number: 1, baseRevision: again.revision + 2 })).ok).toBe(true);

    // Enquiries.
    const [first, second, third] = [await storeEnquiry(), await storeEnquiry("Another message"), await storeEnquiry("A third")];
    await setSubmissionRead(db(), first, true, me);
    await setSubmissionRead(db(), first, false, me);
    expect(await setSubmissionsRead(db(), [first, second], true, me)).toBe(2);
    expect(await markSpam(db(), second, me)).toBe(true);
    expect(await markNotSpam(db(), second, me)).toBe("moved");
    await db().updateTable("email_outbox").set({ status: "failed" }).where("submission_id", "=", third).execute();
    expect(await retryNotification(db(), third, me)).toBe(true);
    const exported = await openEnquiriesExport(db(), snapshotReads(database), { filter: "all", search: "boiler" }, me);
    const file = await new Response(
      enquiriesCsvStream(exported, "all", (error) => {
        throw error;
      }),
    ).text();
    // The file's records after its header; the message is the sixth field.
    expect(
      parseCsv(file.replace(/^\uFEFF/, ""))
        .slice(1)
        .map((record) => record[5]),
    ).toEqual([MESSAGE]);
    expect((await exportDataHeld(db(), "ada@example.org", new Date(), me)).submissions).toHaveLength(3);
    expect(await deleteSubmission(db(), third, me)).toBe(true);
    expect((await eraseDataHeld(db(), "ADA@example.org", me)).submissions).toBe(2);
    await storeEnquiry("Old one");
    await db().updateTable("contact_submissions").set({ created_at: "2020-01-01T00:00:00.000Z" }).execute();
    expect(await deleteExpiredEnquiries(db(), 30, new Date())).toBe(1);

    await signOut(db(), session, "198.51.100.3");

    expect(await actions()).toEqual([
      "member-created",
      "member-created",
      "role-changed",
      "sign-in-failed",
      "sign-in-failed",
      "sign-in",
      "file-uploaded",
      "project-created",
      "project-created",
      "project-updated",
      "project-hidden",
      "project-shown",
      "project-moved",
      "project-deleted",
      "website-saved",
      "website-published",
      "website-saved",
      "website-discarded",
      "website-scheduled",
      "website-schedule-cancelled",
      "website-scheduled",
      "website-published",
      "website-restored",
      "enquiry-marked-read",
      "enquiry-marked-unread",
      "enquiry-marked-read",
      "enquiry-marked-read",
      "enquiry-marked-spam",
      "enquiry-marked-not-spam",
      "notification-retried",
      "enquiries-exported",
      "data-exported",
      "enquiry-deleted",
      "data-erased",
      "enquiries-expired",
      "sign-out",
    ]);

    const rows = await db().selectFrom("audit_log").selectAll().orderBy("id").execute();
    const byAction = (action: AuditKind) => rows.filter((row) => row.action === action);
    expect(byAction("sign-in-failed").map(({ actor_type, actor_id, ip, target_id, details }) => ({ actor_type, actor_id, ip, target_id, details }))).toEqual([
      { actor_type: "visitor", actor_id: null, ip: "198.51.100.1", target_id: owner.id, details: JSON.stringify({ failure: "wrong-password" }) },
      { actor_type: "visitor", actor_id: null, ip: "198.51.100.2", target_id: null, details: JSON.stringify({ failure: "no-such-member" }) },
    ]);
    expect(byAction("sign-in")[0]).toMatchObject({ actor_type: "member", actor_id: owner.id, actor_label: "owner@example.com", ip: "198.51.100.3" });
    expect(byAction("website-published").map((row) => row.actor_label)).toEqual(["owner@example.com", "the server (scheduled publish)"]);
    expect(byAction("enquiries-exported")[0]).toMatchObject({ target_id: "all", details: JSON.stringify({ searched: true, count: 1 }) });
    expect(byAction("data-erased")[0]).toMatchObject({ target_id: null, details: JSON.stringify({ count: 2 }) });
    expect(byAction("enquiries-expired")[0]).toMatchObject({
      actor_type: "system",
      actor_label: "the server (enquiry retention)",
      details: JSON.stringify({ count: 1 }),
    });
    expect(byAction("file-uploaded")[0]).toMatchObject({ target_id: image.name });

    const everything = JSON.stringify(rows);
    for (const secret of [MESSAGE, "boiler", "ada@example.org", PASSWORD, signedIn.token, "nobody@example.com"]) expect(everything).not.toContain(secret);
    // Every kind the log knows is one a change can write: none is dead.
    expect(new Set(AUDIT_KIND_NAMES).size).toBe(AUDIT_KIND_NAMES.length);
  });

  it("records a sign-in lockout against the account", async () => {
    const owner = await createAdmin(db(), "owner@example.com", PASSWORD, cliActor("create"));
    const log = plainLog(() => {});
    for (let i = 0; i < 10; i++) await signIn(db(), { email: "owner@example.com", password: "wrong guess", clientIp: `198.51.100.${i}`, limit: 100, log });
    const locked = await db().selectFrom("audit_log").select(["actor_type", "ip", "target_id"]).where("action", "=", "sign-in-locked").execute();
    expect(locked).toEqual([{ actor_type: "visitor", ip: "198.51.100.9", target_id: owner.id }]);
  });

  describe("the owner's view", () => {
    const ada = memberActor({ adminId: "11111111-1111-4111-8111-111111111111", email: "ada@example.com", role: "owner" }, "192.0.2.1");
    const bob = memberActor({ adminId: "22222222-2222-4222-8222-222222222222", email: "bob@example.com", role: "editor" }, "192.0.2.2");

    async function write(actor: Actor, action: AuditKind, at: string, target?: string) {
      await inTransaction(db(), (trx) => audit(trx, { actor, action, target, at: new Date(at) }));
    }

    beforeEach(async () => {
      await write(ada, "sign-in", "2026-11-01T09:00:00.000Z", ada.id);
      await write(bob, "project-created", "2026-11-01T10:00:00.000Z", "33333333-3333-4333-8333-333333333333");
      // Midnight in London on 2 November is still 1 November in UTC during summer time; in November London is on UTC.
      await write(ada, "role-changed", "2026-11-02T00:30:00.000Z", bob.id);
      await write(systemActor("enquiry retention"), "enquiries-expired", "2026-11-02T03:00:00.000Z");
      await write(bob, "website-saved", "2026-11-03T12:00:00.000Z", "fees");
      await write({ kind: "visitor", ip: "203.0.113.5" }, "sign-in-failed", "2026-11-03T13:00:00.000Z", bob.id);
    });

    const labels = (page: { entries: Array<{ action: string }> }) => page.entries.map((entry) => entry.action);

    it("lists newest first, by person (what they did and what was done to their account), kind and UK day", async () => {
      expect(labels(await listAuditEntries(db(), {}))).toEqual([
        "sign-in-failed",
        "website-saved",
        "enquiries-expired",
        "role-changed",
        "project-created",
        "sign-in",
      ]);
      expect(labels(await listAuditEntries(db(), { personId: bob.id }))).toEqual(["sign-in-failed", "website-saved", "role-changed", "project-created"]);
      expect(labels(await listAuditEntries(db(), { kinds: ["sign-in", "sign-in-failed"] }))).toEqual(["sign-in-failed", "sign-in"]);
      const query = parseAuditQuery(new URLSearchParams("from=2026-11-02&to=2026-11-02&kind=nonsense&person=not-an-id"));
      expect(query).toEqual({ personId: undefined, kinds: undefined, from: new Date("2026-11-02T00:00:00.000Z"), until: new Date("2026-11-03T00:00:00.000Z") });
      expect(labels(await listAuditEntries(db(), query))).toEqual(["enquiries-expired", "role-changed"]);
      // A summer day starts at 23:00 UTC the evening before.
      expect(parseAuditQuery(new URLSearchParams("from=2026-07-01")).from).toEqual(new Date("2026-06-30T23:00:00.000Z"));

      const [newest] = (await listAuditEntries(db(), {})).entries;
      expect(newest).toMatchObject({
        actor: { type: "visitor", id: null, label: "not signed in" },
        ip: "203.0.113.5",
        actionLabel: "Sign-in failed",
        targetType: "member",
        target: bob.id,
      });
      expect(await listAuditPeople(db())).toEqual([
        { id: ada.id, email: "ada@example.com" },
        { id: bob.id, email: "bob@example.com" },
      ]);
    });

    it("pages by keyset: no entry twice or missed while new ones arrive", async () => {
      const first = await listAuditEntries(db(), {}, { limit: 4 });
      expect(labels(first)).toEqual(["sign-in-failed", "website-saved", "enquiries-expired", "role-changed"]);
      await write(ada, "sign-out", "2026-11-04T08:00:00.000Z", ada.id);
      const second = await listAuditEntries(db(), {}, { cursor: first.nextCursor, limit: 4 });
      expect(labels(second)).toEqual(["project-created", "sign-in"]);
      expect(second.nextCursor).toBeUndefined();
      // Same instant, several entries (a bulk action): the id keeps them apart.
      await inTransaction(db(), (trx) =>
        auditEach(trx, { actor: ada, action: "enquiry-deleted", at: new Date("2026-11-05T09:00:00.000Z") }, ["a1", "a2", "a3"]),
      );
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listAuditEntries(db(), {}, { cursor, limit: 2 });
        seen.push(...page.entries.map((entry) => `${entry.action}:${entry.target ?? ""}`));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toHaveLength(10);
      expect(seen.slice(0, 3)).toEqual(["enquiry-deleted:a3", "enquiry-deleted:a2", "enquiry-deleted:a1"]);
      expect(labels(await listAuditEntries(db(), {}, { cursor: "not a cursor" }))[0], "a bad cursor starts from the newest").toBe("enquiry-deleted");
    });

    it("exports the same entries as CSV, newest first", async () => {
      const bytes = await new Response(auditCsvStream(db(), { personId: bob.id }, () => {})).arrayBuffer();
      const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
      expect(text.startsWith("\uFEFF")).toBe(true);
      const rows = parseCsv(text.slice(1));
      expect(rows[0]).toEqual(["When (UTC)", "Who", "Member id", "Client address", "Kind", "What", "Record type", "Record", "Details"]);
      expect(rows.slice(1).map((row) => [row[0], row[1], row[4], row[7]])).toEqual([
        ["2026-11-03T13:00:00.000Z", "not signed in", "sign-in-failed", bob.id],
        ["2026-11-03T12:00:00.000Z", "bob@example.com", "website-saved", "fees"],
        ["2026-11-02T00:30:00.000Z", "ada@example.com", "role-changed", bob.id],
        ["2026-11-01T10:00:00.000Z", "bob@example.com", "project-created", "33333333-3333-4333-8333-333333333333"],
      ]);
    });

    it("keeps entries AUDIT_RETENTION_DAYS, deleting older ones once a day for the fleet", async () => {
      const now = new Date("2026-11-04T00:00:00.000Z");
      expect(await deleteExpiredAuditEntries(db(), 2, now)).toBe(2);
      expect(labels(await listAuditEntries(db(), {}))).toEqual(["sign-in-failed", "website-saved", "enquiries-expired", "role-changed"]);

      // Two instances' schedules: one run between them.
      const said: string[] = [];
      const log = plainLog((line) => void said.push(line));
      const later = () => new Date("2026-11-06T00:00:00.000Z");
      const schedules = [1, 2].map(() => startAuditRetention({ db: db(), retentionDays: 2, log, now: later, firstRunAfterMs: 1 }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const schedule of schedules) schedule.stop();
      expect(said).toEqual(["Audit log: deleted 4 entries older than 2 days (AUDIT_RETENTION_DAYS)"]);
      expect(labels(await listAuditEntries(db(), {}))).toEqual([]);
    });
  });
});
