import { sql } from "kysely";
import { dialectOf, type Db } from "~/platform/db/db.server";
import { inTransaction } from "~/platform/db/transactions.server";
import type { InboxFilter, InboxQuery } from "./inbox";
import type { EnquiryStatus } from "./pipeline";

/** How many enquiries one tab holds of one status (of the view's narrowing). */
export type CountGroup = { tab: Exclude<InboxFilter, "all">; status: EnquiryStatus; count: number };

/** Rows of deltas PostgreSQL's triggers may leave before a reader folds them (each a few bytes; hundreds add up in well under a millisecond). */
const FOLD_AFTER = 500;

/**
 * The groups as the counters keep them (migration 022, decision 063): no row
 * of contact_submissions read, whatever their number. Only the assignee
 * narrows them (the counters are per member); a search or Due is counted
 * from the rows (inbox.server.ts countGroups).
 */
export async function countersByGroup(db: Db, assignee: InboxQuery["assignee"]): Promise<CountGroup[]> {
  let query = db
    .selectFrom("enquiry_counts")
    .select(["tab", "status", (eb) => eb.fn.sum<number | string>("n").as("count"), (eb) => eb.fn.countAll<number | string>().as("entries")])
    .groupBy(["tab", "status"]);
  if (assignee !== undefined) query = query.where("assignee", "=", assignee === "unassigned" ? "" : assignee.member);
  const rows = await query.execute();
  const entries = rows.reduce((sum, row) => sum + Number(row.entries), 0);
  if (dialectOf(db) === "postgres" && entries > rows.length + FOLD_AFTER) await foldCounts(db);
  return rows.map((row) => ({ tab: row.tab, status: row.status, count: Number(row.count) }));
}

/**
 * PostgreSQL's triggers only ever add rows (what each statement changed), so
 * that writers never wait for one another on a shared counter; this folds
 * them into one row per group, in one statement: what it deletes is what it
 * adds up, and rows committed meanwhile are left for the next fold. One fold
 * at a time (the others skip it). Harmless to run any time; changes no count.
 */
export async function foldCounts(db: Db): Promise<void> {
  await inTransaction(db, async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtext('enquiry_counts fold')) as locked`.execute(trx);
    if (!rows[0]?.locked) return;
    await sql`with folded as (delete from enquiry_counts returning tab, status, assignee, n)
      insert into enquiry_counts (tab, status, assignee, n)
      select tab, status, assignee, sum(n) from folded group by tab, status, assignee having sum(n) <> 0`.execute(trx);
  });
}
