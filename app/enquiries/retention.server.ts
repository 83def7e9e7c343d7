import { setImmediate as nextTurn } from "node:timers/promises";
import type { Db } from "~/platform/db/db.server";
import type { Log } from "~/platform/observe/log.server";
import { startFleetJob } from "~/platform/fleet/job-runs.server";
import type { Repeating } from "~/platform/fleet/schedule.server";
import { audit } from "~/audit/audit.server";
import { systemActor } from "~/audit/actor";
import { deleteEnquiries } from "./enquiries.server";

/**
 * ENQUIRY_RETENTION_DAYS: enquiries (spam included) older than that many days
 * are deleted with their e-mail jobs, once shortly after start and then daily.
 * Off unless set: nothing is deleted that the admin did not ask to delete.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Enquiries per transaction. On SQLite each delete costs ~28 ms at 100,000
 * enquiries (the search index wipes the enquiry's words from its pages,
 * decision 069), on the one connection every request shares: a day's or a
 * backlog's expired enquiries in one transaction would hold the site up for
 * seconds or minutes. Between batches the requests that came meanwhile get a turn.
 */
const RETENTION_BATCH = 20;

/**
 * Deletes the enquiries stored before `now` minus `retentionDays` days, and
 * their e-mail jobs, oldest first, RETENTION_BATCH at a time: each batch in
 * one transaction with its audit entry (how many went); answers how many
 * enquiries went in all. Safe to run from several instances at once: each row
 * goes once, and a run that finds it gone counts nothing for it.
 */
export async function deleteExpiredEnquiries(db: Db, retentionDays: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  let total = 0;
  for (;;) {
    const batch = await db
      .selectFrom("contact_submissions")
      .select("id")
      .where("created_at", "<", cutoff)
      .orderBy("created_at")
      .limit(RETENTION_BATCH)
      .execute();
    if (batch.length === 0) return total;
    const ids = batch.map((row) => row.id);
    const deleted = await deleteEnquiries(
      db,
      (eb) => eb.and([eb("id", "in", ids), eb("created_at", "<", cutoff)]),
      async (trx, deletedIds) => {
        if (deletedIds.length > 0)
          await audit(trx, { actor: systemActor("enquiry retention"), action: "enquiries-expired", details: { count: deletedIds.length }, at: now });
      },
    );
    total += deleted.submissions;
    if (batch.length < RETENTION_BATCH) return total;
    await nextTurn();
  }
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
