/**
 * The e-mail outbox and its worker at module level, on each backend, with an
 * injected clock: what is queued with an enquiry, when it is (re)tried, and
 * that several workers on one database send each e-mail once.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { deleteSubmissions, markSpam } from "~/enquiries/inbox.server";
import { RETRY_DELAYS_MS, claimJob, deliverClaimed, failureReason, startOutboxWorker, type OutboxWorker } from "~/enquiries/outbox-worker.server";
import { createOutboxSignal, mailHealth, notificationStates, retryNotification } from "~/enquiries/outbox.server";
import type { Enquiry } from "~/enquiries/schema";
import { toIsoString } from "~/platform/db/db-values";
import type { Mailer, OutgoingEmail } from "~/platform/mail/mailer.server";
import { plainLog } from "~/platform/observe/log.server";
import { backends } from "../support/backends";
import { NO_MAIL, acknowledgementOn, filedAsSpam } from "../support/enquiries";
import { waitFor } from "../support/wait";
import { useDatabase } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

const MAIL = { from: "Site <site@mail.example.com>", notifyTo: ["office@example.com"] };
/** What the app shares between storing an enquiry and its worker: a job stored here wakes the worker. */
const outbox = createOutboxSignal();
const WITH_MAIL = { mail: MAIL, company: PLACEHOLDER_COMPANY, outbox };

const enquiry: Enquiry = {
  name: "Ada Lovelace",
  email: "ada@example.org",
  phone: undefined,
  userType: "investor",
  message: "Two flats in Leeds need a managing agent.",
};

/** A mailer that records what it sends, or fails while `failure` is set (for every e-mail, or those it returns an error for). */
function testMailer() {
  const sent: OutgoingEmail[] = [];
  const mailer = {
    description: "test mailer",
    sent,
    failure: undefined as Error | ((email: OutgoingEmail) => Error | undefined) | undefined,
    /** Set to hold each send until the promise resolves. */
    gate: undefined as Promise<void> | undefined,
    async send(email: OutgoingEmail) {
      if (mailer.gate) await mailer.gate;
      const failure = typeof mailer.failure === "function" ? mailer.failure(email) : mailer.failure;
      if (failure) throw failure;
      sent.push(email);
    },
    close() {},
  } satisfies Mailer & Record<string, unknown>;
  return mailer;
}

function smtpError(message: string, extra: Record<string, unknown>): Error {
  return Object.assign(new Error(message), extra);
}

describe.each(backends)("the e-mail outbox on $name", (backend) => {
  const workers: OutboxWorker[] = [];
  /** The injected clock: ahead of the real one, so jobs queued just now are due. */
  let clock: Date;
  const now = () => clock;
  /** The worker's log, kept out of the test output. */
  const logged: string[] = [];
  const log = plainLog((line) => void logged.push(line));
  let failedSends = 0;
  const report = { log, onFailedSend: () => void failedSends++ };

  function start(mailer: Mailer, db = data.db): OutboxWorker {
    // A long poll: the tests drive the worker by waking it.
    const worker = startOutboxWorker({ db, mailer, outbox, ...report, pollMs: 3_600_000, now });
    workers.push(worker);
    return worker;
  }

  function advance(ms: number) {
    clock = new Date(clock.getTime() + ms);
  }

  async function jobsOf(submissionId: string) {
    const rows = await data.db.selectFrom("email_outbox").selectAll().where("submission_id", "=", submissionId).orderBy("kind", "desc").execute();
    return rows.map((row) => ({
      ...row,
      attempts: Number(row.attempts),
      message: JSON.parse(row.message) as OutgoingEmail,
      next_attempt_at: row.next_attempt_at === null ? null : toIsoString(row.next_attempt_at),
      sent_at: row.sent_at === null ? null : toIsoString(row.sent_at),
      lease_until: row.lease_until === null ? null : toIsoString(row.lease_until),
    }));
  }

  async function onlyJob(submissionId: string) {
    const jobs = await jobsOf(submissionId);
    expect(jobs).toHaveLength(1);
    return jobs[0]!;
  }

  /**
   * Queues a job due at the clock's time, wakes the worker and waits until it
   * has been tried. A worker tries everything due in one pass, so any other
   * job it left alone was not due.
   */
  async function settle(worker: OutboxWorker) {
    const sentinel = { ...WITH_MAIL, mail: { ...MAIL, notifyTo: ["sentinel@example.com"] }, now: clock };
    const { id } = await saveEnquiry(data.db, { ...enquiry, name: "Sentinel" }, sentinel);
    worker.wake();
    await waitFor("the sentinel job to be tried", async () => {
      const row = await data.db.selectFrom("email_outbox").select("status").where("submission_id", "=", id).executeTakeFirst();
      return row?.status === "sent" || row?.status === "failed";
    });
    await data.db.deleteFrom("email_outbox").where("submission_id", "=", id).execute();
    await data.db.deleteFrom("contact_submissions").where("id", "=", id).execute();
  }

  const data = useDatabase(backend);

  beforeEach(async () => {
    clock = new Date(Date.now() + 60_000);
    logged.length = 0;
    failedSends = 0;
    await data.db.deleteFrom("email_outbox").execute();
    await data.db.deleteFrom("contact_submissions").execute();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  });

  it("queues one notification with the enquiry, and the worker sends it once", async () => {
    const mailer = testMailer();
    start(mailer);
    const { id } = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    await waitFor("the notification to be sent", async () => (await onlyJob(id)).status === "sent");

    const job = await onlyJob(id);
    expect(job).toMatchObject({
      kind: "notification",
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
      lease_token: null,
      sent_at: clock.toISOString(),
    });
    expect(job.message).toMatchObject({
      from: MAIL.from,
      to: ["office@example.com"],
      replyTo: "ada@example.org",
      subject: "New enquiry from Ada Lovelace (Property Investor)",
      messageId: `<${job.id}@mail.example.com>`,
    });
    expect(mailer.sent).toEqual([job.message]);
    expect(await notificationStates(data.db, [id, randomUUID()])).toEqual({
      // Last changed when it was sent: where the timeline places it (decision 062).
      [id]: { status: "sent", attempts: 1, lastError: null, nextAttemptAt: null, sentAt: clock.toISOString(), lastTriedAt: clock.toISOString() },
    });
  });

  it("queues an acknowledgement to the visitor too when an owner turned it on", async () => {
    const off = await acknowledgementOn(data.db);
    const { id } = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    await off();
    const jobs = await jobsOf(id);
    expect(jobs.map((job) => job.kind)).toEqual(["notification", "acknowledgement"]);
    expect(jobs[1]!.message).toMatchObject({ to: ["ada@example.org"], replyTo: "office@example.com" });
    expect(jobs[1]!.message.text).not.toContain(enquiry.message);
    expect(jobs[1]!.message.messageId).toBe(`<${jobs[1]!.id}@mail.example.com>`);
    // The admin's card shows the notification only.
    expect(Object.keys(await notificationStates(data.db, [id]))).toEqual([id]);
  });

  it("queues nothing for spam, nor when e-mail is off", async () => {
    const spam = await saveEnquiry(data.db, enquiry, { ...WITH_MAIL, verdict: filedAsSpam("honeypot") });
    const off = await saveEnquiry(data.db, enquiry, NO_MAIL);
    expect(await jobsOf(spam.id)).toEqual([]);
    expect(await jobsOf(off.id)).toEqual([]);
    const stored = await data.db.selectFrom("contact_submissions").select(["id", "spam_reason"]).orderBy("spam_reason").execute();
    expect(stored).toHaveLength(2);
    expect(await notificationStates(data.db, [spam.id, off.id])).toEqual({});
  });

  it("retries with backoff (10 s, 1 min, 5 min, … 24 h), then gives up until an admin retries", async () => {
    const mailer = testMailer();
    mailer.failure = smtpError("Connection refused", { code: "ECONNECTION" });
    const worker = start(mailer);
    const { id } = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    await waitFor("the first attempt", async () => (await onlyJob(id)).status === "failed");

    const delays = RETRY_DELAYS_MS.map((ms) => ms / 1000);
    expect(delays).toEqual([10, 60, 300, 900, 3600, 10800, 21600, 43200, 86400]);
    for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
      const job = await onlyJob(id);
      expect(job).toMatchObject({ status: "failed", attempts: index + 1, last_error: "ECONNECTION: Connection refused" });
      expect(job.next_attempt_at).toBe(new Date(clock.getTime() + delay).toISOString());

      // A moment early: not tried.
      advance(delay - 1);
      await settle(worker);
      expect((await onlyJob(id)).attempts).toBe(index + 1);

      advance(1);
      worker.wake();
      await waitFor(`attempt ${index + 2}`, async () => {
        const next = await onlyJob(id);
        return next.attempts === index + 2 && next.status === "failed";
      });
    }

    const gaveUp = await onlyJob(id);
    expect(gaveUp).toMatchObject({ status: "failed", attempts: RETRY_DELAYS_MS.length + 1, next_attempt_at: null });
    expect(await mailHealth(data.db, true)).toEqual({
      enabled: true,
      failing: 1,
      lastError: "ECONNECTION: Connection refused",
      failingReplies: 0,
      replyLastError: null,
    });
    expect((await notificationStates(data.db, [id]))[id]).toEqual({
      status: "failed",
      attempts: RETRY_DELAYS_MS.length + 1,
      lastError: "ECONNECTION: Connection refused",
      nextAttemptAt: null,
      sentAt: null,
      lastTriedAt: expect.any(String) as string,
    });

    // Given up: a day later, still not tried.
    advance(7 * 24 * 3_600_000);
    await settle(worker);
    expect((await onlyJob(id)).attempts).toBe(RETRY_DELAYS_MS.length + 1);

    // The SMTP server is fixed and the admin retries: it goes at once.
    mailer.failure = undefined;
    expect(await retryNotification(data.db, id, TEST_ACTOR, outbox, clock)).toBe(true);
    await waitFor("the retried notification to be sent", async () => (await onlyJob(id)).status === "sent");
    expect(await onlyJob(id)).toMatchObject({ attempts: RETRY_DELAYS_MS.length + 2, last_error: null, next_attempt_at: null });
    expect(mailer.sent.filter((email) => email.subject.startsWith("New enquiry"))).toHaveLength(1);
    expect(await mailHealth(data.db, true)).toEqual({ enabled: true, failing: 0, lastError: null, failingReplies: 0, replyLastError: null });
  });

  it("makes a failed notification due now on retry, and refuses when there is nothing to retry", async () => {
    const mailer = testMailer();
    mailer.failure = smtpError("Greeting never received", { code: "ETIMEDOUT" });
    start(mailer);
    const { id } = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    await waitFor("the first attempt", async () => (await onlyJob(id)).status === "failed");
    expect((await onlyJob(id)).next_attempt_at).toBe(new Date(clock.getTime() + 10_000).toISOString());

    mailer.failure = undefined;
    expect(await retryNotification(data.db, id, TEST_ACTOR, outbox, clock)).toBe(true);
    await waitFor("the retried notification to be sent", async () => (await onlyJob(id)).status === "sent");
    expect(mailer.sent).toHaveLength(1);

    expect(await retryNotification(data.db, id, TEST_ACTOR)).toBe(false); // already sent
    expect(await retryNotification(data.db, randomUUID(), TEST_ACTOR)).toBe(false); // no such enquiry
    const off = await saveEnquiry(data.db, enquiry, NO_MAIL);
    expect(await retryNotification(data.db, off.id, TEST_ACTOR)).toBe(false); // no e-mail for it
  });

  it("records the SMTP server's reply as the last error, never the SMTP_URL or its password", async () => {
    const mailer = testMailer();
    mailer.failure = smtpError("Message failed: 451 4.3.0 Mailbox temporarily unavailable", {
      code: "EMESSAGE",
      response: "451 4.3.0 Mailbox temporarily unavailable",
      responseCode: 451,
    });
    start(mailer);
    const { id } = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    await waitFor("the first attempt", async () => (await onlyJob(id)).status === "failed");
    const job = await onlyJob(id);
    expect(job.last_error).toBe("EMESSAGE: 451 4.3.0 Mailbox temporarily unavailable");
    // Logged once, by job id and error codes: an SMTP reply may quote an address.
    expect(logged).toEqual([`E-mail ${job.id}: attempt 1 failed (EMESSAGE 451); next try at ${job.next_attempt_at}`]);
    expect(failedSends, "counted for the metrics").toBe(1);

    const leaky = failureReason(new Error("Cannot connect to smtp://mailer:s3cret@smtp.example.com:587 (refused)"));
    expect(leaky).not.toContain("s3cret");
    expect(leaky).toBe("Cannot connect to [url] (refused)");
    expect(failureReason(new Error("x".repeat(1000))).length).toBeLessThanOrEqual(300);
  });

  it("takes over a job whose worker died mid-send once its lease has run out", async () => {
    const { id } = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    // What a crashed worker leaves behind: claimed, with a lease a minute from now.
    const leaseUntil = new Date(clock.getTime() + 60_000).toISOString();
    await data.db
      .updateTable("email_outbox")
      .set({ status: "sending", lease_token: "dead-worker", lease_until: leaseUntil, attempts: 1 })
      .where("submission_id", "=", id)
      .execute();

    const mailer = testMailer();
    const worker = start(mailer);
    await settle(worker);
    expect(await onlyJob(id)).toMatchObject({ status: "sending", attempts: 1, lease_token: "dead-worker" });

    advance(60_000);
    worker.wake();
    await waitFor("the job to be taken over and sent", async () => (await onlyJob(id)).status === "sent");
    expect(await onlyJob(id)).toMatchObject({ attempts: 2, lease_token: null });
    expect(mailer.sent.filter((email) => email.to.includes("office@example.com"))).toHaveLength(1);
  });

  it("re-checks a claimed job before sending: an enquiry erased or filed under Spam since is not e-mailed about", async () => {
    const mailer = testMailer();
    const erased = await saveEnquiry(data.db, { ...enquiry, name: "Erased Meanwhile" }, { ...WITH_MAIL, now: clock });
    const filed = await saveEnquiry(data.db, { ...enquiry, name: "Filed Meanwhile" }, { ...WITH_MAIL, now: clock });
    const kept = await saveEnquiry(data.db, { ...enquiry, name: "Still Wanted" }, { ...WITH_MAIL, now: clock });
    const claimed = async (submissionId: string) => (await claimJob(data.db, (await onlyJob(submissionId)).id, clock))!;
    const [erasedJob, filedJob, keptJob] = [await claimed(erased.id), await claimed(filed.id), await claimed(kept.id)];

    // Between the claim and the send: a UK GDPR erasure, and an admin's Move to Spam.
    await deleteSubmissions(data.db, [erased.id], TEST_ACTOR);
    expect(await markSpam(data.db, filed.id, TEST_ACTOR)).toBe(true);
    for (const job of [erasedJob, filedJob, keptJob]) await deliverClaimed(data.db, mailer, job, report, now);

    expect(mailer.sent.map((email) => email.subject)).toEqual(["New enquiry from Still Wanted (Property Investor)"]);
    expect(await jobsOf(erased.id)).toEqual([]);
    expect(await jobsOf(filed.id)).toEqual([]);
    expect(await onlyJob(kept.id)).toMatchObject({ status: "sent" });
  });

  it("sends each of 20 jobs exactly once with two workers on two connections", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await saveEnquiry(data.db, { ...enquiry, name: `Sender ${i}` }, WITH_MAIL)).id);

    const second = data.database.open();
    const mailers = [testMailer(), testMailer()];
    // Each send yields to the event loop, so the two workers interleave.
    for (const mailer of mailers) mailer.gate = Promise.resolve();
    start(mailers[0]!, data.db);
    start(mailers[1]!, second.db);

    const allSent = async () => {
      const rows = await data.db.selectFrom("email_outbox").select("status").execute();
      return rows.length === 20 && rows.every((row) => row.status === "sent");
    };
    await waitFor("all 20 notifications to be sent", allSent, 30_000);
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));

    const delivered = mailers.flatMap((mailer) => mailer.sent.map((email) => email.messageId));
    expect(delivered).toHaveLength(20);
    expect(new Set(delivered).size).toBe(20);
    const attempts = await data.db.selectFrom("email_outbox").select("attempts").execute();
    expect(attempts.every((row) => Number(row.attempts) === 1)).toBe(true);
    expect(Object.keys(await notificationStates(data.db, ids)).sort()).toEqual([...ids].sort());
  });

  it("lets stop() wait for an e-mail being sent, so its outcome is recorded before the database closes", async () => {
    const mailer = testMailer();
    let release!: () => void;
    mailer.gate = new Promise<void>((resolve) => (release = resolve));
    const worker = start(mailer);
    const { id } = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    await waitFor("the send to begin", async () => (await onlyJob(id)).status === "sending");

    const stopped = worker.stop();
    release();
    await stopped;
    expect(await onlyJob(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("never stores an enquiry without its notification: a failed outbox insert rolls the enquiry back", async () => {
    await sql`alter table email_outbox rename to email_outbox_away`.execute(data.db);
    try {
      await expect(saveEnquiry(data.db, enquiry, WITH_MAIL)).rejects.toThrow();
      const { count } = await data.db
        .selectFrom("contact_submissions")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(0);
    } finally {
      await sql`alter table email_outbox_away rename to email_outbox`.execute(data.db);
    }
    // And with the outbox back, the same enquiry is stored with its job.
    const { id } = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    expect(await jobsOf(id)).toHaveLength(1);
  });

  it("reports mail health: disabled, and how many notifications are failing with the latest error", async () => {
    expect(await mailHealth(data.db, false)).toEqual({ enabled: false, failing: 0, lastError: null, failingReplies: 0, replyLastError: null });

    const mailer = testMailer();
    mailer.failure = smtpError("first", { code: "EAUTH" });
    const worker = start(mailer);
    const first = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    await waitFor("the first failure", async () => (await onlyJob(first.id)).status === "failed");
    advance(1_000);
    mailer.failure = smtpError("second", { code: "ECONNECTION" });
    const second = await saveEnquiry(data.db, enquiry, WITH_MAIL);
    await waitFor("the second failure", async () => (await onlyJob(second.id)).status === "failed");
    expect(await mailHealth(data.db, true)).toEqual({ enabled: true, failing: 2, lastError: "ECONNECTION: second", failingReplies: 0, replyLastError: null });

    // A failing acknowledgement does not count: the banner is about the company's own notifications.
    advance(1_000);
    mailer.failure = (email) => (email.to.includes("ada.third@example.org") ? smtpError("visitor", { code: "EENVELOPE" }) : undefined);
    const off = await acknowledgementOn(data.db);
    // Another address: the first had its one acknowledgement of the day.
    const third = await saveEnquiry(data.db, { ...enquiry, email: "ada.third@example.org" }, WITH_MAIL);
    await off();
    await settle(worker);
    expect((await jobsOf(third.id)).map((job) => [job.kind, job.status])).toEqual([
      ["notification", "sent"],
      ["acknowledgement", "failed"],
    ]);
    expect(await mailHealth(data.db, true)).toEqual({ enabled: true, failing: 2, lastError: "ECONNECTION: second", failingReplies: 0, replyLastError: null });

    // Once the failing ones are sent, the banner has nothing to say.
    mailer.failure = undefined;
    await retryNotification(data.db, first.id, TEST_ACTOR, outbox, clock);
    await retryNotification(data.db, second.id, TEST_ACTOR, outbox, clock);
    await settle(worker);
    expect(await mailHealth(data.db, true)).toEqual({ enabled: true, failing: 0, lastError: null, failingReplies: 0, replyLastError: null });
  });
});
