import { DatabaseSync } from "node:sqlite";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { CompiledQuery } from "kysely";
import type { Pool } from "pg";
import type { DatabaseHealth } from "./database-health.server";
import type { Database } from "./db.server";
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
 * PostgreSQL: a client of the app's pool, in one REPEATABLE READ READ ONLY
 * transaction, the rows fetched from a cursor a chunk at a time, the next
 * chunk asked for as soon as one arrives. pg's own client, not Kysely's
 * (decision 073): rows as arrays and every value as PostgreSQL's text, where
 * Kysely's objects, pg's parsed values and turning them back into arrays were
 * a third of an export's time.
 *
 * Queries are built with Kysely on the app's `db` and compiled; each row is an
 * array of the selected columns' values, in their order: on SQLite as
 * node:sqlite gives them, on PostgreSQL as text ("t"/"f" for a boolean;
 * db-values.ts turns either into one shape).
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

export function snapshotReads(database: Pick<Database, "sqliteFile" | "postgresPool" | "health">): SnapshotReads {
  const { sqliteFile, postgresPool, health } = database;
  if (sqliteFile) return { open: async () => sqliteSnapshot(sqliteFile) };
  if (!postgresPool) throw new Error("A snapshot read needs the SQLite file or PostgreSQL's pool.");
  return { open: () => postgresSnapshot(postgresPool, health) };
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

/** Every value as PostgreSQL writes it, text (null stays null): the export formats it once, with no Date or number made on the way. */
const AS_TEXT = { getTypeParser: () => (value: string) => value };

async function postgresSnapshot(pool: () => Promise<Pool>, health: DatabaseHealth): Promise<SnapshotRead> {
  // A client of the app's pool: its "error" listener (db.server.ts) is on it while it is held, so a restart never ends the process.
  const client = await (await pool()).connect();
  let failure: unknown;
  const query = async (text: string, values: readonly unknown[] = []): Promise<unknown[][]> => {
    try {
      const result = await client.query<unknown[]>({ text, values: [...values], rowMode: "array", types: AS_TEXT });
      health.answered(false);
      return result.rows;
    } catch (error) {
      failure ??= error;
      health.failed(error);
      throw error;
    }
  };
  try {
    await query("begin isolation level repeatable read read only");
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  let cursors = 0;
  let closed = false;
  return {
    all: (compiled) => query(compiled.sql, compiled.parameters),
    async *chunks(compiled, chunkRows) {
      const cursor = `snapshot_read_${++cursors}`;
      await query(`declare ${cursor} no scroll cursor for ${compiled.sql}`, compiled.parameters);
      const fetch = `fetch forward ${Math.trunc(chunkRows)} from ${cursor}`;
      const fetchNext = () => {
        const fetched = query(fetch);
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
      if (closed) return;
      closed = true;
      // Read only: nothing to keep, so a rollback ends it. A client that failed, or fails to roll back, is dropped, not reused.
      try {
        if (failure === undefined) await client.query("rollback");
        client.release(failure === undefined ? undefined : true);
      } catch (error) {
        client.release(true);
        throw error;
      }
    },
  };
}
