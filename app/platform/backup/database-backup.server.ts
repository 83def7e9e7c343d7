// Over 400 lines on purpose: the backup (rows out) and the restore (rows back, schema from our migrations) are the two directions of one format, kept side by side so that neither changes without the other.
import { DatabaseSync } from "node:sqlite";
import { Kysely, SqliteDialect, sql, type Transaction } from "kysely";
import {
  BackupRowsError,
  readRows,
  rowLines,
  timestampAsText,
  type ColumnSchema,
  type ColumnType,
  type RowsEvent,
  type SchemaDescription,
  type TableSchema,
} from "./backup-rows.server";
import type { Database, Db } from "../db/db.server";
import { migrations } from "../db/migrations";
import type { MigrationDialect } from "../db/migrations/types";
import { DERIVED_TABLES, MIGRATION_TABLES, TABLES, type DatabaseSchema } from "../db/schema";
import { SealedFileError } from "./sealed-files.server";
import { openSqlite } from "../db/sqlite-driver.server";

/**
 * A database's rows for a backup, and the way back, the same on SQLite and
 * PostgreSQL: the rows of this code's own tables, column by column, in the
 * format of backup-rows.server.ts, read in one consistent snapshot while the
 * site runs (SQLite: a read transaction; PostgreSQL: a repeatable-read one).
 * A restore never runs anything from the backup: in one transaction it drops
 * this code's tables, builds them again with this code's migrations up to the
 * backup's schema version, copies the rows in, runs the newer migrations and
 * commits, or changes nothing (decision 040, superseding part of 033).
 */
export type SnapshotFacts = {
  /** The migrations applied, in order: the schema's version is the last. */
  migrations: string[];
  /** Rows per table of the schema in the snapshot (those left out count 0). */
  counts: Record<string, number>;
  /** The public data version in the snapshot (undefined before migration 005). */
  publicDataVersion: number | undefined;
  /** The last number each table's counter handed out (site_schedule's ids), by table. */
  sequences: Record<string, number>;
};

export class DatabaseBackupError extends Error {
  override name = "DatabaseBackupError";
}

/** A read-only statement on the snapshot itself. */
export type SnapshotQuery = (text: string) => Promise<Array<Record<string, unknown>>>;

const MIGRATION_TABLE = MIGRATION_TABLES[0];
/** Kysely's record of the migrations run, as it makes it on both databases. */
const MIGRATION_TABLE_SCHEMA: TableSchema = {
  name: MIGRATION_TABLE,
  columns: [
    { name: "name", type: "text", nullable: false },
    { name: "timestamp", type: "text", nullable: false },
  ],
};
/** Functions the migrations create (PostgreSQL), dropped with the tables before a restore. */
const MIGRATION_FUNCTIONS = ["bump_public_data_version()", "enquiry_counts_change()"];
const OUR_TABLES = new Set<string>([...TABLES, MIGRATION_TABLE]);

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A declared column type as the backup's format names it. */
function portableType(declared: string, table: string, column: string): ColumnType {
  const type = declared.toLowerCase();
  if (type === "boolean") return "boolean";
  if (["integer", "bigint", "smallint"].includes(type)) return "integer";
  if (type === "timestamp with time zone") return "timestamp";
  if (type === "text" || type.startsWith("varchar") || type === "character varying") return "text";
  throw new DatabaseBackupError(`${table}.${column} is of a type a backup does not carry (${declared}).`);
}

function sqliteColumns(rows: Array<Record<string, unknown>>, table: string): ColumnSchema[] {
  return rows.map((row) => ({
    name: String(row.name),
    type: portableType(String(row.type), table, String(row.name)),
    // SQLite lets a text primary key hold NULL; this code never does.
    nullable: Number(row.notnull) === 0 && Number(row.pk) === 0,
  }));
}

const known = new Map<string, Promise<SchemaDescription>>();

/**
 * The tables and columns this code's migrations make, up to `names` (which
 * must be the first of them, in order): built in a database in memory, so a
 * backup can be checked without the site. Kysely's own table is included.
 */
export function knownSchema(names: readonly string[]): Promise<SchemaDescription> {
  const key = names.join("\n");
  let found = known.get(key);
  if (!found) {
    found = buildKnownSchema(names);
    known.set(key, found);
  }
  return found;
}

async function buildKnownSchema(names: readonly string[]): Promise<SchemaDescription> {
  const { database, raw } = openSqlite(":memory:");
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) });
  try {
    for (const name of names) {
      const migration = migrations[name];
      if (!migration) throw new DatabaseBackupError(`${name} is not a migration of this code.`);
      await migration.up(db, "sqlite");
    }
    const schema: SchemaDescription = new Map();
    // Real tables only: a search index (a virtual table and its shadow tables, migration 018) is derived data, made again by the migrations.
    const real =
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name in (select name from pragma_table_list where type = 'table') order by rowid";
    for (const row of raw.prepare(real).all()) {
      const table = String(row.name);
      // Nor the inbox's counts (migration 022): derived data, counted again from the rows.
      if ((DERIVED_TABLES as readonly string[]).includes(table)) continue;
      schema.set(table, { name: table, columns: sqliteColumns(raw.prepare("select * from pragma_table_info(?)").all(table), table) });
    }
    schema.set(MIGRATION_TABLE, MIGRATION_TABLE_SCHEMA);
    return schema;
  } finally {
    await db.destroy();
  }
}

export type SnapshotOptions<T> = {
  /** Tables whose rows are left out (the table is written, empty). */
  withoutDataOf: readonly string[];
  /** Reads more from the snapshot, as of the same moment as the rows. */
  read: (query: SnapshotQuery) => Promise<T>;
  /** Takes the backup's rows, text in the format of backup-rows.server.ts. */
  write: (text: string) => Promise<void>;
};

/** What the two databases answer for a snapshot. */
type Snapshot = {
  query: SnapshotQuery;
  tables(): Promise<Set<string>>;
  columnTypes(table: string): Promise<Map<string, ColumnType>>;
  rows(table: string, columns: ReadonlyArray<{ name: string; type: ColumnType }>): AsyncIterable<unknown[]>;
  sequences(tables: ReadonlySet<string>): Promise<Record<string, number>>;
};

/** Writes the rows of every table this code made, from one consistent snapshot taken while the site may run. */
export async function snapshotDatabase<T>(database: Database, options: SnapshotOptions<T>): Promise<{ facts: SnapshotFacts; read: T }> {
  return database.dialect === "sqlite" ? snapshotSqlite(database.sqliteFile!, options) : snapshotPostgres(database.db, options);
}

async function writeSnapshot<T>(snapshot: Snapshot, { withoutDataOf, read, write }: SnapshotOptions<T>): Promise<{ facts: SnapshotFacts; read: T }> {
  const present = await snapshot.tables();
  if (!present.has(MIGRATION_TABLE)) throw new DatabaseBackupError("The database has no schema yet: start the site once, then back it up.");
  const applied = (await snapshot.query(`select name from ${MIGRATION_TABLE} order by name`)).map((row) => String(row.name));
  const schema = await knownSchema(applied);
  const ordered = [...TABLES.filter((table) => schema.has(table)), ...[...schema.keys()].filter((table) => !(TABLES as readonly string[]).includes(table))];
  const counts: Record<string, number> = {};
  for (const table of ordered) {
    if (!present.has(table)) throw new DatabaseBackupError(`The database lacks the table ${table}, which its migrations make.`);
    const live = await snapshot.columnTypes(table);
    // This code's columns only, typed as the database has them.
    const columns = schema.get(table)!.columns.map(({ name }) => {
      const type = live.get(name);
      if (!type) throw new DatabaseBackupError(`The database lacks the column ${table}.${name}, which its migrations make.`);
      return { name, type };
    });
    await write(rowLines.table(table, columns));
    let rows = 0;
    if (!withoutDataOf.includes(table)) {
      for await (const row of snapshot.rows(table, columns)) {
        await write(rowLines.row(row));
        rows++;
      }
    }
    await write(rowLines.end(table, rows));
    if (table !== MIGRATION_TABLE) counts[table] = rows;
  }
  const publicDataVersion = schema.has("public_data_version")
    ? Number((await snapshot.query("select version from public_data_version where id = 1"))[0]?.version ?? 0)
    : undefined;
  const sequences = await snapshot.sequences(new Set(ordered));
  return { facts: { migrations: applied, counts, publicDataVersion, sequences }, read: await read(snapshot.query) };
}

async function snapshotSqlite<T>(file: string, options: SnapshotOptions<T>): Promise<{ facts: SnapshotFacts; read: T }> {
  // A connection of its own, in a read transaction: every read below sees the
  // database as of the first, while the site goes on writing (WAL).
  const connection = new DatabaseSync(file);
  try {
    connection.exec("PRAGMA busy_timeout = 5000");
    connection.exec("BEGIN");
    const query: SnapshotQuery = async (text) => connection.prepare(text).all() as Array<Record<string, unknown>>;
    return await writeSnapshot(
      {
        query,
        tables: async () => new Set((await query("select name from sqlite_master where type = 'table'")).map((row) => String(row.name))),
        columnTypes: async (table) =>
          new Map(sqliteColumns(connection.prepare("select * from pragma_table_info(?)").all(table), table).map((column) => [column.name, column.type])),
        async *rows(table, columns) {
          const statement = connection.prepare(`select ${columns.map((column) => quoted(column.name)).join(", ")} from ${quoted(table)}`);
          statement.setReturnArrays(true);
          const booleans = columns.map((column) => column.type === "boolean");
          for (const row of statement.iterate() as Iterable<unknown[]>) {
            yield row.map((value, index) => (booleans[index] && value !== null ? sqliteBoolean(value, table, columns[index]!.name) : value));
          }
        },
        async sequences(tables) {
          if (!(await this.tables()).has("sqlite_sequence")) return {};
          const rows = await query("select name, seq from sqlite_sequence");
          return Object.fromEntries(rows.filter((row) => tables.has(String(row.name))).map((row) => [String(row.name), Number(row.seq)]));
        },
      },
      options,
    );
  } finally {
    // Closing ends the read transaction.
    connection.close();
  }
}

function sqliteBoolean(value: unknown, table: string, column: string): boolean {
  if (value === 0 || value === 1) return value === 1;
  throw new DatabaseBackupError(`${table}.${column} holds ${JSON.stringify(value)}, which is not true or false.`);
}

async function snapshotPostgres<T>(db: Db, options: SnapshotOptions<T>): Promise<{ facts: SnapshotFacts; read: T }> {
  return db
    .transaction()
    .setIsolationLevel("repeatable read")
    .setAccessMode("read only")
    .execute(async (trx) => {
      const query: SnapshotQuery = async (text) => (await sql.raw<Record<string, unknown>>(text).execute(trx)).rows;
      return writeSnapshot(
        {
          query,
          tables: async () =>
            new Set(
              (await query("select table_name from information_schema.tables where table_schema = current_schema()")).map((row) => String(row.table_name)),
            ),
          columnTypes: async (table) => new Map((await postgresColumns(trx, [table])).get(table)?.columns.map((column) => [column.name, column.type])),
          async *rows(table, columns) {
            // A cursor: the rows come a page at a time, never the whole table at once.
            const selected = columns.map(({ name, type }) =>
              type === "timestamp"
                ? sql`to_char(${sql.ref(name)} at time zone 'UTC', ${sql.lit('YYYY-MM-DD"T"HH24:MI:SS.US"Z"')}) as ${sql.ref(name)}`
                : sql.ref(name),
            );
            await sql`declare backup_rows no scroll cursor for select ${sql.join(selected)} from ${sql.table(table)}`.execute(trx);
            for (;;) {
              const { rows } = await sql.raw<Record<string, unknown>>("fetch 500 from backup_rows").execute(trx);
              for (const row of rows)
                yield columns.map(({ name, type }) => (type === "integer" && typeof row[name] === "string" ? safeInteger(row[name], table, name) : row[name]));
              if (rows.length < 500) break;
            }
            await sql`close backup_rows`.execute(trx);
          },
          async sequences(tables) {
            const sequences: Record<string, number> = {};
            for (const { table, column } of await serialColumns(trx)) {
              if (!tables.has(table)) continue;
              const { rows } = await sql<{
                value: string | null;
              }>`select pg_sequence_last_value(pg_get_serial_sequence(${table}, ${column})::regclass) as value`.execute(trx);
              sequences[table] = Number(rows[0]?.value ?? 0);
            }
            return sequences;
          },
        },
        options,
      );
    });
}

function safeInteger(text: string, table: string, column: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new DatabaseBackupError(`${table}.${column} holds ${text}, beyond the whole numbers a backup carries.`);
  return value;
}

/** Columns numbered by a sequence (serial), in this code's tables. */
async function serialColumns(db: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>): Promise<Array<{ table: string; column: string }>> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and column_default like 'nextval(%'`.execute(db);
  return rows.filter((row) => OUR_TABLES.has(row.table_name)).map((row) => ({ table: row.table_name, column: row.column_name }));
}

async function postgresColumns(db: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>, tables: readonly string[]): Promise<SchemaDescription> {
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>`
    select table_name, column_name, data_type, is_nullable from information_schema.columns
    where table_schema = current_schema() and table_name in (${sql.join(tables)})
    order by table_name, ordinal_position`.execute(db);
  const schema: SchemaDescription = new Map();
  for (const row of rows) {
    const table = schema.get(row.table_name) ?? { name: row.table_name, columns: [] };
    table.columns.push({ name: row.column_name, type: portableType(row.data_type, row.table_name, row.column_name), nullable: row.is_nullable === "YES" });
    schema.set(row.table_name, table);
  }
  return schema;
}

/** This code's tables in the database now (inside the restoring transaction), as a reader of rows expects them. */
async function targetSchema(trx: Transaction<DatabaseSchema>, dialect: MigrationDialect): Promise<SchemaDescription> {
  if (dialect === "postgres") return postgresColumns(trx, [...OUR_TABLES]);
  const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(trx);
  const schema: SchemaDescription = new Map();
  for (const { name } of rows.filter((row) => OUR_TABLES.has(row.name))) {
    const columns = await sql<Record<string, unknown>>`select * from pragma_table_info(${name})`.execute(trx);
    schema.set(name, { name, columns: sqliteColumns(columns.rows, name) });
  }
  return schema;
}

export type RestoreOptions = {
  /** The backup's migrations (the first of this code's, checked by the caller): the schema its rows fit. */
  migrations: readonly string[];
  /** The backup's rows, read (and checked against the manifest) as they are restored. */
  rows: () => AsyncIterable<Uint8Array>;
  /** The backup's counters (site_schedule's ids), so numbers handed out before are not handed out again. */
  sequences: Record<string, number>;
  /** Run last in the restoring transaction (ending sessions, moving the data version). */
  finish: (trx: Transaction<DatabaseSchema>) => Promise<void>;
};

/**
 * Replaces this code's tables with the backup's rows, in one transaction: on
 * any failure (a row the schema refuses, a file that changed since it was
 * checked) the database is as it was. Returns the migrations run after the
 * rows, for a backup older than the code.
 */
export async function restoreDatabase(database: Database, options: RestoreOptions): Promise<string[]> {
  const { dialect } = database;
  const names = Object.keys(migrations);
  const newer = names.slice(options.migrations.length);
  try {
    await database.db.transaction().execute(async (trx) => {
      // The one foreign key (sessions → admins) is checked at the commit.
      if (dialect === "sqlite") await sql`pragma defer_foreign_keys = on`.execute(trx);
      // The derived tables too, with their triggers (the search index's flush, migration 024, names columns the first migrations lack).
      for (const table of [...[...TABLES].reverse(), ...DERIVED_TABLES])
        await sql`drop table if exists ${sql.table(table)}${sql.raw(dialect === "postgres" ? " cascade" : "")}`.execute(trx);
      if (dialect === "postgres") for (const name of MIGRATION_FUNCTIONS) await sql.raw(`drop function if exists ${name} cascade`).execute(trx);
      await sql`delete from ${sql.table(MIGRATION_TABLE)}`.execute(trx);
      // The schema of the backup's version, from this code's own migrations.
      for (const name of options.migrations) await migrations[name]!.up(trx as unknown as Kysely<unknown>, dialect);
      const schema = await targetSchema(trx, dialect);
      // Emptied of what the migrations put in (the data version's row): the backup has its own.
      for (const table of schema.keys()) await sql`delete from ${sql.table(table)}`.execute(trx);
      for await (const event of readRows(options.rows(), schema)) {
        if (event.kind === "rows") await insertRows(trx, dialect, event);
      }
      for (const name of newer) {
        await migrations[name]!.up(trx as unknown as Kysely<unknown>, dialect);
        await sql`insert into ${sql.table(MIGRATION_TABLE)} (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(trx);
      }
      await restoreSequences(trx, dialect, options.sequences);
      await options.finish(trx);
      if (dialect === "sqlite") {
        const broken = (await sql`pragma foreign_key_check`.execute(trx)).rows;
        if (broken.length > 0) throw new DatabaseBackupError(`The backup's rows break ${broken.length} foreign key${broken.length === 1 ? "" : "s"}.`);
      }
    });
  } catch (error) {
    const message =
      error instanceof DatabaseBackupError || error instanceof BackupRowsError || error instanceof SealedFileError
        ? error.message
        : `Restoring into the database failed: ${(error as Error).message}`;
    throw new DatabaseBackupError(`${message} Nothing was restored: the database is as it was.`);
  }
  // Moves the restored pages out of the write-ahead log now, while nobody reads.
  if (dialect === "sqlite") await sql`pragma wal_checkpoint(truncate)`.execute(database.db);
  return newer;
}

async function insertRows(trx: Transaction<DatabaseSchema>, dialect: MigrationDialect, event: Extract<RowsEvent, { kind: "rows" }>): Promise<void> {
  const { table, columns, rows } = event;
  // A timestamp kept as text on SQLite, from a backup that had it as a timestamp, is written as the app writes one.
  const asText = columns.map((column) => dialect === "sqlite" && column.type === "text" && column.given === "timestamp");
  const values = rows.map(
    (row) => sql`(${sql.join(row.map((value, index) => (asText[index] && typeof value === "string" ? timestampAsText(value) : value)))})`,
  );
  await sql`insert into ${sql.table(table.name)} (${sql.join(columns.map((column) => sql.ref(column.name)))}) values ${sql.join(values)}`.execute(trx);
}

async function restoreSequences(trx: Transaction<DatabaseSchema>, dialect: MigrationDialect, recorded: Record<string, number>): Promise<void> {
  if (dialect === "sqlite") {
    // SQLite moved each counter past the ids inserted; the backup's may be further on.
    const present = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'sqlite_sequence'`.execute(trx)).rows;
    if (present.length === 0) return;
    for (const [table, value] of Object.entries(recorded)) {
      if (!(TABLES as readonly string[]).includes(table)) continue;
      await sql`update sqlite_sequence set seq = ${value} where name = ${table} and seq < ${value}`.execute(trx);
      await sql`insert into sqlite_sequence (name, seq) select ${table}, ${value} where not exists (select 1 from sqlite_sequence where name = ${table})`.execute(
        trx,
      );
    }
    return;
  }
  for (const { table, column } of await serialColumns(trx)) {
    const { rows } = await sql<{ top: string | number | null }>`select max(${sql.ref(column)}) as top from ${sql.table(table)}`.execute(trx);
    const value = Math.max(Number(rows[0]?.top ?? 0), recorded[table] ?? 0);
    if (value > 0) await sql`select setval(pg_get_serial_sequence(${table}, ${column}), ${value}, true)`.execute(trx);
    else await sql`select setval(pg_get_serial_sequence(${table}, ${column}), 1, false)`.execute(trx);
  }
}
