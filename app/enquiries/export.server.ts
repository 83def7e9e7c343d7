import { sql } from "kysely";
import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import { toBoolean, toIsoString } from "~/platform/db/db-values";
import { dialectOf, type Db } from "~/platform/db/db.server";
import type { SnapshotReads } from "~/platform/db/snapshot-read.server";
import { inTransaction } from "~/platform/db/transactions.server";
import { CSV_BATCH_SIZE, type CsvSource, type CsvSubmission } from "./csv";
import type { InboxQuery } from "./inbox";
import { submissionsQuery } from "./inbox.server";
import { parseValuationDetails } from "./valuation";

/** What a row of the file needs, in this order; nothing else is read (decision 064). */
const COLUMNS = ["name", "email", "phone", "user_type", "message", "is_read", "spam_reason", "spam_signals", "kind", "details"] as const;

/**
 * When it came, as the ISO text the file shows. SQLite holds that text already;
 * PostgreSQL writes it itself (the app's times are whole milliseconds), which
 * spares pg making a Date of every row only for it to be written out again.
 */
function submittedAt(db: Db) {
  return dialectOf(db) === "postgres"
    ? sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as("submitted")
    : sql<string>`created_at`.as("submitted");
}

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
    const rows = snapshot.chunks(
      submissionsQuery(db, query)
        .clearSelect()
        .select([submittedAt(db), ...COLUMNS])
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

async function* submissionsOf(chunks: AsyncIterable<unknown[][]>): AsyncGenerator<CsvSubmission[]> {
  for await (const chunk of chunks) yield chunk.map(toCsvSubmission);
}

/** A row of COLUMNS' values, as either database's snapshot read gives them (PostgreSQL: every value as text). */
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
