import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import type { Pool } from "pg";
import { Kysely, PostgresAdapter, PostgresDialect, sql } from "kysely";
import { Migrator, type Migration, type MigrationResult } from "kysely/migration";
import { migrations } from "./migrations";
import type { AppMigration, MigrationDialect } from "./migrations/types";
import type { DatabaseSchema } from "./schema";
import { createDatabaseHealth, isDiskFull, watchedDialect, type DatabaseHealth } from "./database-health.server";
import { lockPostgresSite, lockSqliteSite, type SiteLock, type SiteLockMode } from "./site-lock.server";
import type { Log } from "../observe/log.server";
import { SqliteDialectWithTransactionalDdl, openSqlite } from "./sqlite-driver.server";
import { startFromTemplate } from "./new-database.server";

export type Db = Kysely<DatabaseSchema>;

export type Database = {
  db: Db;
  dialect: MigrationDialect;
  /** A human-readable description for logs, never including a password. */
  description: string;
  /**
   * Says this process runs the site ("running", shared by every server) or
   * replaces its data ("restoring", alone); throws SiteLockBusy when the other
   * is held (site-lock.server.ts).
   */
  lockSite(mode: SiteLockMode): Promise<SiteLock>;
  /** A database that could not be reached, a full disk: what this process saw lately (database-health.server.ts). */
  health: DatabaseHealth;
  /** SQLite only: the database file. */
  sqliteFile?: string;
  /** SQLite only: true when the file was made just now, as a copy of the build's migrated database. */
  copiedFromBuild?: boolean;
  /** PostgreSQL only: the connection URL (with its password: never log it). */
  postgresUrl?: string;
  /** PostgreSQL only: the pool Kysely queries through, for a read that takes pg's rows as they come (snapshot-read.server.ts). */
  postgresPool?: () => Promise<Pool>;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL's pool (DATABASE_POOL_MAX, …); the defaults of env.server.ts when not given. */
  pool?: PoolSettings | undefined;
  /** SQLite: the migrated database the build made, which a new one starts as a copy of (new-database.server.ts). */
  newSqliteDatabase?: string | undefined;
};

/** How many connections, and how long a query may wait for one or run (env.server.ts's DatabasePoolSettings). */
export type PoolSettings = { max: number; connectTimeoutMs: number; statementTimeoutMs: number };

const DEFAULT_POOL: PoolSettings = { max: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 30_000 };

type DatabaseLog = Pick<Log, "error" | "warn" | "info">;

/** Plain lines on stderr, for tools and tests that open a database without the server's log. */
const STDERR_LOG: DatabaseLog = {
  error: (...parts: unknown[]) => console.error(...parts),
  warn: (...parts: unknown[]) => console.error(...parts),
  info: () => {},
};

/**
 * The one place that chooses the database backend. `log` hears of the
 * database going away and coming back, and of a full disk (the server's
 * log; stderr by default).
 */
export function openDatabase(options: DatabaseOptions, log: DatabaseLog = STDERR_LOG): Database {
  const health = createDatabaseHealth(log, isDatabaseUnavailable);
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.pool ?? DEFAULT_POOL, health, log);
  return openSqliteDatabase(path.join(options.dataDir, "app.sqlite"), health, options.newSqliteDatabase);
}

function openSqliteDatabase(file: string, health: DatabaseHealth, template: string | undefined): Database {
  // Readable by the server's user only, whatever the umask: the enquiries are
  // personal data (decision 021). SQLite gives its -wal and -shm files the
  // database file's own mode.
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const copiedFromBuild = template !== undefined && startFromTemplate(file, template);
  closeSync(openSync(file, "a", 0o600));
  const { database } = openSqlite(file);
  const db = new Kysely<DatabaseSchema>({ dialect: watchedDialect(new SqliteDialectWithTransactionalDdl({ database }), health, () => false) });
  return {
    db,
    dialect: "sqlite",
    description: `SQLite at ${file}`,
    lockSite: async (mode) => lockSqliteSite(path.join(path.dirname(file), "site.lock"), mode),
    health,
    sqliteFile: file,
    copiedFromBuild,
    close: () => db.destroy(),
  };
}

function openPostgres(url: string, settings: PoolSettings, health: DatabaseHealth, log: DatabaseLog): Database {
  // pg is imported when the first query needs the pool: a SQLite site never loads it. One pool, however often asked for.
  let opened: Promise<Pool> | undefined;
  const pool = () => (opened ??= openPool());
  const openPool = async () => {
    const { default: pg } = await import("pg");
    const created = new pg.Pool({
      connectionString: url,
      max: settings.max,
      // Bounds both opening a connection and waiting for a free one of a full
      // pool: a request then fails fast (503, isDatabaseUnavailable) instead of queueing for ever.
      connectionTimeoutMillis: settings.connectTimeoutMs,
      // PostgreSQL's own limit per statement, lock waits included.
      statement_timeout: settings.statementTimeoutMs,
      // A connection whose peer vanished (a failover, a cut network) is noticed by TCP keep-alive.
      keepAlive: true,
    });
    // A connection can end at any moment: PostgreSQL restarting (57P01), a failover,
    // pg_terminate_backend. pg emits that as an "error" event on its Client, and an
    // event with no listener ends the process. pg-pool listens only while a client
    // is idle; this listener is there while a request holds it too. The query that
    // was running fails (503, one line) and the pool drops the client.
    created.on("connect", (client) => client.on("error", (error) => health.failed(error)));
    // The same event for an idle client, which the pool drops: told above already.
    created.on("error", () => {});
    return created;
  };
  const db = new Kysely<DatabaseSchema>({ dialect: watchedDialect(new PostgresDialect({ pool }), health, isDatabaseUnavailable) });
  const safe = new URL(url);
  safe.password = "";
  return {
    db,
    dialect: "postgres",
    description: `PostgreSQL at ${safe.host}${safe.pathname}`,
    lockSite: (mode) => lockPostgresSite(url, mode, log),
    health,
    postgresUrl: url,
    postgresPool: pool,
    close: () => db.destroy(),
  };
}

/** The migrations a database holds: all of ours, none (a new database: no migration table yet), or some. */
export type MigrationState = "current" | "new" | "behind";

/**
 * Brings the schema up to date. All pending migrations run in one transaction
 * on both databases (on SQLite through SqliteDialectWithTransactionalDdl), so
 * a migration that fails leaves the database as it was, never half-migrated
 * (decision 080). Kysely's migrator holds a lock while it runs (an advisory lock
 * on PostgreSQL; on SQLite the transaction's BEGIN IMMEDIATE), so two instances
 * starting together apply each migration once. `state`: migrationState's answer
 * when the caller has it; `list`: tests give a list of their own.
 */
export async function migrateToLatest(
  database: Database,
  { state, list = migrations }: { state?: MigrationState; list?: Readonly<Record<string, AppMigration>> } = {},
): Promise<string[]> {
  if ((state ?? (await migrationState(database, list))) === "current") return [];
  const provider = {
    async getMigrations(): Promise<Record<string, Migration>> {
      return Object.fromEntries(Object.entries(list).map(([name, migration]) => [name, { up: (db: Kysely<unknown>) => migration.up(db, database.dialect) }]));
    },
  };
  const migrator = new Migrator({ db: database.db, provider });
  // With synchronous=FULL (decision 003) each commit waits for an fsync, and
  // the migrator's own tables are made in commits of their own before the one
  // transaction. NORMAL keeps the file consistent (WAL); a power cut could only
  // undo the last commit, the migrations whole, which the next start runs again.
  // Nothing else is written until the migrations are done.
  const sqlite = database.dialect === "sqlite";
  if (sqlite) await sql`pragma synchronous = normal`.execute(database.db);
  let error: unknown;
  let results: MigrationResult[] | undefined;
  try {
    ({ error, results } = await migrator.migrateToLatest());
    // When two processes start on one SQLite file, the second waits for the
    // first's transaction (busy_timeout) and finds nothing left to do; should it
    // have failed meanwhile (its migrator tables made by both, a wait longer than
    // busy_timeout), the first has committed by then and a second pass finds nothing to do.
    if (error && sqlite) ({ error, results } = await migrator.migrateToLatest());
  } finally {
    if (sqlite) await sql`pragma synchronous = full`.execute(database.db);
  }
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${cause}`.replace("  ", " "));
  }
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}

/**
 * Whether the database already holds every migration, in order ("current"),
 * none (no migration table: "new"), or anything else ("behind"): one query
 * instead of Kysely's migrator, which reads every table's columns to find its
 * own table before it looks (a tenth of a restart's start-up on an up-to-date
 * database). Anything but "current" goes to the migrator, which applies or
 * refuses as it always did.
 */
export async function migrationState(database: Database, list: Readonly<Record<string, unknown>> = migrations): Promise<MigrationState> {
  let rows: Array<{ name: string }>;
  try {
    ({ rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db));
  } catch {
    return "new";
  }
  const wanted = Object.keys(list);
  return rows.length === wanted.length && rows.every((row, at) => row.name === wanted[at]) ? "current" : "behind";
}

/**
 * After personal data is erased: SQLite's write-ahead log still holds the
 * pages as they were before the delete, so they are copied into the database
 * (where secure_delete zeroed the rows) and the log is cut to nothing.
 * PostgreSQL's own vacuum reclaims dead rows. Best effort: a reader holding
 * the log open leaves it for the next checkpoint: false then.
 */
export async function purgeErasedData(db: Db): Promise<boolean> {
  if (dialectOf(db) !== "sqlite") return true;
  const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  return !rows[0]?.busy;
}

/**
 * Errors that say the database cannot serve this request now, rather than
 * that the request or our code is wrong: no free connection in time (a full
 * pool), a statement over DATABASE_STATEMENT_TIMEOUT_MS, a server that is
 * unreachable, restarting or out of connections, a connection that ended
 * under the query, a full disk. Such a request is answered 503 with
 * Retry-After (platform/db/database-busy.server.ts), never left hanging.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isDiskFull(error)) return true;
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const { code, message } = current as Error & { code?: unknown };
    if (message === "timeout exceeded when trying to connect" || message.startsWith("Connection terminated")) return true;
    // pg's words for a query sent on a client whose connection has already failed.
    if (message.endsWith("and is not queryable")) return true;
    if (typeof code !== "string") continue;
    // 57014 statement timeout; 55P03 lock timeout; 57P01-03 shutting down or starting; 53300 too many connections; 08 connection exceptions.
    if (/^(57014|55P03|57P0[123]|53300|08...)$/.test(code)) return true;
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN"].includes(code)) return true;
  }
  return false;
}

/** True when the database answers a trivial query. */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `work` in a transaction: `db` itself when it is one already (a caller's,
 * such as a grouped commit's piece, group-commit.server.ts), else a new one.
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** Which backend a Kysely instance (or transaction) talks to, for the few statements that differ. */
export function dialectOf(db: Db): MigrationDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}
