import { sql } from "kysely";
import type { Db } from "../db/db.server";
import { toIsoString } from "../db/db-values";
import type { Log } from "../observe/log.server";

/**
 * What the limits held or turned away, for the dashboard, without a row per
 * request (decision 037). One row per bucket and 15-minute period
 * (`limit_counts`, migration 011) holds the count. Refusals are counted in
 * this process's memory and added to their row at most every few seconds
 * (one UPDATE for however many arrived); an enquiry held in a flood is
 * counted in its own transaction, since it writes rows anyway.
 */
export type TallyBucket =
  /** Stored over CONTACT_SITE_LIMIT: held apart, no e-mail of its own. */
  | "contact-held"
  /** Turned away over CONTACT_HARD_LIMIT. */
  | "contact-refused-ceiling"
  /** Turned away over CONTACT_RATE_LIMIT (one connection). */
  | "contact-refused-address"
  /** A sign-in turned away because every password-hash slot was busy. */
  | "sign-in-refused-busy"
  /** A sign-in turned away by the sign-in limits (per address, per e-mail, the lockout). */
  | "sign-in-refused-limit"
  /** A password-reset request turned away by its limits (per address, per client address). */
  | "password-reset-refused"
  /** An invitation's page turned away: too many links that name no invitation from one address. */
  | "join-refused-limit";

/** The period one row counts: also the flood summary's window (enquiries/flood.server.ts). */
export const TALLY_PERIOD_MS = 15 * 60_000;
/** Counts older than this are deleted with the rate-limit events (rate-limit.server.ts): the dashboard shows a day. */
export const TALLY_KEPT_MS = 24 * 60 * 60_000 + TALLY_PERIOD_MS;
/** How long a refusal waits in memory before it is written: the most a dashboard on another instance lags behind. */
export const TALLY_FLUSH_MS = 5_000;

export function periodStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / TALLY_PERIOD_MS) * TALLY_PERIOD_MS);
}

/**
 * Adds `by` to the bucket's count for the period of `last`, in one upsert
 * (`db` may be a transaction); answers the period's count after it.
 */
export async function addToTally(db: Db, bucket: TallyBucket, last: Date, by = 1): Promise<number> {
  const row = await db
    .insertInto("limit_counts")
    .values({ bucket, period_start: periodStart(last).toISOString(), count: by, last_at: last.toISOString() })
    .onConflict((conflict) =>
      conflict.columns(["bucket", "period_start"]).doUpdateSet((eb) => ({
        count: eb("limit_counts.count", "+", eb.ref("excluded.count")),
        last_at: sql`case when excluded.last_at > limit_counts.last_at then excluded.last_at else limit_counts.last_at end`,
      })),
    )
    .returning("count")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export type TallyTotals = Partial<Record<TallyBucket, { count: number; last: Date }>>;

/** Per bucket, what was counted in the periods that began at or after `since`; buckets with nothing are absent. */
export async function readTally(db: Db, since: Date): Promise<TallyTotals> {
  const rows = await db
    .selectFrom("limit_counts")
    .select((eb) => ["bucket", eb.fn.sum<number | string>("count").as("count"), eb.fn.max("last_at").as("last")])
    .where("period_start", ">=", periodStart(since).toISOString())
    .groupBy("bucket")
    .execute();
  const totals: TallyTotals = {};
  for (const row of rows) {
    const count = Number(row.count);
    if (count > 0) totals[row.bucket as TallyBucket] = { count, last: new Date(toIsoString(row.last as Date | string)) };
  }
  return totals;
}

/** Deletes the counts of periods no dashboard shows any more. */
export async function pruneTally(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom("limit_counts")
    .where("period_start", "<", new Date(now.getTime() - TALLY_KEPT_MS).toISOString())
    .execute();
}

/** Counts in this process's memory, written as one aggregate per bucket and period. */
export type Tally = {
  /** Counts one event now; written within TALLY_FLUSH_MS. */
  count(bucket: TallyBucket, at: Date): void;
  /** Writes what is counted so far (the dashboard calls it before reading, so its own instance is exact). */
  flush(): Promise<void>;
  /** Writes what is left; nothing is counted after. */
  stop(): Promise<void>;
};

type Pending = { bucket: TallyBucket; last: Date; count: number };

export function createTally(db: Db, log: Pick<Log, "error">, { flushMs = TALLY_FLUSH_MS }: { flushMs?: number } = {}): Tally {
  let pending = new Map<string, Pending>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let lastError: string | undefined;
  let stopped = false;

  const add = (entry: Pending) => {
    const key = `${entry.bucket} ${periodStart(entry.last).getTime()}`;
    const known = pending.get(key);
    if (!known) pending.set(key, { ...entry });
    else {
      known.count += entry.count;
      if (entry.last > known.last) known.last = entry.last;
    }
  };

  const write = async () => {
    const batch = [...pending.values()];
    pending = new Map();
    for (const [index, entry] of batch.entries()) {
      try {
        await addToTally(db, entry.bucket, entry.last, entry.count);
        lastError = undefined;
      } catch (error) {
        // Kept for the next write (the database may be restarting); counts older than the dashboard's day are let go.
        const reason = error instanceof Error ? error.message : String(error);
        if (reason !== lastError) log.error(`Could not write the counts of refused requests: ${reason}`);
        lastError = reason;
        const kept = Date.now() - TALLY_KEPT_MS;
        for (const left of batch.slice(index)) if (left.last.getTime() > kept) add(left);
        schedule();
        return;
      }
    }
  };

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    // One write at a time, in order: a flush waits for the one before it.
    writing = writing.then(write);
    return writing;
  };

  function schedule() {
    if (timer || stopped) return;
    timer = setTimeout(() => void flush(), flushMs);
    timer.unref();
  }

  return {
    count(bucket, at) {
      if (stopped) return;
      add({ bucket, last: at, count: 1 });
      schedule();
    },
    flush,
    async stop() {
      stopped = true;
      await flush();
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
