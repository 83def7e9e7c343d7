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
 * rows' values are bound as given (Kysely binds plain values the same way),
 * read straight from the rows: a call builds no map of its arguments (it
 * runs for every enquiry's row and places, decision 086).
 */
export function preparedInsert<T extends keyof DatabaseSchema & string>(table: T) {
  const kept = new Map<string, KeptInsert | null>();
  return async (db: Db, rows: ReadonlyArray<Insertable<DatabaseSchema[T]>>): Promise<void> => {
    const values = rows as ReadonlyArray<Record<string, unknown>>;
    const columns = values[0] ? definedColumns(values[0]) : [];
    if (columns.length === 0 || values.some((row, index) => index > 0 && !sameColumns(row, columns)))
      return void (await db
        .insertInto(table)
        .values([...rows])
        .execute());
    const key = `${dialectOf(db)} ${values.length} ${columns.join()}`;
    let query = kept.get(key);
    if (query === undefined) {
      query = compileInsert(db, table, values.length, columns);
      kept.set(key, query);
    }
    if (query === null)
      await db
        .insertInto(table)
        .values([...rows])
        .execute();
    else
      await db.executeQuery(
        CompiledQuery.raw(
          query.sql,
          query.slots.map((slot) => ("column" in slot ? values[slot.row]![slot.column] : slot.constant)),
        ),
      );
  };
}

type KeptInsert = { sql: string; slots: Array<{ row: number; column: string } | { constant: unknown }> };

/** The insert of `count` rows of these columns, with a marker in each value's place, compiled once. */
function compileInsert(db: Db, table: keyof DatabaseSchema & string, count: number, columns: string[]): KeptInsert | null {
  const markers = Array.from({ length: count }, (_, row) => Object.fromEntries(columns.map((column) => [column, marker(`${row} ${column}`)])));
  const names = markers.flatMap((_, row) => columns.map((column) => `${row} ${column}`));
  const compiled = compileWithMarkers(db.insertInto(table).values(markers as never), names);
  if (!compiled) return null;
  return {
    sql: compiled.sql,
    slots: compiled.slots.map((slot) => {
      if (!("arg" in slot)) return slot;
      const space = slot.arg.indexOf(" ");
      return { row: Number(slot.arg.slice(0, space)), column: slot.arg.slice(space + 1) };
    }),
  };
}

/** The columns a row gives a value (undefined is left out, as Kysely leaves it out). */
function definedColumns(row: Record<string, unknown>): string[] {
  const columns: string[] = [];
  for (const column in row) if (row[column] !== undefined) columns.push(column);
  return columns;
}

/** Whether the row gives a value to exactly these columns (in any order). */
function sameColumns(row: Record<string, unknown>, columns: readonly string[]): boolean {
  let count = 0;
  for (const column in row) if (row[column] !== undefined) count++;
  return count === columns.length && columns.every((column) => row[column] !== undefined);
}
