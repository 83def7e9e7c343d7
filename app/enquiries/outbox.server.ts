import { EventEmitter } from "node:events";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import type { OutgoingEmail } from "~/platform/mail/mailer.server";
import type { OutboxKind } from "~/platform/db/schema";
import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import { preparedInsert } from "~/platform/db/prepared.server";
import { inTransaction } from "~/platform/db/transactions.server";
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

/**
 * A job: an e-mail about an enquiry, one that carries an invitation's
 * single-use link, or one composed as it is sent. An invitation's link is
 * kept apart from the message, which holds LINK_PLACEHOLDER where it goes:
 * the worker puts it in as it sends, and the job forgets it once sent, so the
 * stored message never holds a usable link for longer than the e-mail takes
 * to leave (docs/decisions/042). A password reset's e-mail is composed by the
 * worker from `payload` (EmailComposer): its link is made then, so the outbox
 * never holds it (docs/decisions/043), and it is not sent after `expiresAt`.
 */
export type NewOutboxJob =
  | { id: string; kind: "notification" | "acknowledgement" | "assignment" | "reply"; submissionId: string; message: OutgoingEmail }
  | { id: string; kind: "invitation"; invitationId: string; link: string; message: OutgoingEmail }
  | { id: string; kind: "password-reset"; payload: string; expiresAt: Date };

/** Where a job's message takes its link (in the text, and HTML-escaped in the HTML). */
export const LINK_PLACEHOLDER = "{{link}}";

/**
 * Composes a job's e-mail as it is sent, from what was queued (a password
 * reset's link is made then, so the outbox never holds it); undefined when
 * there is nothing to send, and the job is deleted. Given to the worker by
 * kind (boot.server.ts).
 */
export type EmailComposer = (job: { id: string; attempts: number; payload: string }, now: Date) => Promise<OutgoingEmail | undefined>;
export type EmailComposers = Partial<Record<OutboxKind, EmailComposer>>;
/** The kinds whose stored message is a composer's payload, not an e-mail: never sent as stored. */
export const COMPOSED_KINDS: ReadonlySet<OutboxKind> = new Set<OutboxKind>(["password-reset"]);

/** Queues a job, due at `now`. `db` is the change's transaction (an enquiry, an invitation), so both are stored or neither. */
export async function enqueueEmail(db: Db, job: NewOutboxJob, now: Date): Promise<void> {
  const at = now.toISOString();
  await insertJob(db, [
    {
      id: job.id,
      submission_id: "submissionId" in job ? job.submissionId : null,
      invitation_id: job.kind === "invitation" ? job.invitationId : null,
      link: job.kind === "invitation" ? job.link : null,
      kind: job.kind,
      message: "payload" in job ? job.payload : JSON.stringify(job.message),
      expires_at: "expiresAt" in job ? job.expiresAt.toISOString() : null,
      status: "queued",
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    },
  ]);
}

/** Compiled once, not per job (platform/db/prepared.server.ts, decision 065). */
const insertJob = preparedInsert("email_outbox");

function toIsoOrNull(value: Date | string | null): string | null {
  return value === null ? null : toIsoString(value);
}

/** The notification (kind "notification") state per submission id; ids without a job are absent. */
export async function notificationStates(db: Db, submissionIds: string[]): Promise<Record<string, NotificationState>> {
  if (submissionIds.length === 0) return {};
  const rows = await db
    .selectFrom("email_outbox")
    .select(["submission_id", "status", "attempts", "last_error", "next_attempt_at", "sent_at", "updated_at"])
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
      lastTriedAt: toIsoString(row.updated_at),
    };
  }
  return states;
}

/**
 * enabled is passed in (mail on/off is a start-up setting); failing = an
 * enquiry's notification jobs whose status is "failed" (a flood's summary is
 * about no one enquiry: the dashboard counts what it held on its own), and
 * failingReplies the same of the replies the team sent visitors.
 */
export async function mailHealth(db: Db, enabled: boolean): Promise<MailHealth> {
  const [notifications, replies] = await Promise.all([failedJobs(db, "notification"), failedJobs(db, "reply")]);
  return { enabled, failing: notifications.count, lastError: notifications.lastError, failingReplies: replies.count, replyLastError: replies.lastError };
}

/** An enquiry's jobs of one kind whose last attempt failed: how many, and the latest failure's reason. */
async function failedJobs(db: Db, kind: "notification" | "reply"): Promise<{ count: number; lastError: string | null }> {
  const failed = db.selectFrom("email_outbox").where("kind", "=", kind).where("submission_id", "is not", null).where("status", "=", "failed");
  const [count, latest] = await Promise.all([
    failed.select((eb) => eb.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow(),
    failed.select("last_error").orderBy("updated_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst(),
  ]);
  return { count: Number(count.count), lastError: latest?.last_error ?? null };
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
export async function retryNotification(db: Db, submissionId: string, actor: Actor, outbox?: OutboxSignal, now: Date = new Date()): Promise<boolean> {
  const at = now.toISOString();
  const retried = await inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("email_outbox")
      .set({ next_attempt_at: at, updated_at: at })
      .where("submission_id", "=", submissionId)
      .where("kind", "=", "notification")
      .where("status", "=", "failed")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await audit(trx, { actor, action: "notification-retried", target: submissionId, at: now });
    return true;
  });
  if (retried) outbox?.signal();
  return retried;
}
