import { randomBytes } from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import type { Db } from "~/platform/db/db.server";
import type { Log } from "~/platform/observe/log.server";
import type { Mailer, OutgoingEmail } from "~/platform/mail/mailer.server";
import type { DatabaseSchema, OutboxKind } from "~/platform/db/schema";
import { COMPOSED_KINDS, LINK_PLACEHOLDER, type EmailComposers, type OutboxSignal } from "./outbox.server";
import { escapeHtml } from "./emails";

/**
 * Sends what the outbox holds, one job at a time. Several instances may run
 * on one database: a job is claimed with a conditional UPDATE that only one of
 * them can win, and only the lease holder may record the outcome. A worker
 * that dies mid-send leaves a lease that expires, and another takes the job
 * over (the e-mail keeps its Message-ID, so a receiver can tell a duplicate).
 * Leases are stamped and compared on the database's clock (the `now` the
 * server gives, platform/fleet/clock.server.ts), so an instance whose own clock is
 * ahead does not see another's lease as run out.
 */

/** Waits after the 1st, 2nd, … failed attempt; after the last, the job gives up. */
export const RETRY_DELAYS_MS = [
  10_000,
  60_000,
  5 * 60_000,
  15 * 60_000,
  60 * 60_000,
  3 * 60 * 60_000,
  6 * 60 * 60_000,
  12 * 60 * 60_000,
  24 * 60 * 60_000,
] as const;

/**
 * How long a claim holds without news from its worker: a worker killed
 * mid-send (SIGKILL, a lost machine) delays its e-mail by about this much.
 * While it is still sending, the worker renews the lease every LEASE_RENEW_MS,
 * so a slow SMTP conversation (mailer.server.ts allows up to 30 s of silence
 * per step) is never taken over.
 */
export const LEASE_MS = 30_000;
const LEASE_RENEW_MS = 10_000;
/** How long stop() waits for an e-mail being sent before letting the database close. */
const STOP_WAIT_MS = 10_000;
const MAX_ERROR_LENGTH = 300;

/** Where a worker reports: its log, and each attempt the mail server refused (for the metrics). */
export type DeliveryReport = {
  log: Pick<Log, "info" | "error">;
  onFailedSend?: () => void;
  /** Kinds whose e-mail is composed as it is sent (a password reset's link); the others are sent as stored. */
  composers?: EmailComposers;
};

export type OutboxWorkerOptions = DeliveryReport & {
  db: Db;
  mailer: Mailer;
  /** Wakes the worker when this process queues a job. */
  outbox?: OutboxSignal;
  /** How often to look for due jobs without being woken; default 5 s. */
  pollMs?: number;
  /** The clock, for tests. */
  now?: () => Date;
};

export type OutboxWorker = {
  /** Stops polling; waits (bounded) for an e-mail being sent. */
  stop(): Promise<void>;
  /** Looks for due jobs now, e.g. right after an enquiry was stored. */
  wake(): void;
};

type Eb = ExpressionBuilder<DatabaseSchema, "email_outbox">;

/** Due: waiting for its (next) attempt, or claimed by a worker whose lease ran out; and not past its time. */
function isDue(eb: Eb, at: string) {
  return eb.and([
    eb.or([
      eb.and([eb("status", "in", ["queued", "failed"]), eb("next_attempt_at", "<=", at)]),
      eb.and([eb("status", "=", "sending"), eb("lease_until", "<=", at)]),
    ]),
    eb.or([eb("expires_at", "is", null), eb("expires_at", ">", at)]),
  ]);
}

/** A job a worker holds the lease of; `link` is the single-use link its message takes, if it has one. */
export type ClaimedJob = { id: string; leaseToken: string; attempts: number; message: string; link: string | null; kind: OutboxKind };

/** Claims a due job with a conditional UPDATE only one worker can win; undefined when another did, or it is not due. */
export async function claimJob(db: Db, id: string, at: Date): Promise<ClaimedJob | undefined> {
  const leaseToken = randomBytes(16).toString("hex");
  const result = await db
    .updateTable("email_outbox")
    .set((eb) => ({
      status: "sending",
      lease_token: leaseToken,
      lease_until: new Date(at.getTime() + LEASE_MS).toISOString(),
      attempts: eb("attempts", "+", 1),
      updated_at: at.toISOString(),
    }))
    .where("id", "=", id)
    .where((eb) => isDue(eb, at.toISOString()))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const row = await db
    .selectFrom("email_outbox")
    .select(["message", "attempts", "link", "kind"])
    .where("id", "=", id)
    .where("lease_token", "=", leaseToken)
    .executeTakeFirst();
  return row && { id, leaseToken, attempts: Number(row.attempts), message: row.message, link: row.link, kind: row.kind };
}

/**
 * Is the claimed job still wanted, right before its e-mail goes? Its
 * enquiry may have been erased (UK GDPR), deleted or filed under Spam since
 * the claim, or its invitation revoked, accepted or past its time: then
 * nothing is sent, and the job is deleted.
 */
async function stillWanted(db: Db, job: ClaimedJob, log: DeliveryReport["log"], at: Date): Promise<boolean> {
  const row = await db
    .selectFrom("email_outbox as o")
    .leftJoin("contact_submissions as s", "s.id", "o.submission_id")
    .leftJoin("admin_invitations as i", "i.id", "o.invitation_id")
    .select([
      "o.submission_id",
      "s.id as submission",
      "s.spam_reason",
      "o.invitation_id",
      "i.id as invitation",
      "i.accepted_at",
      "i.revoked_at",
      "i.expires_at",
    ])
    .where("o.id", "=", job.id)
    .where("o.lease_token", "=", job.leaseToken)
    .executeTakeFirst();
  // Gone, or another worker took it over after the lease ran out.
  if (!row) return false;
  let unwanted: string | undefined;
  if (row.submission_id !== null && (row.submission === null || row.spam_reason !== null)) {
    unwanted = `its enquiry was ${row.submission === null ? "deleted" : "moved to Spam"} after it was queued`;
  } else if (row.invitation_id !== null) {
    if (row.invitation === null || row.revoked_at !== null) unwanted = "its invitation was revoked";
    else if (row.accepted_at !== null) unwanted = "its invitation was accepted already";
    else if (row.expires_at !== null && new Date(row.expires_at).getTime() <= at.getTime()) unwanted = "its invitation ran out";
  }
  // A message that takes a link it no longer has (forgotten) must not go out without it.
  // (A composed job's message is what it is composed from, not an e-mail.)
  if (unwanted === undefined && !COMPOSED_KINDS.has(job.kind) && job.link === null && job.message.includes(LINK_PLACEHOLDER)) {
    unwanted = "its link was forgotten";
  }
  if (unwanted === undefined) return true;
  await db.deleteFrom("email_outbox").where("id", "=", job.id).where("lease_token", "=", job.leaseToken).execute();
  log.info(`E-mail ${job.id}: not sent, ${unwanted}`);
  return false;
}

/** The message as it is sent: with its link in place, if it takes one. */
function messageToSend(job: ClaimedJob): OutgoingEmail {
  const message = JSON.parse(job.message) as OutgoingEmail;
  if (job.link === null) return message;
  return { ...message, text: message.text.replaceAll(LINK_PLACEHOLDER, job.link), html: message.html.replaceAll(LINK_PLACEHOLDER, escapeHtml(job.link)) };
}

/** Sends a claimed job's e-mail, if it is still wanted, and records the outcome (only the lease holder can). */
export async function deliverClaimed(
  db: Db,
  mailer: Mailer,
  job: ClaimedJob,
  { log, onFailedSend, composers }: DeliveryReport,
  now: () => Date = () => new Date(),
): Promise<void> {
  if (!(await stillWanted(db, job, log, now()))) return;
  let failure: unknown;
  let email: OutgoingEmail | undefined;
  const compose = composers?.[job.kind];
  try {
    if (compose) email = await compose({ id: job.id, attempts: job.attempts, payload: job.message }, now());
    else if (COMPOSED_KINDS.has(job.kind)) throw new Error(`this worker cannot compose ${job.kind} e-mails`);
    else email = messageToSend(job);
  } catch (error) {
    failure = error ?? new Error("unknown error");
  }
  if (failure === undefined && email === undefined) {
    await db.deleteFrom("email_outbox").where("id", "=", job.id).where("lease_token", "=", job.leaseToken).execute();
    log.info(`E-mail ${job.id}: nothing to send (${job.kind})`);
    return;
  }
  const renewal = setInterval(() => {
    db.updateTable("email_outbox")
      .set({ lease_until: new Date(now().getTime() + LEASE_MS).toISOString() })
      .where("id", "=", job.id)
      .where("lease_token", "=", job.leaseToken)
      .execute()
      .catch((error: unknown) => log.error(`E-mail ${job.id}: could not renew its lease: ${(error as Error).message}`));
  }, LEASE_RENEW_MS);
  try {
    if (failure === undefined) await mailer.send(email!);
  } catch (error) {
    failure = error ?? new Error("unknown error");
  } finally {
    clearInterval(renewal);
  }
  const at = now();
  const finish = db.updateTable("email_outbox").where("id", "=", job.id).where("lease_token", "=", job.leaseToken);
  if (failure === undefined) {
    await finish
      .set({
        status: "sent",
        sent_at: at.toISOString(),
        next_attempt_at: null,
        last_error: null,
        // Sent: the single-use link is the recipient's alone now.
        link: null,
        lease_token: null,
        lease_until: null,
        updated_at: at.toISOString(),
      })
      .execute();
    return;
  }
  onFailedSend?.();
  const delay = RETRY_DELAYS_MS[job.attempts - 1];
  const nextAttemptAt = delay === undefined ? null : new Date(at.getTime() + delay).toISOString();
  await finish
    .set({
      status: "failed",
      last_error: failureReason(failure),
      next_attempt_at: nextAttemptAt,
      lease_token: null,
      lease_until: null,
      updated_at: at.toISOString(),
    })
    .execute();
  // Only the job id and the error's codes: the SMTP reply may quote an address.
  const { code, responseCode } = failure as { code?: unknown; responseCode?: unknown };
  const codes = [code, responseCode].filter((part) => typeof part === "string" || typeof part === "number").join(" ");
  log.error(
    `E-mail ${job.id}: attempt ${job.attempts} failed${codes ? ` (${codes})` : ""}; ` +
      (nextAttemptAt ? `next try at ${nextAttemptAt}` : "gave up (an admin can retry it)"),
  );
}

export function startOutboxWorker({
  db,
  mailer,
  outbox,
  log,
  onFailedSend,
  composers,
  pollMs = 5_000,
  now = () => new Date(),
}: OutboxWorkerOptions): OutboxWorker {
  let stopped = false;
  let woken = false;
  let interrupt: (() => void) | undefined;
  let lastLoopError: string | undefined;

  const wake = () => {
    woken = true;
    interrupt?.();
  };
  const unsubscribe = outbox?.onDue(wake) ?? (() => {});

  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        interrupt = undefined;
        resolve();
      }
      interrupt = done;
    });

  /** Claims and sends one due job; false when none was due. */
  async function sendNextDue(): Promise<boolean> {
    const candidates = await db
      .selectFrom("email_outbox")
      .select("id")
      .where((eb) => isDue(eb, now().toISOString()))
      .orderBy("next_attempt_at")
      .orderBy("id")
      .limit(10)
      .execute();
    for (const { id } of candidates) {
      const job = await claimJob(db, id, now());
      if (!job) continue; // Another worker won it.
      await deliverClaimed(db, mailer, job, { log, onFailedSend, composers }, now);
      return true;
    }
    return false;
  }

  async function run() {
    while (!stopped) {
      woken = false;
      try {
        while (!stopped && (await sendNextDue()));
        lastLoopError = undefined;
      } catch (error) {
        // The database is unreachable or closing: try again at the next poll, without flooding the log.
        const reason = error instanceof Error ? error.message : String(error);
        if (reason !== lastLoopError) log.error(`E-mail outbox: could not read or update jobs: ${reason}`);
        lastLoopError = reason;
      }
      if (!stopped && !woken) await pause();
    }
  }

  const running = run();

  return {
    wake,
    async stop() {
      stopped = true;
      unsubscribe();
      interrupt?.();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
      clearTimeout(timer);
    },
  };
}

/**
 * A short reason for the admin: the SMTP server's reply, or the error's code
 * and message. Never the SMTP_URL: anything URL-shaped is cut out, in case a
 * library quotes it with its password.
 */
export function failureReason(error: unknown): string {
  const { code, response, message } = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    response?: unknown;
    message?: unknown;
  };
  const detail = typeof response === "string" && response ? response : typeof message === "string" ? message : String(error);
  const reason = `${typeof code === "string" && code ? `${code}: ` : ""}${detail}`
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S*/gi, "[url]")
    .replace(/\s+/g, " ")
    .trim();
  return reason.length > MAX_ERROR_LENGTH ? `${reason.slice(0, MAX_ERROR_LENGTH - 1)}…` : reason || "unknown error";
}
