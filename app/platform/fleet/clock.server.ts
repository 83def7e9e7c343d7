import { sql } from "kysely";
import type { Database } from "../db/db.server";
import type { Log } from "../observe/log.server";

/**
 * One clock for everything several instances compare: the database's. Each
 * instance reads how far its own clock is from the database's now and then
 * (one query a minute), and adds that to its own time, so a value one
 * instance stamps (the contact form's token) is judged on the same clock by
 * another, without a query per request. On SQLite every instance is on the
 * database's own machine: its clock is the database's.
 */
export type Clock = {
  now(): Date;
  /** How far now() may be off the database's clock: half the round trip of the last reading. */
  readonly uncertaintyMs: number;
};

export const systemClock: Clock = { now: () => new Date(), uncertaintyMs: 0 };

export type DatabaseClock = Clock & { stop(): void };

const RESYNC_MS = 60_000;

export async function startDatabaseClock(database: Database, log: Pick<Log, "error">): Promise<DatabaseClock> {
  if (database.dialect === "sqlite") return { ...systemClock, stop() {} };
  let offsetMs = 0;
  let uncertaintyMs = 0;
  const read = async () => {
    const sent = Date.now();
    const { rows } = await sql<{ now: Date | string }>`select clock_timestamp() as now`.execute(database.db);
    const received = Date.now();
    offsetMs = new Date(rows[0]!.now).getTime() - (sent + received) / 2;
    uncertaintyMs = (received - sent) / 2;
  };
  await read();
  const timer = setInterval(() => {
    // A failed reading keeps the last offset: clocks drift by milliseconds a day.
    read().catch((error: unknown) => log.error(`Could not read the database's clock: ${(error as Error).message}`));
  }, RESYNC_MS);
  timer.unref();
  return {
    now: () => new Date(Date.now() + offsetMs),
    get uncertaintyMs() {
      return uncertaintyMs;
    },
    stop: () => clearInterval(timer),
  };
}
