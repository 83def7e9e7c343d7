/**
 * The rows of a backup: JSON Lines, one table after another, written and read
 * by this code alone. Nothing in it is ever executed: a reader takes only the
 * tables and columns it is told to expect (this code's own schema), checks
 * every value against its column's type, and refuses anything else
 * (decision 040). The format, line by line:
 *
 *   {"table":"admin_users","columns":[{"name":"id","type":"text"},…]}
 *   ["3f2a…","owner@example.com",…]            one JSON array per row, in the columns' order
 *   {"end":"admin_users","rows":1}
 *
 * Types are text, integer (a safe integer), boolean and timestamp (an ISO 8601
 * text; SQLite keeps timestamps as such texts, so its backups call them text).
 * Every table of the schema appears once, its rows included or not.
 */
export type ColumnType = "text" | "integer" | "boolean" | "timestamp";
export type ColumnSchema = { name: string; type: ColumnType; nullable: boolean };
export type TableSchema = { name: string; columns: ColumnSchema[] };
/** The tables a reader accepts, by name. */
export type SchemaDescription = Map<string, TableSchema>;

export class BackupRowsError extends Error {
  override name = "BackupRowsError";
}

/** A row longer than this is refused (the largest is a published site version: well under 1 MB). */
export const LINE_LIMIT = 16 * 1024 * 1024;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}(?::?\d{2})?)$/;

/** Lines of the format, for a writer that sends text on (to a file, sealed or not). */
export const rowLines = {
  table: (table: string, columns: ReadonlyArray<{ name: string; type: ColumnType }>) =>
    `${JSON.stringify({ table, columns: columns.map(({ name, type }) => ({ name, type })) })}\n`,
  row: (values: readonly unknown[]) => `${JSON.stringify(values)}\n`,
  end: (table: string, rows: number) => `${JSON.stringify({ end: table, rows })}\n`,
};

/** What a reader hands on: a table starts (with its columns as the file orders them), a batch of its rows, it ends. */
export type RowsEvent =
  | { kind: "table"; table: TableSchema; columns: Array<ColumnSchema & { given: ColumnType }> }
  | { kind: "rows"; table: TableSchema; columns: Array<ColumnSchema & { given: ColumnType }>; rows: unknown[][] }
  | { kind: "end"; table: TableSchema; rows: number };

/** Rows handed on at once; a batch also ends at the end of a table. */
const BATCH = 200;

/**
 * Reads the rows from `chunks`, checked against `expected`: a table or column
 * it does not name, a column missing, a value of the wrong type, a table
 * twice or missing, a row count that is not the file's own: BackupRowsError,
 * naming the line. Values come out in the file's column order, timestamps as
 * given (see `timestampFor`), booleans as booleans.
 */
export async function* readRows(chunks: AsyncIterable<Uint8Array>, expected: SchemaDescription): AsyncGenerator<RowsEvent> {
  const seen = new Set<string>();
  let current: { table: TableSchema; columns: Array<ColumnSchema & { given: ColumnType }>; rows: number } | undefined;
  let batch: unknown[][] = [];
  let lineNumber = 0;
  const refuse = (problem: string) => new BackupRowsError(`The rows of the backup, line ${lineNumber}: ${problem}`);

  for await (const line of lines(chunks)) {
    lineNumber++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw refuse("not JSON.");
    }
    if (Array.isArray(value)) {
      if (!current) throw refuse("a row outside any table.");
      if (value.length !== current.columns.length)
        throw refuse(`a row of ${current.table.name} with ${value.length} values for ${current.columns.length} columns.`);
      current.columns.forEach((column, index) => {
        const problem = valueProblem(value[index], column);
        if (problem) throw refuse(`${current!.table.name}.${column.name} ${problem}.`);
      });
      batch.push(value);
      current.rows++;
      if (batch.length >= BATCH) {
        yield { kind: "rows", table: current.table, columns: current.columns, rows: batch };
        batch = [];
      }
      continue;
    }
    if (typeof value !== "object" || value === null) throw refuse("neither a row nor a table's start or end.");
    const record = value as Record<string, unknown>;
    if ("table" in record) {
      if (current) throw refuse(`${String(record.table)} starts before ${current.table.name} ends.`);
      const name = record.table;
      const table = typeof name === "string" ? expected.get(name) : undefined;
      if (!table) throw refuse(`a table this site does not have (${JSON.stringify(name)}): a backup holds only this site's own tables.`);
      if (seen.has(table.name)) throw refuse(`${table.name} a second time.`);
      seen.add(table.name);
      current = { table, columns: columnsOf(record, table, refuse), rows: 0 };
      yield { kind: "table", table, columns: current.columns };
      continue;
    }
    if ("end" in record) {
      if (!current || record.end !== current.table.name) throw refuse("the end of a table that did not start.");
      if (record.rows !== current.rows) throw refuse(`${current.table.name} ends saying ${String(record.rows)} rows after ${current.rows}.`);
      if (batch.length > 0) yield { kind: "rows", table: current.table, columns: current.columns, rows: batch };
      batch = [];
      yield { kind: "end", table: current.table, rows: current.rows };
      current = undefined;
      continue;
    }
    throw refuse("neither a row nor a table's start or end.");
  }
  if (current) throw new BackupRowsError(`The rows of the backup end inside ${current.table.name}: the file is cut short.`);
  const missing = [...expected.keys()].filter((name) => !seen.has(name));
  if (missing.length > 0) throw new BackupRowsError(`The rows of the backup lack the tables ${missing.join(", ")}.`);
}

function columnsOf(record: Record<string, unknown>, table: TableSchema, refuse: (problem: string) => Error): Array<ColumnSchema & { given: ColumnType }> {
  const given = record.columns;
  if (!Array.isArray(given)) throw refuse(`${table.name} has no list of columns.`);
  const columns = given.map((entry: unknown) => {
    const { name, type } = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    const column = table.columns.find((known) => known.name === name);
    if (!column) throw refuse(`a column ${table.name} does not have (${JSON.stringify(name)}): a backup holds only this site's own columns.`);
    if (!compatible(type, column.type)) throw refuse(`${table.name}.${column.name} is of type ${JSON.stringify(type)}, not ${column.type}.`);
    return { ...column, given: type as ColumnType };
  });
  const names = new Set(columns.map((column) => column.name));
  if (names.size !== columns.length) throw refuse(`${table.name} names a column twice.`);
  const missing = table.columns.filter((column) => !names.has(column.name));
  if (missing.length > 0) throw refuse(`${table.name} lacks the columns ${missing.map((column) => column.name).join(", ")}.`);
  return columns;
}

/** A timestamp travels as text; SQLite, which keeps it as text, says text. */
function compatible(given: unknown, expected: ColumnType): boolean {
  if (given === expected) return true;
  return (given === "timestamp" && expected === "text") || (given === "text" && expected === "timestamp");
}

function valueProblem(value: unknown, column: ColumnSchema & { given: ColumnType }): string | undefined {
  if (value === null) return column.nullable ? undefined : "is empty, and may not be";
  switch (column.type) {
    case "integer":
      return Number.isSafeInteger(value) ? undefined : "is not a whole number";
    case "boolean":
      return typeof value === "boolean" ? undefined : "is not true or false";
    case "timestamp":
      return typeof value === "string" && ISO_TIMESTAMP.test(value) ? undefined : "is not a date and time";
    case "text":
      if (typeof value !== "string") return "is not text";
      return column.given === "timestamp" && !ISO_TIMESTAMP.test(value) ? "is not a date and time" : undefined;
  }
}

/**
 * A timestamp kept as text (SQLite) from a backup that had it as a timestamp
 * (PostgreSQL, microseconds): written as the app writes its own,
 * `2026-11-26T10:15:00.123Z`, so texts still sort as times.
 */
export function timestampAsText(value: string): string {
  const time = new Date(value.replace(" ", "T"));
  if (Number.isNaN(time.getTime())) throw new BackupRowsError(`${JSON.stringify(value)} is not a date and time.`);
  return time.toISOString();
}

/** UTF-8 lines of the chunks (a line may span chunks), each at most LINE_LIMIT bytes. */
async function* lines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const decode = (parts: Uint8Array[]) => {
    try {
      return decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    } catch {
      throw new BackupRowsError("The rows of the backup are not UTF-8 text.");
    }
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      pending.push(chunk.subarray(start, end));
      yield decode(pending);
      pending = [];
      pendingBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > LINE_LIMIT) throw new BackupRowsError(`The rows of the backup hold a line longer than ${LINE_LIMIT / 1024 / 1024} MB.`);
    }
  }
  if (pendingBytes > 0) throw new BackupRowsError("The rows of the backup do not end with a whole line: the file is cut short.");
}
