import { closeSync, openSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import type { Log } from "../observe/log.server";

/**
 * "Is the site running?", asked by `npm run admin -- restore`, which must not
 * replace a database under a server's feet. Every server holds a shared lock
 * for as long as it runs; a restore takes the lock exclusively, so it is
 * refused while any server holds it, and a server cannot start while a
 * restore holds it. Both locks are the operating system's or the database
 * server's, released when the process or its connection ends: a crashed
 * server never leaves the site "running" (decision 033).
 *
 * - SQLite: a read transaction held open on a small SQLite file beside the
 *   database (DATA_DIR/site.lock): SQLite's own file locks, shared by
 *   readers, exclusive for `BEGIN EXCLUSIVE`.
 * - PostgreSQL: an advisory lock on the database, held by one connection of
 *   each server (shared) or of the restore (exclusive).
 */
export type SiteLockMode = "running" | "restoring";

export type SiteLock = { release(): Promise<void> };

/** The lock is held the other way: a server runs (for a restore), or a restore runs (for a server). */
export class SiteLockBusy extends Error {
  override name = "SiteLockBusy";
  constructor(readonly wanted: SiteLockMode) {
    super(
      wanted === "restoring"
        ? "The site is running: a server holds this database. Stop every instance of the site, then restore."
        : "A restore (npm run admin -- restore) is replacing this database: start the server again when it has finished.",
    );
  }
}

export function lockSqliteSite(file: string, mode: SiteLockMode): SiteLock {
  // Created like the database: the server's user only (decision 021).
  closeSync(openSync(file, "a", 0o600));
  const connection = new DatabaseSync(file);
  try {
    connection.exec("PRAGMA busy_timeout = 0");
    // A deferred transaction takes SQLite's shared lock at its first read and
    // keeps it until it ends; BEGIN EXCLUSIVE needs every other lock gone.
    connection.exec(mode === "running" ? "BEGIN; SELECT count(*) FROM sqlite_master;" : "BEGIN EXCLUSIVE");
  } catch (error) {
    connection.close();
    if (/database is locked|busy/i.test((error as Error).message)) throw new SiteLockBusy(mode);
    throw error;
  }
  return {
    async release() {
      // Closing ends the transaction and with it the lock.
      if (connection.isOpen) connection.close();
    },
  };
}

/** The advisory lock's key: one bigint, the same for every instance of the site. */
const SITE_LOCK_KEY = "7033001";

type PgClient = import("pg").Client;

/** How soon a server whose lock connection ended tries to take the lock again, and again while it cannot. */
const RETAKE_EVERY_MS = 1_000;

export async function lockPostgresSite(url: string, mode: SiteLockMode, log: Pick<Log, "error" | "info">): Promise<SiteLock> {
  const { default: pg } = await import("pg");
  const take = async (): Promise<PgClient> => {
    // keepAlive: a peer that vanished (a failover, a cut network) ends the connection, and so starts the retake.
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    // An error on an idle connection must not crash the process; "end" below says what it means.
    client.on("error", () => {});
    await client.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>(
        mode === "running" ? "select pg_try_advisory_lock_shared($1::bigint) as locked" : "select pg_try_advisory_lock($1::bigint) as locked",
        [SITE_LOCK_KEY],
      );
      if (!rows[0]?.locked) throw new SiteLockBusy(mode);
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  };

  let client = await take();
  let released = false;
  let retry: NodeJS.Timeout | undefined;
  // A server whose lock connection ends (PostgreSQL restarted, a failover,
  // pg_terminate_backend) no longer says it runs: it takes the lock again, every
  // second until it can, and says so once each way. A restore's dropped
  // connection makes its own statements fail, which it reports.
  const watch = (held: PgClient) => {
    held.once("end", () => {
      if (released || mode !== "running") return;
      log.error("Lost the database connection that tells a restore this server is running; taking the lock again.");
      let lastFailure: string | undefined;
      const again = () => {
        retry = undefined;
        if (released) return;
        take().then(
          (taken) => {
            if (released) return void taken.end().catch(() => {});
            client = taken;
            watch(taken);
            log.info("Took the running-site lock again: a restore is refused while this server runs.");
          },
          (error: unknown) => {
            const reason = (error as Error).message;
            if (reason !== lastFailure) log.error(`Could not take the running-site lock again (${reason}); trying every ${RETAKE_EVERY_MS / 1000} s.`);
            lastFailure = reason;
            retry = setTimeout(again, RETAKE_EVERY_MS);
            retry.unref();
          },
        );
      };
      again();
    });
  };
  watch(client);
  return {
    async release() {
      released = true;
      if (retry) clearTimeout(retry);
      // Ending the session releases its advisory locks.
      await client.end().catch(() => {});
    },
  };
}
