import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { saveEnquiry, type SaveEnquiryOptions } from "~/enquiries/enquiries.server";
import { deleteExpiredEnquiries, startRetentionSchedule, type RetentionLog } from "~/enquiries/retention.server";
import type { SpamSignal } from "~/enquiries/spam";
import { plainLog } from "~/platform/observe/log.server";
import { backends } from "../support/backends";
import { filedAsSpam } from "../support/enquiries";
import { useDatabase } from "../support/sites";

/** E-mail on: each real enquiry gets its notification in the outbox. */
const MAIL: SaveEnquiryOptions = {
  mail: { from: "Website <website@example.com>", notifyTo: ["office@example.com"] },
  company: PLACEHOLDER_COMPANY,
};

/** The clock the tests inject: "now" for retention. */
const NOW = new Date("2026-03-31T12:00:00.000Z");
const DAYS = 30;
/** NOW minus 30 days: enquiries stored before this are expired. */
const CUTOFF = "2026-03-01T12:00:00.000Z";

describe.each(backends)("enquiry retention on $name", (backend) => {
  const data = useDatabase(backend);

  beforeEach(async () => {
    await data.db.deleteFrom("job_runs").execute();
    await data.db.deleteFrom("email_outbox").execute();
    await data.db.deleteFrom("contact_submissions").execute();
  });

  /** Stores an enquiry (with its e-mail jobs, or as spam without) as if it arrived at `createdAt`. */
  async function storeAt(name: string, createdAt: string, spamReason?: SpamSignal): Promise<string> {
    const { id } = await saveEnquiry(
      data.db,
      { name, email: `${name.toLowerCase()}@example.com`, phone: undefined, userType: "landlord", message: `From ${name}` },
      { ...MAIL, verdict: filedAsSpam(spamReason) },
    );
    await data.db.updateTable("contact_submissions").set({ created_at: createdAt }).where("id", "=", id).execute();
    return id;
  }

  async function remaining() {
    const submissions = await data.db.selectFrom("contact_submissions").select(["id", "name"]).orderBy("name").execute();
    const jobs = await data.db.selectFrom("email_outbox").select("submission_id").execute();
    return { names: submissions.map((row) => row.name), jobsOf: new Set(jobs.map((row) => row.submission_id)), jobs: jobs.length };
  }

  it("deletes a backlog of expired enquiries a batch at a time, each batch with its audit entry, until none is left", async () => {
    for (let day = 1; day <= 45; day++)
      await storeAt(`Old${String(day).padStart(2, "0")}`, `2025-0${1 + (day % 9)}-${String(1 + (day % 28)).padStart(2, "0")}T09:00:00.000Z`);
    await storeAt("Recent", "2026-03-30T08:00:00.000Z");
    await data.db.deleteFrom("audit_log").where("action", "=", "enquiries-expired").execute();

    expect(await deleteExpiredEnquiries(data.db, DAYS, NOW)).toBe(45);

    expect((await remaining()).names).toEqual(["Recent"]);
    const entries = await data.db.selectFrom("audit_log").select("details").where("action", "=", "enquiries-expired").orderBy("id").execute();
    // Batches of 20 in their own transactions, so SQLite's one connection is not held for the whole backlog.
    expect(entries.map((entry) => JSON.parse(entry.details!).count)).toEqual([20, 20, 5]);
    expect(await deleteExpiredEnquiries(data.db, DAYS, NOW)).toBe(0);
  });

  it("deletes the enquiries older than the retention period and their e-mail jobs, and keeps the rest", async () => {
    await storeAt("Ancient", "2025-06-01T09:00:00.000Z");
    await storeAt("Spammy", "2026-02-01T09:00:00.000Z", "links");
    await storeAt("JustExpired", "2026-03-01T11:59:59.999Z");
    const atCutoff = await storeAt("AtCutoff", CUTOFF);
    const recent = await storeAt("Recent", "2026-03-30T08:00:00.000Z");
    expect((await remaining()).jobs, "a job for each real enquiry").toBe(4);

    expect(await deleteExpiredEnquiries(data.db, DAYS, NOW)).toBe(3);

    const after = await remaining();
    expect(after.names).toEqual(["AtCutoff", "Recent"]);
    expect(after.jobsOf).toEqual(new Set([atCutoff, recent]));
    expect(after.jobs).toBe(2);
    expect(await deleteExpiredEnquiries(data.db, DAYS, NOW), "nothing more to delete").toBe(0);
  });

  it("counts each deleted enquiry once when two runs go at once, and leaves no job behind", async () => {
    for (let i = 0; i < 20; i++) await storeAt(`Old${String(i).padStart(2, "0")}`, `2026-01-${String(i + 1).padStart(2, "0")}T10:00:00.000Z`);
    const kept = await storeAt("Kept", "2026-03-20T10:00:00.000Z");

    // PostgreSQL: two connections, as two instances have. SQLite: one process has one connection,
    // which runs transactions one at a time; other instances are other processes, which SQLite's
    // file locks put in line (with busy_timeout) the same way.
    const second = backend.name === "postgres" ? data.database.open() : data.reader;
    const counts = await Promise.all([deleteExpiredEnquiries(data.db, DAYS, NOW), deleteExpiredEnquiries(second.db, DAYS, NOW)]);

    expect(counts[0]! + counts[1]!).toBe(20);
    const after = await remaining();
    expect(after.names).toEqual(["Kept"]);
    expect(after.jobsOf).toEqual(new Set([kept]));
  });

  describe("the daily schedule", () => {
    const logged: string[] = [];
    const log: RetentionLog = plainLog((line) => void logged.push(line));
    let stop: (() => void) | undefined;

    afterEach(() => {
      stop?.();
      stop = undefined;
      logged.length = 0;
      vi.restoreAllMocks();
    });

    it("is off without a retention period: no timer, nothing deleted, nothing said", async () => {
      await storeAt("Ancient", "2025-06-01T09:00:00.000Z");
      const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
      stop = startRetentionSchedule({ db: data.db, retentionDays: undefined, log, firstRunAfterMs: 0, now: () => NOW }).stop;
      expect(setTimeoutSpy).not.toHaveBeenCalled();
      expect(logged).toEqual([]);
      expect((await remaining()).names).toEqual(["Ancient"]);
    });

    it("runs shortly after start with the injected clock, then checks every 10 minutes, on timers that do not keep the process alive", async () => {
      await storeAt("Ancient", "2025-06-01T09:00:00.000Z");
      await storeAt("Recent", "2026-03-30T08:00:00.000Z");
      const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");

      stop = startRetentionSchedule({ db: data.db, retentionDays: DAYS, log, firstRunAfterMs: 5, now: () => NOW }).stop;
      expect(setTimeoutSpy.mock.calls[0]?.[1], "the first run, shortly after start").toBe(5);
      expect((setTimeoutSpy.mock.results[0]!.value as NodeJS.Timeout).hasRef(), "unref'd").toBe(false);

      await vi.waitFor(async () => expect((await remaining()).names).toEqual(["Recent"]));
      await vi.waitFor(() => expect(setTimeoutSpy.mock.calls.some(([, delay]) => delay === 10 * 60 * 1000)).toBe(true));
      const next = setTimeoutSpy.mock.results[setTimeoutSpy.mock.calls.findIndex(([, delay]) => delay === 10 * 60 * 1000)];
      expect((next!.value as NodeJS.Timeout).hasRef(), "the next check's timer is unref'd too").toBe(false);

      // The log says how many and how old, never whose.
      expect(logged.join("\n")).toContain("deleted 1 enquiry older than 30 days");
      expect(logged.join("\n")).not.toMatch(/ancient|@/i);
    });

    it("logs a failed run without personal data, and tries again at the next", async () => {
      // A database without the tables: every run fails.
      const unmigrated = await backend.createDatabase();
      try {
        const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
        const broken = unmigrated.open();
        stop = startRetentionSchedule({ db: broken.db, retentionDays: DAYS, log, firstRunAfterMs: 0, everyMs: 60_000, now: () => NOW }).stop;
        await vi.waitFor(() => expect(logged.some((line) => line.startsWith("Retention: could not delete old enquiries:"))).toBe(true));
        await vi.waitFor(() => expect(setTimeoutSpy.mock.calls.some(([, delay]) => delay === 60_000)).toBe(true));
        expect(logged.join("\n")).not.toContain("@");
      } finally {
        stop?.();
        await unmigrated.cleanup();
      }
    });
  });
});
