import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * Kysely's SqliteDialect expects a better-sqlite3-shaped object. node:sqlite is
 * built into Node, so nothing native has to be compiled on install; this is the
 * thin adapter between the two.
 */
export function openSqlite(file: string): { database: SqliteDatabase; raw: DatabaseSync } {
  const raw = new DatabaseSync(file);
  // WAL lets readers run while an enquiry is being written. synchronous=FULL
  // fsyncs the WAL at every commit, so an acknowledged enquiry survives a
  // kill -9 and a power cut alike (docs/decisions/003-sqlite-durability.md).
  raw.exec("PRAGMA journal_mode = WAL");
  raw.exec("PRAGMA synchronous = FULL");
  raw.exec("PRAGMA busy_timeout = 5000");
  raw.exec("PRAGMA foreign_keys = ON");

  // Queries repeat (the same few statements all day), so keep them prepared.
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = raw.prepare(sql);
      if (statements.size >= 500) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };

  const database: SqliteDatabase = {
    close: () => {
      statements.clear();
      if (raw.isOpen) raw.close();
    },
    prepare: (sql: string): SqliteStatement => {
      const statement = prepare(sql);
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...toSqliteValues(parameters)),
        run: (parameters) => statement.run(...toSqliteValues(parameters)),
        iterate: (parameters) => statement.iterate(...toSqliteValues(parameters)),
      };
    },
  };
  return { database, raw };
}

/** node:sqlite binds numbers, strings, bigints, buffers and null; map the rest. */
function toSqliteValues(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value): SQLInputValue => {
    if (typeof value === "boolean") return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    if (value === undefined) return null;
    return value as SQLInputValue;
  });
}
