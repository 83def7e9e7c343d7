import type { Db } from "../db/db.server";
import { startRepeating, type Repeating } from "./schedule.server";

/**
 * Claims this run of a job the fleet does once: true for exactly one of the
 * instances that ask at the same time, once the job is due, and then for
 * none until `everyMs` later. The claim is one UPDATE of the job's row (taken
 * only where next_run_at has come), so two instances cannot both win it, on
 * SQLite or PostgreSQL. `now` is the database's clock in the server, which
 * every instance shares.
 */
export async function claimJobRun(db: Db, name: string, everyMs: number, now: Date): Promise<boolean> {
  await db
    .insertInto("job_runs")
    .values({ name, next_run_at: new Date(0).toISOString() })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const claimed = await db
    .updateTable("job_runs")
    .set({ next_run_at: new Date(now.getTime() + everyMs).toISOString() })
    .where("name", "=", name)
    .where("next_run_at", "<=", now.toISOString())
    .returning("name")
    .executeTakeFirst();
  return claimed !== undefined;
}

/**
 * Gives a claimed run back (its work failed), so the next check on any
 * instance tries again. With `claimed` (when and for how long), only while the claim made then is
 * still the latest: a run given back late must not undo a claim another
 * instance made since.
 */
export async function releaseJobRun(db: Db, name: string, now: Date, claimed?: { at: Date; everyMs: number }): Promise<void> {
  let release = db.updateTable("job_runs").set({ next_run_at: now.toISOString() }).where("name", "=", name);
  if (claimed) release = release.where("next_run_at", "=", new Date(claimed.at.getTime() + claimed.everyMs).toISOString());
  await release.execute();
}

export type FleetJobOptions = {
  db: Db;
  /** The job's name, the same on every instance. */
  name: string;
  /** How often the fleet runs it. */
  everyMs: number;
  /** The first check after start. */
  firstAfterMs: number;
  now: () => Date;
};

/**
 * Runs `task` every `everyMs` across the fleet: each instance checks at most
 * every 10 minutes (or every `everyMs`, if shorter) and runs the task only
 * when it claims the run. A task that throws gives its run back and the error
 * goes up to the caller's handler through `onError`. When giving it back fails
 * too (the database went away mid-run: a restart, a failover), it is given
 * back at the next check, so the run is not lost until the next period.
 */
export function startFleetJob(
  { db, name, everyMs, firstAfterMs, now }: FleetJobOptions,
  task: () => Promise<void>,
  onError: (error: unknown) => void,
): Repeating {
  let owed: Date | undefined;
  return startRepeating(
    async () => {
      const at = now();
      try {
        if (owed) {
          await releaseJobRun(db, name, at, { at: owed, everyMs });
          owed = undefined;
        }
        if (!(await claimJobRun(db, name, everyMs, at))) return;
      } catch (error) {
        onError(error);
        return;
      }
      try {
        await task();
      } catch (error) {
        onError(error);
        await releaseJobRun(db, name, now(), { at, everyMs }).catch(() => (owed = at));
      }
    },
    { firstAfterMs, everyMs: Math.min(everyMs, 10 * 60_000) },
  );
}
