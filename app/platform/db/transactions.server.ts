import type { Transaction } from "kysely";
import type { Db } from "./db.server";
import type { DatabaseSchema } from "./schema";

/** A transaction on the app's database: what a write that must commit with another is given. */
export type Trx = Transaction<DatabaseSchema>;

/**
 * Runs `work` in a transaction: `db`'s own when it is one already (the caller
 * makes this change part of a larger one), else a new one. Kysely refuses a
 * transaction inside a transaction; this lets a domain function be called on
 * its own or from inside another's transaction alike.
 */
export async function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Trx);
  return db.transaction().execute(work);
}
