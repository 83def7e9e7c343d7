import { DatabaseSync, type StatementSync } from "node:sqlite";
import { sql } from "kysely";
import type { Database, Db } from "./db.server";

/**
 * The version of the data public pages show: it changes in the same
 * transaction as every write to those tables (migration 005's triggers). A
 * response built after reading version n shows data at least as new as n, so
 * it may be reused for as long as the version still reads n.
 */
export async function publicDataVersion(db: Db): Promise<number> {
  const { rows } = await sql<{ version: number | string }>`select version from public_data_version where id = 1`.execute(db);
  return versionOf(rows[0]);
}

function versionOf(row: { version?: unknown } | undefined): number {
  const version = row?.version;
  if (version === undefined) throw new Error("public_data_version has no row: the database is not migrated");
  return Number(version);
}

/** The version as the cached pages read it on every request (services.publicVersion). */
export type PublicVersionReader = { read(): Promise<number>; close(): void };

/**
 * The version for the requests of one turn of the event loop: the requests
 * that arrive together share one read, made after the last of them arrived
 * (setImmediate), so each still sees every write committed before it came.
 * On SQLite the read is one prepared statement on a connection of its own,
 * opened at the first read (after the migrations): it sees only committed
 * data, never waits behind a transaction another request holds open on the
 * main connection, and skips Kysely's per-query work (a tenth of a cached
 * page's cost). On PostgreSQL it is publicDataVersion on the pool.
 */
export function publicVersionReader(database: Pick<Database, "db" | "sqliteFile">): PublicVersionReader {
  let connection: DatabaseSync | undefined;
  let statement: StatementSync | undefined;
  const readNow = (): number | Promise<number> => {
    if (!database.sqliteFile) return publicDataVersion(database.db);
    if (!statement) {
      connection = new DatabaseSync(database.sqliteFile);
      connection.exec("PRAGMA busy_timeout = 5000");
      statement = connection.prepare("select version from public_data_version where id = 1");
    }
    return versionOf(statement.get() as { version?: unknown } | undefined);
  };
  let next: Promise<number> | undefined;
  return {
    read: () =>
      (next ??= new Promise<number>((resolve, reject) =>
        setImmediate(() => {
          // Requests from here on wait for the next read: this one may have started before they came.
          next = undefined;
          try {
            resolve(readNow());
          } catch (error) {
            reject(error);
          }
        }),
      )),
    close() {
      statement = undefined;
      if (connection?.isOpen) connection.close();
    },
  };
}
