import type { Db } from "./db.server";

/**
 * Runs `work` in a transaction: the caller's, when `db` is one already, or a
 * new one. So a domain function that must change several rows together can
 * also be called inside a caller's transaction that records the change (the
 * audit log), and both are committed or neither. Kysely refuses to open a
 * transaction inside another, and on SQLite a second one would wait on the
 * first for ever.
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
