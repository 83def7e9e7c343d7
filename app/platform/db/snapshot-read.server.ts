import { DatabaseSync } from "node:sqlite";
import { setImmediate as nextTurn } from "node:timers/promises";
import { CompiledQuery, type ControlledTransaction } from "kysely";
import type { Database } from "./db.server";
import type { DatabaseSchema } from "./schema";
import { toSqliteValues } from "./sqlite-driver.server";

/**
 * A long read that sees the database as it was when it began (decision 064):
 * every query of it reads one snapshot, so rows written, changed or deleted
 * meanwhile neither show twice, nor go missing, nor change half-way through.
 * For an export of every enquiry, streamed out as it is read.
 *
 * SQLite: a read-only connection of its own, opened for this read, in one
 * deferred transaction (WAL: the snapshot of its first read). Never the app's
 * one connection, which every request shares: reading 100,000 rows there would
 * hold all of them up. Rows come from one statement, a chunk at a time, with a
 * turn of the event loop between chunks.
 * PostgreSQL: a connection of the pool, in one REPEATABLE READ READ ONLY
 * transaction, the rows fetched from a cursor a chunk at a time, the next
 * chunk asked for as soon as one arrives.
 *
 * Queries are built with Kysely on the app's `db` and compiled; each row is an
 * array of the selected columns' values, in their order, as the driver gives
 * them (db-values.ts turns dates and booleans into one shape).
 */
export type SnapshotRead = {
  /** Every row of a small query (a count). */
  all(query: CompiledQuery): Promise<unknown[][]>;
  /** The rows of `query`, `chunkRows` at a time; only one such read at a time. */
  chunks(query: CompiledQuery, chunkRows: number): AsyncIterable<unknown[][]>;
  /** Ends the read (the transaction, and on SQLite its connection). Safe to call more than once. */
  close(): Promise<void>;
};

export type SnapshotReads = { open(): Promise<SnapshotRead> };

export function snapshotReads(database: Pick<Database, "db" | "sqliteFile">): SnapshotReads {
  const { sqliteFile } = database;
  if (sqliteFile) return { open: async () => sqliteSnapshot(sqliteFile) };
  return { open: () => postgresSnapshot(database.db) };
}

function sqliteSnapshot(file: string): SnapshotRead {
  const connection = new DatabaseSync(file, { readOnly: true });
  try {
    connection.exec("PRAGMA busy_timeout = 5000");
    connection.exec("BEGIN");
  } catch (error) {
    connection.close();
    throw error;
  }
  const statement = (query: CompiledQuery) => {
    const prepared = connection.prepare(query.sql);
    prepared.setReturnArrays(true);
    return prepared;
  };
  return {
    all: async (query) => statement(query).all(...toSqliteValues(query.parameters)) as unknown as unknown[][],
    async *chunks(query, chunkRows) {
      const rows = statement(query).iterate(...toSqliteValues(query.parameters)) as Iterator<unknown[]>;
      for (;;) {
        const chunk: unknown[][] = [];
        let next = rows.next();
        while (!next.done) {
          chunk.push(next.value);
          if (chunk.length === chunkRows) break;
          next = rows.next();
        }
        if (chunk.length > 0) yield chunk;
        if (next.done) return;
        // The statement runs on this thread: let the requests that came meanwhile have a turn.
        await nextTurn();
      }
    },
    close: async () => {
      if (connection.isOpen) connection.close();
    },
  };
}

async function postgresSnapshot(db: Database["db"]): Promise<SnapshotRead> {
  const trx: ControlledTransaction<DatabaseSchema> = await db.startTransaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute();
  let cursors = 0;
  const rows = async (query: CompiledQuery) => (await trx.executeQuery<Record<string, unknown>>(query)).rows.map((row) => Object.values(row));
  return {
    all: rows,
    async *chunks(query, chunkRows) {
      const cursor = `snapshot_read_${++cursors}`;
      await trx.executeQuery(CompiledQuery.raw(`declare ${cursor} no scroll cursor for ${query.sql}`, [...query.parameters]));
      const fetch = CompiledQuery.raw(`fetch forward ${Math.trunc(chunkRows)} from ${cursor}`);
      const fetchNext = () => {
        const fetched = rows(fetch);
        // Awaited below, unless the reader stops first (the read is closed, and this fails or is dropped).
        fetched.catch(() => {});
        return fetched;
      };
      let next = fetchNext();
      for (;;) {
        const chunk = await next;
        const more = chunk.length === chunkRows;
        // The database sends the next chunk while the reader deals with this one.
        if (more) next = fetchNext();
        if (chunk.length > 0) yield chunk;
        if (!more) return;
      }
    },
    close: async () => {
      // Read only: nothing to keep, so a rollback ends it; a connection gone meanwhile ends it too.
      if (!trx.isCommitted && !trx.isRolledBack) await trx.rollback().execute();
    },
  };
}
