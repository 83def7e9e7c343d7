import type { Db } from "~/platform/db/db.server";
import type { Log } from "~/platform/observe/log.server";
import { startFleetJob } from "~/platform/fleet/job-runs.server";
import type { Repeating } from "~/platform/fleet/schedule.server";
import { audit } from "~/audit/audit.server";
import { systemActor } from "~/audit/actor";
import { deleteEnquiriesInBatches } from "./enquiries.server";

/**
 * ENQUIRY_RETENTION_DAYS: enquiries (spam included) older than that many days
 * are deleted with their e-mail jobs, once shortly after start and then daily.
 * Off unless set: nothing is deleted that the admin did not ask to delete.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the enquiries stored before `now` minus `retentionDays` days, and
 * their e-mail jobs, oldest first, DELETE_BATCH at a time: each batch in one
 * transaction with its audit entry (how many went); answers how many
 * enquiries went in all. Safe to run from several instances at once: each row
 * goes once, and a run that finds it gone counts nothing for it.
 */
export async function deleteExpiredEnquiries(db: Db, retentionDays: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  const deleted = await deleteEnquiriesInBatches(
    db,
    (eb) => eb("created_at", "<", cutoff),
    (trx, deletedIds) => audit(trx, { actor: systemActor("enquiry retention"), action: "enquiries-expired", details: { count: deletedIds.length }, at: now }),
  );
  return deleted.submissions;
}

export type RetentionLog = Pick<Log, "info" | "error">;

export type RetentionOptions = {
  db: Db;
  /** ENQUIRY_RETENTION_DAYS; undefined: the schedule does nothing. */
  retentionDays: number | undefined;
  log: RetentionLog;
  /** Until the first run: long enough for start-up to finish first. */
  firstRunAfterMs?: number;
  /** Between runs. */
  everyMs?: number;
  now?: () => Date;
};

/**
 * Runs deleteExpiredEnquiries shortly after start and then every 24 hours,
 * once for the whole fleet (each instance checks every 10 minutes),
 * on timers that never keep the process alive. A failed run is logged and
 * tried again at the next. The log says how many went, never whose.
 */
export function startRetentionSchedule({
  db,
  retentionDays,
  log,
  firstRunAfterMs = 60_000,
  everyMs = DAY_MS,
  now = () => new Date(),
}: RetentionOptions): Repeating {
  if (retentionDays === undefined) return { stop() {} };
  const days = retentionDays;
  log.info(`Retention: enquiries older than ${days} days are deleted daily (ENQUIRY_RETENTION_DAYS)`);
  // Once a day across the fleet, not once per instance: each checks, one runs it (platform/fleet/job-runs.server.ts).
  return startFleetJob(
    { db, name: "enquiry-retention", everyMs, firstAfterMs: firstRunAfterMs, now },
    async () => {
      const deleted = await deleteExpiredEnquiries(db, days, now());
      if (deleted > 0) log.info(`Retention: deleted ${deleted} ${deleted === 1 ? "enquiry" : "enquiries"} older than ${days} days`);
    },
    (error) => log.error({ err: error }, "Retention: could not delete old enquiries"),
  );
}
