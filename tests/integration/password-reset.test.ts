/**
 * "Forgot your password?" at the domain level, on each backend: the same
 * answer, the same work and no usable difference in timing for a member's
 * address and an unknown one; the link (single use, 30 minutes, only its hash
 * stored) composed when the outbox sends it; a new password through it ends
 * every session; the limits per address and per client address.
 */
import { describe, expect, it } from "vitest";
import { AdminError } from "~/auth/admins.server";
import { pruneExpiredSignInState } from "~/auth/expired-state.server";
import {
  checkResetLink,
  refusedResetRequests,
  requestPasswordReset,
  resetPassword,
  RESET_LIMITS,
  RESET_LINK_MS,
  type ResetRequest,
} from "~/auth/password-reset.server";
import { findSession } from "~/auth/sessions.server";
import { claimJob, deliverClaimed } from "~/enquiries/outbox-worker.server";
import { createOutboxSignal } from "~/enquiries/outbox.server";
import { createTally } from "~/platform/limits/tally.server";
import type { Db } from "~/platform/db/db.server";
import { backends } from "../support/backends";
import { clock, expectOk, member, passwordSignIn, quietLog, recordingMailer, resetTokenIn, runOutbox, useAuthDatabase, PASSWORD } from "../support/auth-domain";
import { interquartileRange, median, probabilityOfSuperiority, shuffled } from "../support/timing";

const MINUTE = 60_000;
const SITE = "http://localhost:3000";
const NEW_PASSWORD = "a new and rather long passphrase";
const IP = "192.0.2.7";

describe.each(backends)("password reset on $name", (backend) => {
  const database = useAuthDatabase(backend);

  /** A request; its refusals are counted in `overrides.tally` when a test reads them, else in none. */
  function ask(db: Db, overrides: Partial<ResetRequest> & { email: string }) {
    return requestPasswordReset(db, { clientIp: "192.0.2.1", siteUrl: SITE, mailOn: true, log: quietLog().log, tally: { count() {} }, ...overrides });
  }

  it("answers a member's address and an unknown one alike, queueing one job of the same shape for each", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const at = clock();
    const outbox = createOutboxSignal();
    let signals = 0;
    outbox.onDue(() => signals++);

    const known = await ask(db, { email: " Owner@Example.com ", outbox, now: at() });
    const unknown = await ask(db, { email: "nobody@example.com", outbox, now: at() });
    expect(known).toEqual({ ok: true });
    expect(unknown).toEqual(known);
    expect(signals).toBe(2);
    const jobs = await db.selectFrom("email_outbox").select(["kind", "status", "submission_id", "expires_at", "message"]).orderBy("message").execute();
    expect(jobs.map(({ message: _, ...shape }) => shape)).toEqual([
      expect.objectContaining({ kind: "password-reset", status: "queued", submission_id: null }),
      expect.objectContaining({ kind: "password-reset", status: "queued", submission_id: null }),
    ]);
    expect(new Date(jobs[0]!.expires_at!).getTime()).toBe(at(RESET_LINK_MS).getTime());
    // Nothing of the member is touched while answering: no link exists yet.
    expect(await db.selectFrom("password_resets").selectAll().execute()).toEqual([]);
    expect(owner.email).toBe("owner@example.com");
  });

  it("e-mails a member a single-use link, stored only as a hash, and sends nothing for an unknown address", async () => {
    const { db } = database;
    await member(db, "owner@example.com");
    const at = clock();
    await ask(db, { email: "owner@example.com", now: at() });
    await ask(db, { email: "nobody@example.com", now: at() });
    const mailer = recordingMailer();
    await runOutbox(db, mailer, at(MINUTE));

    expect(mailer.sent).toHaveLength(1);
    const [email] = mailer.sent;
    expect(email!.to).toEqual(["owner@example.com"]);
    expect(email!.subject).toBe("Set a new password for Example Lettings");
    const token = resetTokenIn(email!);
    expect(email!.text).toContain(`${SITE}/admin/reset-password?token=${token}`);
    expect(email!.html).toContain(`${SITE}/admin/reset-password?token=${token}`);
    // The unknown address's job is gone; the token is in no table.
    const jobs = await db.selectFrom("email_outbox").select(["status"]).execute();
    expect(jobs).toEqual([{ status: "sent" }]);
    for (const table of ["password_resets", "email_outbox"] as const) {
      const rows = await db.selectFrom(table).selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(token);
    }
    expect(await checkResetLink(db, token, at(2 * MINUTE))).toEqual({ ok: true, email: "owner@example.com" });
  });

  it("never sends the job as stored (it holds the address typed, not an e-mail): without its composer it fails unsent, and past its time no worker takes it", async () => {
    const { db } = database;
    await member(db, "owner@example.com");
    const at = clock();
    await ask(db, { email: "owner@example.com", now: at() });
    const { id } = await db.selectFrom("email_outbox").select("id").executeTakeFirstOrThrow();
    const mailer = recordingMailer();
    const { log } = quietLog();
    await deliverClaimed(db, mailer, (await claimJob(db, id, at(MINUTE)))!, { log }, () => at(MINUTE));
    expect(mailer.sent).toEqual([]);
    const row = await db.selectFrom("email_outbox").select(["status", "last_error"]).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "failed", last_error: "this worker cannot compose password-reset e-mails" });
    expect(await db.selectFrom("password_resets").selectAll().execute()).toEqual([]);
    // Due again after its backoff, but its 30 minutes are over: not claimed, not sent.
    expect(await claimJob(db, id, at(RESET_LINK_MS))).toBeUndefined();
    await runOutbox(db, mailer, at(RESET_LINK_MS + MINUTE));
    expect(mailer.sent).toEqual([]);
  });

  it("sets the new password once: every session ends, the old password stops working, the link and the member's other links are used up", async () => {
    const otherInstance = database.again();
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const sessions = [expectOk(await passwordSignIn(db, { email: owner.email })), expectOk(await passwordSignIn(db, { email: owner.email }))];
    const at = clock();
    await ask(db, { email: owner.email, now: at() });
    await ask(db, { email: owner.email, now: at() });
    const mailer = recordingMailer();
    await runOutbox(db, mailer, at(MINUTE));
    const [first, second] = mailer.sent.map(resetTokenIn);

    const done = await resetPassword(db, first!, NEW_PASSWORD, { clientIp: IP, now: at(2 * MINUTE) });
    expect(done).toEqual({ ok: true, email: owner.email, adminId: owner.id, endedSessions: 2 });
    for (const session of sessions) expect(await findSession(otherInstance.db, session.token)).toBeUndefined();
    expect(await passwordSignIn(db, { email: owner.email, password: PASSWORD })).toEqual({ ok: false, reason: "invalid" });
    expectOk(await passwordSignIn(db, { email: owner.email, password: NEW_PASSWORD }));

    expect(await resetPassword(db, first!, "another long passphrase!", { clientIp: IP, now: at(3 * MINUTE) })).toEqual({ ok: false, reason: "used" });
    expect(await resetPassword(db, second!, "another long passphrase!", { clientIp: IP, now: at(3 * MINUTE) })).toEqual({ ok: false, reason: "used" });
    expect(await checkResetLink(db, first!, at(3 * MINUTE))).toEqual({ ok: false, reason: "used" });
    expect(await resetPassword(db, "A".repeat(43), "another long passphrase!", { clientIp: IP, now: at(3 * MINUTE) })).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await resetPassword(db, "not a token", "another long passphrase!", { clientIp: IP, now: at(3 * MINUTE) })).toEqual({ ok: false, reason: "invalid" });
    expectOk(await passwordSignIn(db, { email: owner.email, password: NEW_PASSWORD }));
  });

  it("a link works for 30 minutes from when it is sent, then says it expired", async () => {
    const { db } = database;
    await member(db, "owner@example.com");
    const at = clock();
    await ask(db, { email: "owner@example.com", now: at() });
    const mailer = recordingMailer();
    await runOutbox(db, mailer, at(MINUTE));
    const token = resetTokenIn(mailer.sent[0]!);

    expect(await checkResetLink(db, token, at(MINUTE + RESET_LINK_MS - 1))).toMatchObject({ ok: true });
    expect(await checkResetLink(db, token, at(MINUTE + RESET_LINK_MS))).toEqual({ ok: false, reason: "expired" });
    expect(await resetPassword(db, token, NEW_PASSWORD, { clientIp: IP, now: at(MINUTE + RESET_LINK_MS) })).toEqual({ ok: false, reason: "expired" });
    expectOk(await passwordSignIn(db, { email: "owner@example.com", password: PASSWORD }));
  });

  it("a password that breaks the rules is refused and the link still works", async () => {
    const { db } = database;
    await member(db, "owner@example.com");
    const at = clock();
    await ask(db, { email: "owner@example.com", now: at() });
    const mailer = recordingMailer();
    await runOutbox(db, mailer, at());
    const token = resetTokenIn(mailer.sent[0]!);
    await expect(resetPassword(db, token, "short", { clientIp: IP, now: at(MINUTE) })).rejects.toThrow(AdminError);
    expectOk(await resetPassword(db, token, NEW_PASSWORD, { clientIp: IP, now: at(MINUTE) }));
  });

  it("a request the mail server could not send within 30 minutes is not sent later, and is deleted", async () => {
    const { db } = database;
    await member(db, "owner@example.com");
    const at = clock();
    await ask(db, { email: "owner@example.com", now: at() });
    const mailer = recordingMailer();
    await runOutbox(db, mailer, at(RESET_LINK_MS));
    expect(mailer.sent).toEqual([]);
    await pruneExpiredSignInState(db, at(RESET_LINK_MS));
    expect(await db.selectFrom("email_outbox").selectAll().execute()).toEqual([]);
  });

  it("without e-mail configured, says so for every address and queues nothing; a malformed address is refused", async () => {
    const { db } = database;
    await member(db, "owner@example.com");
    expect(await ask(db, { email: "owner@example.com", mailOn: false })).toEqual({ ok: false, reason: "no-mail" });
    expect(await ask(db, { email: "nobody@example.com", mailOn: false })).toEqual({ ok: false, reason: "no-mail" });
    expect(await ask(db, { email: "not an address", mailOn: true })).toEqual({ ok: false, reason: "not-an-address" });
    expect(await db.selectFrom("email_outbox").selectAll().execute()).toEqual([]);
  });

  it("limits requests per address and per client address, member or not, before queueing anything, and reports the refusals", async () => {
    expect(RESET_LIMITS).toEqual({ perAddress: 3, perClient: 10 });
    const { db } = database;
    await member(db, "owner@example.com");
    const at = clock();
    const tally = createTally(db, quietLog().log);
    for (const email of ["owner@example.com", "nobody@example.com"]) {
      for (let i = 0; i < 3; i++) expect(await ask(db, { email, clientIp: `198.51.100.${i}`, tally, now: at() })).toEqual({ ok: true });
      expect(await ask(db, { email, clientIp: "198.51.100.99", tally, now: at() })).toMatchObject({ ok: false, reason: "limited", retryAfterSeconds: 3600 });
    }
    // Ten from one client address (IPv6 by its /64), whatever the addresses.
    for (let i = 0; i < 10; i++)
      expect(await ask(db, { email: `person${i}@example.com`, clientIp: `2001:db8:1:2::${i + 1}`, tally, now: at() })).toEqual({ ok: true });
    expect(await ask(db, { email: "person10@example.com", clientIp: "2001:db8:1:2::ff", tally, now: at() })).toMatchObject({ reason: "limited" });
    // Counted in memory, without a row per refusal, and written for the dashboard.
    const buckets = await db.selectFrom("rate_limit_events").select("bucket").distinct().execute();
    expect(buckets.map((row) => row.bucket).sort()).toEqual(["password-reset-address", "password-reset-client"]);
    await tally.stop();
    expect(
      await db
        .selectFrom("email_outbox")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow(),
    ).toEqual({
      n: backend.name === "postgres" ? "16" : 16,
    });
    expect(await refusedResetRequests(db, at())).toEqual({ count: 3, last: at() });
    // An hour later the address may ask again.
    expect(await ask(db, { email: "owner@example.com", clientIp: "198.51.100.99", now: at(60 * MINUTE + 1) })).toEqual({ ok: true });
  });

  it("takes as long for a member's address as for an unknown one: no difference a script could use", async () => {
    const { db } = database;
    await member(db, "owner@example.com");
    const limits = { perAddress: 10_000, perClient: 10_000 };
    const log = quietLog().log;
    const ROUNDS = 150;
    const times = { member: [] as number[], unknown: [] as number[] };
    // Warm-up: the first statements of a connection are slower.
    for (let i = 0; i < 10; i++) await ask(db, { email: i % 2 ? "owner@example.com" : "nobody@example.com", limits, log });
    const order = shuffled([...Array<"member">(ROUNDS).fill("member"), ...Array<"unknown">(ROUNDS).fill("unknown")]);
    for (const [i, kind] of order.entries()) {
      const email = kind === "member" ? "owner@example.com" : "nobody@example.com";
      const started = performance.now();
      const answer = await ask(db, { email, limits, log, clientIp: `203.0.113.${i % 250}` });
      times[kind].push(performance.now() - started);
      expect(answer).toEqual({ ok: true });
    }
    const spread = Math.max(interquartileRange(times.member), interquartileRange(times.unknown));
    const gap = Math.abs(median(times.member) - median(times.unknown));
    const superiority = probabilityOfSuperiority(times.member, times.unknown);
    const summary = `medians ${median(times.member).toFixed(3)} / ${median(times.unknown).toFixed(3)} ms, IQR ${spread.toFixed(3)} ms, P(member slower) ${superiority.toFixed(3)}`;
    console.info(`reset timing on ${backend.name}: ${summary}`);
    // A script comparing single requests guesses right about as often as a coin (0.5 ± 3.6 standard errors)…
    expect(superiority, summary).toBeGreaterThan(0.38);
    expect(superiority, summary).toBeLessThan(0.62);
    // …and the medians lie well within each other's spread.
    expect(gap, summary).toBeLessThan(0.5 * spread);
  });
});
