import { EventEmitter } from "node:events";
import type { Db } from "~/platform/db.server";
import { toIsoString } from "~/platform/db-values";
import type { OutgoingEmail } from "~/platform/mailer.server";
import type { OutboxKind } from "~/platform/schema";
import type { MailHealth, NotificationState } from "./delivery";

/**
 * The e-mail outbox: jobs are written in the same transaction as the enquiry
 * they are about and sent later by outbox-worker.server.ts, so an enquiry the
 * visitor was thanked for always has its e-mail on record, sent or not.
 */

/**
 * Tells this process's worker that a job is due now (other instances find it
 * by polling). One per boot of the app (app/boot.server.ts).
 */
export type OutboxSignal = {
  signal(): void;
  /** Calls `listener` whenever a job becomes due in this process; returns the unsubscribe. */
  onDue(listener: () => void): () => void;
};

export function createOutboxSignal(): OutboxSignal {
  const events = new EventEmitter();
  return {
    signal: () => void events.emit("due"),
    onDue(listener) {
      events.on("due", listener);
      return () => events.off("due", listener);
    },
  };
}

export type NewOutboxJob = {
  id: string;
  /** The enquiry the e-mail is about; null for e-mails about no enquiry (a password reset). */
  submissionId: string | null;
  kind: OutboxKind;
  /** The e-mail; or, for a kind whose e-mail is composed when it is sent (EmailComposer), what it is composed from. */
  message: OutgoingEmail | string;
  /** Not sent after this (the job is then deleted); default: no such limit. */
  expiresAt?: Date;
};

/**
 * Composes a job's e-mail as it is sent, from what was queued (a password
 * reset's link is made then, so the outbox never holds it); undefined when
 * there is nothing to send, and the job is deleted. Given to the worker by
 * kind (boot.server.ts).
 */
export type EmailComposer = (job: { id: string; attempts: number; payload: string }, now: Date) => Promise<OutgoingEmail | undefined>;
export type EmailComposers = Partial<Record<OutboxKind, EmailComposer>>;

/** Queues a job, due at `now`. `db` is the enquiry's transaction, so both are stored or neither. */
export async function enqueueEmail(db: Db, job: NewOutboxJob, now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto("email_outbox")
    .values({
      id: job.id,
      submission_id: job.submissionId,
      kind: job.kind,
      message: typeof job.message === "string" ? job.message : JSON.stringify(job.message),
      expires_at: job.expiresAt?.toISOString() ?? null,
      status: "queued",
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

function toIsoOrNull(value: Date | string | null): string | null {
  return value === null ? null : toIsoString(value);
}

/** The notification (kind "notification") state per submission id; ids without a job are absent. */
export async function notificationStates(db: Db, submissionIds: string[]): Promise<Record<string, NotificationState>> {
  if (submissionIds.length === 0) return {};
  const rows = await db
    .selectFrom("email_outbox")
    .select(["submission_id", "status", "attempts", "last_error", "next_attempt_at", "sent_at"])
    .where("kind", "=", "notification")
    .where("submission_id", "in", submissionIds)
    // One job per enquiry today; should there be more, the newest wins.
    .orderBy("created_at", "asc")
    .execute();
  const states: Record<string, NotificationState> = {};
  for (const row of rows) {
    if (row.submission_id === null) continue;
    states[row.submission_id] = {
      status: row.status,
      attempts: Number(row.attempts),
      lastError: row.last_error,
      nextAttemptAt: toIsoOrNull(row.next_attempt_at),
      sentAt: toIsoOrNull(row.sent_at),
    };
  }
  return states;
}

/** enabled is passed in (mail on/off is a start-up setting); failing = notification jobs whose status is "failed". */
export async function mailHealth(db: Db, enabled: boolean): Promise<MailHealth> {
  const failed = db.selectFrom("email_outbox").where("kind", "=", "notification").where("status", "=", "failed");
  const [count, latest] = await Promise.all([
    failed.select((eb) => eb.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow(),
    failed.select("last_error").orderBy("updated_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst(),
  ]);
  return { enabled, failing: Number(count.count), lastError: latest?.last_error ?? null };
}

/**
 * What waits to be sent (queued, being sent, or failed with another attempt
 * due), and how long the oldest of it has waited, for GET /metrics.
 */
export async function outboxBacklog(db: Db, now: Date): Promise<{ jobs: number; oldestAgeSeconds: number }> {
  const row = await db
    .selectFrom("email_outbox")
    .select((eb) => [eb.fn.countAll<number | string>().as("jobs"), eb.fn.min("created_at").as("oldest")])
    .where((eb) => eb.or([eb("status", "in", ["queued", "sending"]), eb.and([eb("status", "=", "failed"), eb("next_attempt_at", "is not", null)])]))
    .executeTakeFirstOrThrow();
  const oldest = row.oldest === null || row.oldest === undefined ? undefined : new Date(toIsoString(row.oldest as Date | string));
  return { jobs: Number(row.jobs), oldestAgeSeconds: oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0 };
}

/** Deletes the jobs whose time ran out, sent or not (what they were composed from may be personal data). */
export async function deleteExpiredEmails(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom("email_outbox").where("expires_at", "<=", now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Makes a failed notification of this submission due now (also one that gave
 * up); false when there is none to retry. The attempt count stays: it is the
 * record of tries, and a job that had given up gets one more try per retry.
 */
export async function retryNotification(db: Db, submissionId: string, outbox?: OutboxSignal, now: Date = new Date()): Promise<boolean> {
  const at = now.toISOString();
  const result = await db
    .updateTable("email_outbox")
    .set({ next_attempt_at: at, updated_at: at })
    .where("submission_id", "=", submissionId)
    .where("kind", "=", "notification")
    .where("status", "=", "failed")
    .executeTakeFirst();
  const retried = Number(result.numUpdatedRows) > 0;
  if (retried) outbox?.signal();
  return retried;
}
