import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from "kysely";
import type { Log } from "../observe/log.server";

/**
 * What this process has seen of its database's health, for the log and the
 * admin dashboard (decision 038): a database that could not be reached (a
 * restart, a failover, a killed connection) and a full disk. Each episode is
 * one line when it starts and one when it ends, however many queries failed
 * in between; the dashboard shows the latest of each kind for a day. It is
 * this process's own view, in memory: while the disk is full nothing can be
 * written down, and on PostgreSQL each instance of a fleet sees its own
 * connections.
 */
export type DatabaseFaultKind = "unreachable" | "disk-full";

export type DatabaseFault = {
  kind: DatabaseFaultKind;
  since: Date;
  /** When it ended (a query answered, or a write went through); undefined while it lasts. */
  until: Date | undefined;
  /** Queries that failed for it. */
  failures: number;
  /** The database's own words, with its code: "database or disk is full (SQLITE_FULL)". */
  detail: string;
};

export type DatabaseHealth = {
  /** A query failed: starts or extends an episode when the error says why. */
  failed(error: unknown): void;
  /** A query was answered: ends an "unreachable" episode; `wrote` (a commit, a write outside a transaction) ends a full disk. */
  answered(wrote: boolean): void;
  /** The latest episode of each kind, if it lasts or ended within the last day. */
  recent(now: Date): DatabaseFault[];
};

/** How long the dashboard shows an episode after it ended. */
export const FAULT_SHOWN_MS = 24 * 60 * 60 * 1000;

/** SQLite's and PostgreSQL's codes for a database that cannot write for want of room. */
const DISK_FULL_CODES = new Set(["SQLITE_FULL", "53100"]);

/** node:sqlite reports SQLite's result code as a number: SQLITE_FULL is 13 (its extended codes keep it in the low byte). */
const SQLITE_FULL = 13;

type ErrorFields = Error & { code?: unknown; errcode?: unknown; errstr?: unknown };

/** A full disk: SQLITE_FULL, or PostgreSQL's disk_full (53100), here or in a cause. */
export function isDiskFull(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const { code, errcode } = current as ErrorFields;
    if (typeof code === "string" && DISK_FULL_CODES.has(code)) return true;
    if (typeof errcode === "number" && (errcode & 0xff) === SQLITE_FULL) return true;
  }
  return false;
}

/** The error's message with its code, for one log line: "database or disk is full (SQLITE_FULL)". */
export function databaseErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, errcode } = error as ErrorFields;
  const named = typeof errcode === "number" && (errcode & 0xff) === SQLITE_FULL ? "SQLITE_FULL" : typeof code === "string" ? code : undefined;
  return named && !error.message.includes(named) ? `${error.message} (${named})` : error.message;
}

/** Why a request could not be served, for its one log line: "disk full: …" or "database unavailable: …". */
export function databaseFailureText(error: unknown): string {
  return `${isDiskFull(error) ? "disk full" : "database unavailable"}: ${databaseErrorText(error)}`;
}

export function createDatabaseHealth(
  log: Pick<Log, "warn" | "error" | "info">,
  isUnreachable: (error: unknown) => boolean,
  now: () => Date = () => new Date(),
): DatabaseHealth {
  const latest = new Map<DatabaseFaultKind, DatabaseFault>();
  // The episodes under way: checked on every answered query, so kept apart from `latest`.
  let open = 0;

  const start = (kind: DatabaseFaultKind, error: unknown) => {
    const current = latest.get(kind);
    if (current && current.until === undefined) {
      current.failures++;
      return;
    }
    const detail = databaseErrorText(error);
    latest.set(kind, { kind, since: now(), until: undefined, failures: 1, detail });
    open++;
    if (kind === "disk-full") {
      log.error(
        `The disk is full: the database cannot write (${detail}). Enquiries and changes are answered 503 until there is room; free space where the database is (DATA_DIR for SQLite).`,
      );
    } else {
      log.warn(`The database cannot be reached (${detail}): requests that need it are answered 503 until it answers again`);
    }
  };
  const end = (kind: DatabaseFaultKind) => {
    const current = latest.get(kind);
    if (!current || current.until !== undefined) return;
    current.until = now();
    open--;
    const seconds = ((current.until.getTime() - current.since.getTime()) / 1000).toFixed(1);
    const failed = `${current.failures} ${current.failures === 1 ? "query" : "queries"} failed`;
    log.info(
      kind === "disk-full"
        ? `The database writes again: the disk had room again after ${seconds} s (${failed})`
        : `The database answers again after ${seconds} s (${failed})`,
    );
  };

  return {
    failed(error) {
      if (isDiskFull(error)) start("disk-full", error);
      else if (isUnreachable(error)) start("unreachable", error);
    },
    answered(wrote) {
      if (open === 0) return;
      end("unreachable");
      if (wrote) end("disk-full");
    },
    recent(at) {
      return [...latest.values()]
        .filter((fault) => fault.until === undefined || at.getTime() - fault.until.getTime() < FAULT_SHOWN_MS)
        .sort((a, b) => b.since.getTime() - a.since.getTime());
    },
  };
}

type Rest<F> = F extends (first: never, ...rest: infer R) => unknown ? R : never;

type Watched = DatabaseConnection & { inner: DatabaseConnection; inTransaction: boolean };

const WRITES = new Set(["InsertQueryNode", "UpdateQueryNode", "DeleteQueryNode", "MergeQueryNode"]);

/**
 * A Kysely dialect that tells `health` of every query's outcome, and keeps the
 * error that failed a transaction: when the connection has gone (PostgreSQL
 * restarted) the rollback Kysely then sends fails too, and its error
 * ("Connection terminated", "not queryable") would replace the one that says
 * what happened. The session's end rolled the transaction back already.
 * (SQLite's own case, a rollback after SQLite rolled back by itself, is
 * sqlite-driver.server.ts's.)
 */
export function watchedDialect(dialect: Dialect, health: DatabaseHealth, isConnectionGone: (error: unknown) => boolean): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new WatchedDriver(dialect.createDriver(), health, isConnectionGone),
  };
}

class WatchedDriver implements Driver {
  readonly #wrapped = new WeakMap<DatabaseConnection, Watched>();

  constructor(
    private readonly driver: Driver,
    private readonly health: DatabaseHealth,
    private readonly isConnectionGone: (error: unknown) => boolean,
  ) {}

  init(options?: Parameters<Driver["init"]>[0]) {
    return this.driver.init(options);
  }

  async acquireConnection(options?: Parameters<Driver["acquireConnection"]>[0]): Promise<DatabaseConnection> {
    const inner = await this.watch(this.driver.acquireConnection(options), false);
    let watched = this.#wrapped.get(inner);
    if (!watched) {
      const connection: Watched = {
        inner,
        inTransaction: false,
        executeQuery: <R>(query: CompiledQuery, ...rest: Rest<DatabaseConnection["executeQuery"]>): Promise<QueryResult<R>> =>
          this.watch(inner.executeQuery<R>(query, ...rest), !connection.inTransaction && WRITES.has(query.query.kind)),
        streamQuery: <R>(...args: Parameters<DatabaseConnection["streamQuery"]>) => inner.streamQuery<R>(...args),
      };
      // Cancelling a query (an aborted request) and the session details it needs, where the driver has them.
      if (inner.cancelQuery) connection.cancelQuery = inner.cancelQuery.bind(inner);
      if (inner.collectSessionInfo) connection.collectSessionInfo = inner.collectSessionInfo.bind(inner);
      if (inner.killSession) connection.killSession = inner.killSession.bind(inner);
      watched = connection;
      this.#wrapped.set(inner, watched);
    }
    return watched;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const watched = connection as Watched;
    await this.watch(this.driver.beginTransaction(watched.inner, settings), false);
    watched.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const watched = connection as Watched;
    try {
      await this.watch(this.driver.commitTransaction(watched.inner), true);
    } finally {
      watched.inTransaction = false;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const watched = connection as Watched;
    watched.inTransaction = false;
    try {
      await this.driver.rollbackTransaction(watched.inner);
    } catch (error) {
      // The connection is gone and the transaction with it: Kysely throws the error that ended it.
      if (!this.isConnectionGone(error)) throw error;
    }
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    return this.inTransaction("savepoint", connection, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    return this.inTransaction("rollbackToSavepoint", connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    return this.inTransaction("releaseSavepoint", connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection, options?: Parameters<Driver["releaseConnection"]>[1]): Promise<void> {
    return this.driver.releaseConnection((connection as Watched).inner, options);
  }

  destroy(options?: Parameters<Driver["destroy"]>[0]): Promise<void> {
    return this.driver.destroy(options);
  }

  private inTransaction(
    method: "savepoint" | "rollbackToSavepoint" | "releaseSavepoint",
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    const savepoints = this.driver[method]?.bind(this.driver);
    if (!savepoints) throw new Error(`The database driver does not support ${method}`);
    return this.watch(savepoints((connection as Watched).inner, name, compile), false);
  }

  private async watch<T>(work: Promise<T>, wrote: boolean): Promise<T> {
    try {
      const result = await work;
      this.health.answered(wrote);
      return result;
    } catch (error) {
      this.health.failed(error);
      throw error;
    }
  }
}
