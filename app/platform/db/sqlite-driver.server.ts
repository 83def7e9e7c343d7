import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { SqliteAdapter, SqliteDialect, type DialectAdapter, type SqliteDatabase, type SqliteStatement } from "kysely";

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
  // Deleted rows are overwritten with zeros, not left in free space: an erased
  // enquiry (UK GDPR) must not survive in the file (decision 020).
  raw.exec("PRAGMA secure_delete = ON");

  // Queries repeat (the same few statements all day), so keep them prepared.
  const statements = new Map<string, { statement: StatementSync; reader: boolean }>();
  const prepare = (sql: string) => {
    let prepared = statements.get(sql);
    if (!prepared) {
      const statement = raw.prepare(sql);
      prepared = { statement, reader: statement.columns().length > 0 };
      if (statements.size >= 500) statements.clear();
      statements.set(sql, prepared);
    }
    return prepared;
  };

  const database: SqliteDatabase = {
    close: () => {
      statements.clear();
      if (raw.isOpen) raw.close();
    },
    prepare: (sql: string): SqliteStatement => {
      // Kysely opens transactions with a plain (deferred) "begin": one that reads
      // first and writes later fails at once with "database is locked" if another
      // connection (the admin CLI, a test fixture) committed in between. BEGIN
      // IMMEDIATE takes the write lock up front, so busy_timeout waits instead.
      // SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR,
      // SQLITE_NOMEM, SQLITE_BUSY mid-write). Kysely then sends "rollback", which
      // would fail with "cannot rollback - no transaction is active" and replace
      // the error that says what happened; with nothing to roll back, it does nothing.
      if (sql === "rollback" && !raw.isTransaction) return NOTHING_TO_ROLL_BACK;
      const { statement, reader } = prepare(sql === "begin" ? "begin immediate" : sql);
      return {
        reader,
        all: (parameters) => statement.all(...toSqliteValues(parameters)),
        run: (parameters) => statement.run(...toSqliteValues(parameters)),
        iterate: (parameters) => statement.iterate(...toSqliteValues(parameters)),
      };
    },
  };
  return { database, raw };
}

const NOTHING_TO_ROLL_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/** node:sqlite binds numbers, strings, bigints, buffers and null; map the rest. */
export function toSqliteValues(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value): SQLInputValue => {
    if (typeof value === "boolean") return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    if (value === undefined) return null;
    return value as SQLInputValue;
  });
}

/**
 * Kysely's SqliteDialect, but saying what SQLite does: DDL is transactional (a CREATE, ALTER or
 * DROP inside BEGIN … ROLLBACK is undone). Kysely's own adapter says it is not, so its Migrator
 * ran each statement of each migration as a commit of its own, and a migration that failed
 * half-way left a half-migrated schema behind. Told the truth, the Migrator runs all pending
 * migrations in one transaction, as it does on PostgreSQL (decision 080). Nothing else in Kysely
 * reads this.
 */
export class SqliteDialectWithTransactionalDdl extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter();
  }
}

class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
