import { CompiledQuery, type Compilable, type Insertable, type QueryResult } from "kysely";
import { dialectOf, type Db } from "./db.server";
import type { DatabaseSchema } from "./schema";

/*
 * Queries built once (decision 065). Kysely builds a query's tree and
 * compiles it to SQL on every run, a good part of an enquiry's CPU; on the hot
 * path the SQL is the same each time, only the values change. These helpers
 * build and compile a query once per database dialect (and per shape: an
 * insert's columns), with a marker in place of each value, and then run the
 * kept SQL with the values bound in the markers' places. The query is still
 * written with Kysely, once, for both databases.
 */

/** A value no caller passes: where it lands among the compiled parameters is where that argument goes. */
const marker = (name: string) => `\u0000prepared:${name}\u0000`;

type Slot = { arg: string } | { constant: unknown };
type Kept = { sql: string; slots: Slot[] };

function compileWithMarkers(query: Compilable<unknown>, names: readonly string[]): Kept | undefined {
  const { sql, parameters } = query.compile();
  const byMarker = new Map(names.map((name) => [marker(name), name]));
  const slots: Slot[] = parameters.map((value) => {
    const arg = typeof value === "string" ? byMarker.get(value) : undefined;
    return arg === undefined ? { constant: value } : { arg };
  });
  // Every argument must be bound as a parameter (not folded into the text), else the kept SQL would be wrong for other values.
  if (names.some((name) => !slots.some((slot) => "arg" in slot && slot.arg === name)) || sql.includes("\u0000")) return undefined;
  return { sql, slots };
}

function bind(kept: Kept, args: Readonly<Record<string, unknown>>): CompiledQuery {
  return CompiledQuery.raw(
    kept.sql,
    kept.slots.map((slot) => ("arg" in slot ? args[slot.arg] : slot.constant)),
  );
}

/**
 * A query whose text depends only on the dialect: `build` is called once per
 * dialect with a marker for each argument (each must be used as a value), and
 * each run binds that run's values. Should `build` not bind an argument as a
 * parameter, it is simply built and compiled on every run, as before.
 */
export function preparedQuery<Args extends Record<string, string | number>, Row>(
  names: ReadonlyArray<keyof Args & string>,
  build: (db: Db, args: Args) => Compilable<Row>,
): (db: Db, args: Args) => Promise<QueryResult<Row>> {
  const kept = new Map<string, Kept | null>();
  return async (db, args) => {
    const dialect = dialectOf(db);
    let query = kept.get(dialect);
    if (query === undefined) {
      const markers = Object.fromEntries(names.map((name) => [name, marker(name)])) as unknown as Args;
      query = compileWithMarkers(build(db, markers), names) ?? null;
      kept.set(dialect, query);
    }
    if (query === null) return db.executeQuery(build(db, args).compile());
    return db.executeQuery<Row>(bind(query, args));
  };
}

/**
 * `insert into <table> (<columns>) values (…), …` for rows that name the same
 * columns, compiled once per dialect, set of columns and number of rows. The
 * rows' values are bound as given (Kysely binds plain values the same way).
 */
export function preparedInsert<T extends keyof DatabaseSchema & string>(table: T) {
  const kept = new Map<string, Kept | null>();
  return async (db: Db, rows: ReadonlyArray<Insertable<DatabaseSchema[T]>>): Promise<void> => {
    const first = rows[0] as Record<string, unknown> | undefined;
    const columns = first ? Object.keys(first).filter((column) => first[column] !== undefined) : [];
    const args: Record<string, unknown> = {};
    let sameColumns = columns.length > 0;
    rows.forEach((row, index) => {
      const values = row as Record<string, unknown>;
      if (
        Object.keys(values)
          .filter((column) => values[column] !== undefined)
          .join() !== columns.join()
      )
        sameColumns = false;
      for (const column of columns) args[`${index} ${column}`] = values[column];
    });
    if (!sameColumns)
      return void (await db
        .insertInto(table)
        .values([...rows])
        .execute());
    const key = `${dialectOf(db)} ${rows.length} ${columns.join()}`;
    let query = kept.get(key);
    if (query === undefined) {
      const markers = rows.map((_, index) => Object.fromEntries(columns.map((column) => [column, marker(`${index} ${column}`)])));
      query = compileWithMarkers(db.insertInto(table).values(markers as Array<Insertable<DatabaseSchema[T]>>), Object.keys(args)) ?? null;
      kept.set(key, query);
    }
    if (query === null)
      await db
        .insertInto(table)
        .values([...rows])
        .execute();
    else await db.executeQuery(bind(query, args));
  };
}
