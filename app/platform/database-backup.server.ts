import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { ChildProcess } from "node:child_process";
import { sql } from "kysely";
import type { Database, Db } from "./db.server";
import { connectionFor, findPgTool, run } from "./pg-tools.server";
import { MIGRATION_TABLES, TABLES } from "./schema";

/**
 * A database's copy for a backup, and the way back. SQLite: `VACUUM INTO` a
 * single file (a consistent snapshot while the site writes; never a file
 * copy, which could catch a page half-written or miss the write-ahead log).
 * PostgreSQL: `pg_dump -Fc` in the snapshot of a transaction that also counts
 * the rows, so the counts are the dump's. A restore replaces the whole schema
 * in one transaction: it all happens, or nothing does (decision 033).
 */
export type SnapshotFacts = {
  /** The migrations applied, in order: the schema's version is the last. */
  migrations: string[];
  /** Rows per table of the schema in the snapshot. */
  counts: Record<string, number>;
  /** The public data version in the snapshot (undefined before migration 005). */
  publicDataVersion: number | undefined;
};

export class DatabaseBackupError extends Error {
  override name = "DatabaseBackupError";
}

/** Functions the migrations create (PostgreSQL), dropped with the tables before a restore. */
const MIGRATION_FUNCTIONS = ["bump_public_data_version()"];

/** A read-only statement on the snapshot itself. */
export type SnapshotQuery = (text: string) => Promise<Array<Record<string, unknown>>>;
type Query = SnapshotQuery;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function factsOf(query: Query, tables: Set<string>): Promise<SnapshotFacts> {
  const migrations = tables.has("kysely_migration")
    ? (await query("select name from kysely_migration order by name")).map((row) => String(row.name))
    : [];
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    if (tables.has(table)) counts[table] = Number((await query(`select count(*) as n from ${quoted(table)}`))[0]!.n);
  }
  const publicDataVersion = tables.has("public_data_version")
    ? Number((await query("select version from public_data_version where id = 1"))[0]?.version ?? 0)
    : undefined;
  return { migrations, counts, publicDataVersion };
}

function sqliteQuery(connection: DatabaseSync): Query {
  return async (text) => connection.prepare(text).all() as Array<Record<string, unknown>>;
}

function sqliteTables(connection: DatabaseSync, schema = "main"): Set<string> {
  const rows = connection.prepare(`select name from ${schema}.sqlite_master where type = 'table'`).all();
  return new Set(rows.map((row) => String(row.name)));
}

/** Creates `file` for the server's user only; it must not exist. */
async function createPrivateFile(file: string): Promise<void> {
  await (await fs.open(file, "wx", 0o600)).close();
}

async function flushFile(file: string): Promise<void> {
  const handle = await fs.open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export type SnapshotOptions<T> = {
  /** Tables whose rows are left out (their definitions are kept). */
  withoutDataOf: readonly string[];
  /** Reads more from the snapshot, as of the same moment as the copy. */
  read: (query: SnapshotQuery) => Promise<T>;
};

/** Writes a consistent copy of the database to `file` (which must not exist). */
export async function snapshotDatabase<T>(database: Database, file: string, options: SnapshotOptions<T>): Promise<{ facts: SnapshotFacts; read: T }> {
  await createPrivateFile(file);
  const result = database.dialect === "sqlite" ? await snapshotSqlite(database.db, file, options) : await snapshotPostgres(database, file, options);
  await flushFile(file);
  return result;
}

async function snapshotSqlite<T>(db: Db, file: string, { withoutDataOf, read }: SnapshotOptions<T>): Promise<{ facts: SnapshotFacts; read: T }> {
  // VACUUM INTO fills the empty file made above (so it keeps its 0600) from one read transaction.
  await sql`vacuum into ${file}`.execute(db);
  const copy = new DatabaseSync(file);
  try {
    // One self-contained file: readable without a -wal or -shm beside it.
    copy.exec("PRAGMA journal_mode = DELETE");
    // Left-out rows are zeroed, not left in free pages.
    copy.exec("PRAGMA secure_delete = ON");
    const tables = sqliteTables(copy);
    for (const table of withoutDataOf) if (tables.has(table)) copy.exec(`delete from ${quoted(table)}`);
    const query = sqliteQuery(copy);
    return { facts: await factsOf(query, tables), read: await read(query) };
  } finally {
    copy.close();
  }
}

async function serverMajor(db: Db): Promise<number> {
  const { rows } = await sql<{ server_version_num: string }>`show server_version_num`.execute(db);
  return Math.floor(Number(rows[0]!.server_version_num) / 10_000);
}

async function postgresTables(query: Query): Promise<Set<string>> {
  const rows = await query("select table_name from information_schema.tables where table_schema = current_schema()");
  return new Set(rows.map((row) => String(row.table_name)));
}

async function snapshotPostgres<T>(
  database: Database,
  file: string,
  { withoutDataOf, read }: SnapshotOptions<T>,
): Promise<{ facts: SnapshotFacts; read: T }> {
  const pgDump = await findPgTool("pg_dump", await serverMajor(database.db));
  const { dbname, env } = connectionFor(database.postgresUrl!);
  return database.db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const query: Query = async (text) => (await sql.raw<Record<string, unknown>>(text).execute(trx)).rows;
      // pg_dump reads this transaction's snapshot, so it dumps exactly what is counted here.
      const snapshot = String((await query("select pg_export_snapshot() as snapshot"))[0]!.snapshot);
      const facts = await factsOf(query, await postgresTables(query));
      // Counted here, but left out of the dump.
      for (const table of withoutDataOf) if (table in facts.counts) facts.counts[table] = 0;
      const extra = await read(query);
      const dumped = await run(
        pgDump,
        [
          "--format=custom",
          "--no-owner",
          "--no-privileges",
          `--snapshot=${snapshot}`,
          ...withoutDataOf.map((table) => `--exclude-table-data=${table}`),
          `--file=${file}`,
          `--dbname=${dbname}`,
        ],
        { env },
      );
      if (dumped.code !== 0) throw new DatabaseBackupError(`pg_dump failed: ${dumped.stderr.trim()}`);
      return { facts, read: extra };
    });
}

/**
 * What a snapshot file holds, read without restoring it: SQLite checks the
 * file's integrity and counts its rows; PostgreSQL's archive is listed by
 * pg_restore (its rows cannot be counted without restoring it).
 */
export type SnapshotContents =
  | { dialect: "sqlite"; facts: SnapshotFacts }
  | { dialect: "postgres"; tablesWithData: Set<string> };

export async function inspectSnapshot(dialect: Database["dialect"], file: string): Promise<SnapshotContents> {
  if (dialect === "sqlite") {
    let connection: DatabaseSync;
    try {
      connection = new DatabaseSync(file, { readOnly: true });
    } catch (error) {
      throw new DatabaseBackupError(`The database file cannot be opened: ${(error as Error).message}`);
    }
    try {
      const check = connection.prepare("pragma integrity_check").all();
      const verdict = check.map((row) => String(Object.values(row)[0])).join("; ");
      if (verdict !== "ok") throw new DatabaseBackupError(`The database file is damaged: ${verdict}`);
      return { dialect, facts: await factsOf(sqliteQuery(connection), sqliteTables(connection)) };
    } catch (error) {
      if (error instanceof DatabaseBackupError) throw error;
      throw new DatabaseBackupError(`The database file cannot be read: ${(error as Error).message}`);
    } finally {
      connection.close();
    }
  }
  const listed = await run(await findPgTool("pg_restore"), ["--list", file], {});
  if (listed.code !== 0) throw new DatabaseBackupError(`pg_restore cannot read the dump: ${listed.stderr.trim()}`);
  const tablesWithData = new Set<string>();
  for (const line of listed.stdout.split("\n")) {
    const match = /^\d+; \d+ \d+ TABLE DATA \S+ (\S+) /.exec(line);
    if (match) tablesWithData.add(match[1]!);
  }
  return { dialect, tablesWithData };
}

export type RestoreOptions = {
  /** The file's SHA-256 (hex), checked again as it is read for the restore. */
  sha256: string;
  /** Statements run last in the restoring transaction (ending sessions, moving the data version). */
  finish: string[];
};

/**
 * Replaces every table of the database with the snapshot's, in one
 * transaction. On any failure the database is as it was. Migrations are not
 * run here: a snapshot older than the code is brought up to date by the caller.
 */
export async function restoreDatabase(database: Database, file: string, options: RestoreOptions): Promise<void> {
  if (database.dialect === "sqlite") return restoreSqlite(database.sqliteFile!, file, options);
  return restorePostgres(database, file, options);
}

async function copyChecked(from: string, to: string, sha256: string): Promise<void> {
  const hash = createHash("sha256");
  const target = await fs.open(to, "wx", 0o600);
  try {
    for await (const chunk of createReadStream(from)) {
      hash.update(chunk as Buffer);
      await target.write(chunk as Buffer);
    }
  } finally {
    await target.close();
  }
  if (hash.digest("hex") !== sha256) throw new DatabaseBackupError("The database file changed since it was checked: nothing was restored.");
}

async function restoreSqlite(databaseFile: string, file: string, options: RestoreOptions): Promise<void> {
  // A private copy beside the database, checked as it is made: what is restored is what was verified.
  const copy = path.join(path.dirname(databaseFile), `.restore-${randomBytes(8).toString("hex")}.sqlite`);
  try {
    await copyChecked(file, copy, options.sha256);
    const connection = new DatabaseSync(databaseFile);
    try {
      connection.exec("PRAGMA busy_timeout = 5000");
      // The replaced rows are zeroed in the file, as an erasure leaves them (decision 020).
      connection.exec("PRAGMA secure_delete = ON");
      // Tables are dropped and refilled in any order; the keys are checked before the commit.
      connection.exec("PRAGMA foreign_keys = OFF");
      connection.prepare("attach database ? as backup").run(copy);
      try {
        connection.exec("BEGIN IMMEDIATE");
        try {
          replaceSqliteSchema(connection);
          for (const statement of options.finish) connection.exec(statement);
          const broken = connection.prepare("pragma main.foreign_key_check").all();
          if (broken.length > 0) throw new DatabaseBackupError(`The backup's rows break ${broken.length} foreign key${broken.length === 1 ? "" : "s"}: nothing was restored.`);
          connection.exec("COMMIT");
        } catch (error) {
          connection.exec("ROLLBACK");
          if (error instanceof DatabaseBackupError) throw error;
          throw new DatabaseBackupError(`Restoring into SQLite failed, nothing was restored: ${(error as Error).message}`);
        }
      } finally {
        connection.exec("DETACH DATABASE backup");
      }
      // Move the restored pages out of the write-ahead log now, while nobody reads.
      connection.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } finally {
      connection.close();
    }
  } finally {
    await fs.rm(copy, { force: true });
  }
}

function replaceSqliteSchema(connection: DatabaseSync): void {
  const objects = (schema: string) =>
    connection
      .prepare(`select type, name, sql from ${schema}.sqlite_master where name not like 'sqlite_%' and sql is not null order by rowid`)
      .all()
      .map((row) => ({ type: String(row.type), name: String(row.name), sql: String(row.sql) }));
  // Dropping a table drops its indexes and triggers.
  for (const object of objects("main")) {
    if (object.type === "table" || object.type === "view") connection.exec(`drop ${object.type} if exists main.${quoted(object.name)}`);
  }
  const saved = objects("backup");
  // Tables first, filled before their triggers exist (so restoring is not a write the triggers count).
  for (const object of saved.filter((entry) => entry.type === "table")) {
    connection.exec(object.sql);
    connection.exec(`insert into main.${quoted(object.name)} select * from backup.${quoted(object.name)}`);
  }
  if (sqliteTables(connection, "backup").has("sqlite_sequence")) {
    connection.exec("delete from main.sqlite_sequence");
    connection.exec("insert into main.sqlite_sequence select * from backup.sqlite_sequence");
  }
  for (const object of saved.filter((entry) => entry.type !== "table")) connection.exec(object.sql);
}

async function restorePostgres(database: Database, file: string, options: RestoreOptions): Promise<void> {
  const major = await serverMajor(database.db);
  const [pgRestore, psql] = [await findPgTool("pg_restore", major), await findPgTool("psql", major)];
  const { dbname, env } = connectionFor(database.postgresUrl!);
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  if (hash.digest("hex") !== options.sha256) throw new DatabaseBackupError("The database file changed since it was checked: nothing was restored.");

  // One transaction: the app's tables (this code's, and the backup's) are
  // dropped and the dump's recreated and filled; COMMIT is sent only when
  // pg_restore has written all of it. Otherwise psql is stopped, and
  // PostgreSQL rolls the transaction back.
  const dropped = [...TABLES, ...MIGRATION_TABLES].map(quoted).join(", ");
  const prelude = [
    "BEGIN;",
    `DROP TABLE IF EXISTS ${dropped} CASCADE;`,
    ...MIGRATION_FUNCTIONS.map((name) => `DROP FUNCTION IF EXISTS ${name} CASCADE;`),
    "",
  ].join("\n");
  // pg_restore's script empties search_path; the finishing statements name tables as the app does.
  const postlude = ["", "RESET search_path;", ...options.finish.map((statement) => `${statement};`), "COMMIT;", ""].join("\n");

  let psqlChild: ChildProcess | undefined;
  let restoreChild: ChildProcess | undefined;
  const psqlRun = run(psql, ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", "-", `--dbname=${dbname}`], {
    env,
    started: (child) => {
      psqlChild = child;
      child.stdin!.on("error", () => {}); // psql stopping on an error closes its stdin: its own exit says why
      child.stdin!.write(prelude);
    },
  });
  const restoreRun = run(pgRestore, ["--no-owner", "--no-privileges", "--clean", "--if-exists", "--file=-", file], {
    env,
    collectStdout: false,
    started: (child) => {
      restoreChild = child;
      child.stdin!.end();
      child.stdout!.pipe(psqlChild!.stdin!, { end: false });
    },
  });
  // psql stopped on an error: pg_restore, no longer read, must not wait for it forever.
  const stopRestore = () => {
    if (restoreChild?.exitCode === null) restoreChild.kill("SIGKILL");
  };
  void psqlRun.then(stopRestore, stopRestore);
  const restored = await restoreRun;
  if (restored.code === 0) psqlChild!.stdin!.end(postlude);
  else psqlChild!.kill("SIGKILL");
  const applied = await psqlRun;
  if (restored.code !== 0) throw new DatabaseBackupError(`pg_restore failed, nothing was restored: ${restored.stderr.trim()}`);
  if (applied.code !== 0) throw new DatabaseBackupError(`Restoring into PostgreSQL failed, nothing was restored: ${applied.stderr.trim()}`);
}
