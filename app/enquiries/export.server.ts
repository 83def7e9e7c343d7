import { type RawBuilder, sql } from "kysely";
import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import { toBoolean, toIsoString } from "~/platform/db/db-values";
import { dialectOf, type Db } from "~/platform/db/db.server";
import type { SnapshotReads } from "~/platform/db/snapshot-read.server";
import { inTransaction } from "~/platform/db/transactions.server";
import { CSV_BATCH_SIZE, type CsvChunk, type CsvSource, type CsvSubmission, type CsvWrittenRow, FORMULA_STARTS, READ_FIELDS, USER_TYPE_FIELDS } from "./csv";
import type { InboxQuery } from "./inbox";
import { submissionsQuery } from "./inbox.server";
import { parseValuationDetails } from "./valuation";

/** What a row of the file needs, after the time it came (SQLite holds the ISO text the file shows), in this order; nothing else is read (decision 064). */
const COLUMNS = ["name", "email", "phone", "user_type", "message", "is_read", "spam_reason", "spam_signals", "kind", "details"] as const;

/**
 * Every submission of an inbox view (the one definition of it,
 * submissionsQuery, in its order) as the database holds them now, for the CSV
 * export: read from one snapshot (snapshot-read.server.ts), so an enquiry
 * arriving, changed or deleted while the file streams out neither shows twice
 * nor breaks the file; they are read a chunk at a time as the file is sent.
 *
 * First the export's audit entry (the view, whether it was searched, how many
 * rows the snapshot holds; never the search's words), committed before any
 * row is read. The caller closes the source (enquiriesCsvStream does); when
 * this throws, nothing is left open.
 */
export async function openEnquiriesExport(db: Db, snapshots: SnapshotReads, query: InboxQuery, actor: Actor): Promise<CsvSource> {
  const snapshot = await snapshots.open();
  try {
    const counted = await snapshot.all(
      submissionsQuery(db, query)
        .clearSelect()
        .clearOrderBy()
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .compile(),
    );
    const count = Number(counted[0]?.[0] ?? 0);
    const searched = (query.search ?? "") !== "";
    await inTransaction(db, (trx) => audit(trx, { actor, action: "enquiries-exported", target: query.filter, details: { searched, count } }));
    if (dialectOf(db) === "postgres") {
      // PostgreSQL writes most of each record (decision 077); the rest is the spam column and a valuation request's details.
      const rows = snapshot.chunks(
        submissionsQuery(db, query)
          .clearSelect()
          .select([
            writtenHead().as("head"),
            query.filter === "spam" ? "spam_reason" : "spam_signals",
            sql<string | null>`case when kind = 'valuation' then details end`.as("details"),
          ])
          .compile(),
        CSV_BATCH_SIZE,
      );
      return { chunks: writtenOf(rows), close: () => snapshot.close() };
    }
    const rows = snapshot.chunks(
      submissionsQuery(db, query)
        .clearSelect()
        .select([sql<string>`created_at`.as("submitted"), ...COLUMNS])
        .compile(),
      CSV_BATCH_SIZE,
    );
    return { chunks: submissionsOf(rows), close: () => snapshot.close() };
  } catch (error) {
    // The error that stopped the export is the one to tell; closing a read that failed can only fail the same way.
    await snapshot.close().catch(() => {});
    throw error;
  }
}

async function* submissionsOf(chunks: AsyncIterable<unknown[][]>): AsyncGenerator<CsvChunk> {
  for await (const chunk of chunks) yield { submissions: chunk.map(toCsvSubmission) };
}

async function* writtenOf(chunks: AsyncIterable<unknown[][]>): AsyncGenerator<CsvChunk> {
  for await (const chunk of chunks) yield { written: chunk as CsvWrittenRow[] };
}

/** The characters csvField neutralises as their code points, which PostgreSQL's ascii() gives of a text's first character (UTF-8 database; 0 for ""). */
const FORMULA_CODE_POINTS = sql.join(FORMULA_STARTS.map((start) => sql.lit(start.codePointAt(0)!)));

/**
 * csvField in PostgreSQL's words (decision 077), as arguments of concat(): the
 * opening quote, "'" before a field that starts a formula, the text with its
 * quotes doubled, the closing quote (a NULL is an empty field: concat skips
 * it). The same rule, so the same bytes
 * (tests/integration/csv-export-bytes.test.ts compares them with the
 * encoder's). ascii() and one concat() are about half the database's time of
 * left() = any(…) and a chain of ||, which copies the record at every step.
 */
function csvFieldSql(value: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`'"', case when ascii(${value}) in (${FORMULA_CODE_POINTS}) then '''' end, replace(${value}, '"', '""'), '"'`;
}

/**
 * The record from "Submitted" to "Read" as csvRecord writes it, made by
 * PostgreSQL (decision 077): one text per row for pg to read instead of
 * eight values (pg's reading of 1.1 million values was most of an export's
 * time). The labels are csv.ts' own encoded fields, passed as parameters.
 */
function writtenHead(): RawBuilder<string> {
  const userType = sql.join(
    Object.entries(USER_TYPE_FIELDS).map(([type, field]) => sql`when ${type} then ${field}`),
    sql` `,
  );
  const fields = [
    csvFieldSql(sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`),
    csvFieldSql(sql`name`),
    csvFieldSql(sql`email`),
    csvFieldSql(sql`phone`),
    sql`case user_type ${userType} end`,
    csvFieldSql(sql`message`),
    sql`case when is_read then ${READ_FIELDS.yes} else ${READ_FIELDS.no} end`,
  ];
  return sql<string>`concat(${sql.join(fields, sql`, ',', `)})`;
}

/** A row of the time and COLUMNS' values, as SQLite's snapshot read gives them. */
function toCsvSubmission(row: unknown[]): CsvSubmission {
  const [createdAt, name, email, phone, userType, message, isRead, spamReason, spamSignals, kind, details] = row as [
    Date | string,
    string,
    string,
    string | null,
    CsvSubmission["user_type"],
    string,
    boolean | number | string,
    string | null,
    string | null,
    CsvSubmission["kind"],
    string | null,
  ];
  return {
    created_at: toIsoString(createdAt),
    name,
    email,
    phone,
    user_type: userType,
    message,
    is_read: toBoolean(isRead),
    spam_reason: spamReason,
    spam_signals: spamSignals,
    kind,
    valuation: kind === "valuation" ? (parseValuationDetails(details) ?? null) : null,
  };
}
