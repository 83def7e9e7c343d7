import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from "kysely";
import type { Db } from "~/platform/db/db.server";
import { toBoolean, toIsoString } from "~/platform/db/db-values";
import type { ContactSubmissionTable, DatabaseSchema } from "~/platform/db/schema";
import { audit, auditEach } from "~/audit/audit.server";
import { actorLabel, type Actor } from "~/audit/actor";
import { inTransaction } from "~/platform/db/transactions.server";
import { deleteEnquiries } from "./enquiries.server";
import { markFirstResponse } from "./first-response.server";
import type { InboxCounts, InboxFilter, InboxPage, InboxQuery, StoredSubmission } from "./inbox";
import { ENQUIRY_STATUSES, type EnquiryStatus } from "./pipeline";
import { FLOOD_SIGNAL } from "./spam";
import { parseValuationDetails } from "./valuation";

/** The admin's inbox of contact submissions: newest first, filtered by read state, held in a flood or spam, searched. */
export const INBOX_PAGE_SIZE = 50;

type Where = ExpressionBuilder<DatabaseSchema, "contact_submissions">;

export function toSubmission(row: Selectable<ContactSubmissionTable>): StoredSubmission {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    user_type: row.user_type,
    message: row.message,
    is_read: toBoolean(row.is_read),
    created_at: toIsoString(row.created_at),
    spam_reason: row.spam_reason,
    spam_signals: row.spam_signals,
    status: row.status,
    status_reason: row.status_reason,
    status_changed_at: row.status_changed_at === null ? null : toIsoString(row.status_changed_at),
    status_changed_by: row.status_changed_by,
    assigned_to: row.assigned_to,
    assigned_at: row.assigned_at === null ? null : toIsoString(row.assigned_at),
    follow_up_on: row.follow_up_on,
    kind: row.kind,
    valuation: row.kind === "valuation" ? (parseValuationDetails(row.details) ?? null) : null,
  };
}

/** Held in a flood: its signals ("flood+too-fast") hold the flood mark. */
const HELD = sql<SqlBool>`('+' || coalesce(spam_signals, '') || '+') like ${`%+${FLOOD_SIGNAL}+%`}`;

/** Spam only under Spam, what a flood brought only under Held; everywhere else real enquiries, then by read state. */
function inFilter(eb: Where, filter: InboxFilter) {
  if (filter === "spam") return eb("spam_reason", "is not", null);
  if (filter === "held") return eb.and([eb("spam_reason", "is", null), HELD]);
  const real = eb.and([eb("spam_reason", "is", null), eb.not(HELD)]);
  return filter === "all" ? real : eb.and([real, eb("is_read", "=", filter === "read")]);
}

/**
 * A case-insensitive substring of the name, e-mail or message. The search is
 * a LIKE pattern with its own wildcards escaped, so "%" and "_" find
 * themselves; lower() on both sides because PostgreSQL's LIKE is
 * case-sensitive (SQLite's lower() folds ASCII letters only).
 */
function matchesSearch(eb: Where, search: string) {
  const pattern = `%${search.replace(/[\\%_]/g, "\\$&")}%`;
  return eb.or((["name", "email", "message"] as const).map((column) => sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`));
}

/**
 * What narrows every count of a view: the search, the status, the assignee
 * and Due. (The filter tabs count each read state of what these select.)
 */
function narrowing(eb: Where, { search = "", status, assignee, dueBy }: Omit<InboxQuery, "filter">) {
  return [
    ...(search === "" ? [] : [matchesSearch(eb, search)]),
    ...(status ? [eb("status", "=", status)] : []),
    ...(assignee === undefined ? [] : [assignee === "unassigned" ? eb("assigned_to", "is", null) : eb("assigned_to", "=", assignee.member)]),
    ...(dueBy === undefined ? [] : [eb("follow_up_on", "<=", dueBy)]),
  ];
}

/**
 * Every submission the admin's filter and search select, newest first (under
 * Due, the most overdue first): the one definition of "what this view holds",
 * shared by the inbox pages and the CSV export. `search` should come through
 * parseSearch (inbox.ts); empty means no search.
 */
export function submissionsQuery(db: Db, query: InboxQuery) {
  const rows = db
    .selectFrom("contact_submissions")
    .selectAll()
    .where((eb) => eb.and([inFilter(eb, query.filter), ...narrowing(eb, query)]));
  return (query.dueBy === undefined ? rows : rows.orderBy("follow_up_on", "asc")).orderBy("created_at", "desc").orderBy("id", "desc");
}

/**
 * The ids a CSV export of this view holds, newest first, fixed now, with the
 * export's audit entry (the view, whether it was searched, how many rows;
 * never the search's words) in the same transaction.
 */
export async function idsToExport(db: Db, query: InboxQuery, actor: Actor): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const ids = (await submissionsQuery(trx, query).clearSelect().select("id").execute()).map((row) => row.id);
    await audit(trx, { actor, action: "enquiries-exported", target: query.filter, details: { searched: (query.search ?? "") !== "", count: ids.length } });
    return ids;
  });
}

/** How many submissions each filter tab holds, of those the search, status, assignee and Due (when chosen) select. */
export async function countSubmissions(db: Db, narrow: Omit<InboxQuery, "filter"> = {}): Promise<InboxCounts> {
  // is_read is 0/1 on SQLite and a boolean on PostgreSQL: both read it as a condition.
  const real = sql`spam_reason is null and not (${HELD})`;
  const query = db
    .selectFrom("contact_submissions")
    .select([
      sql<number | string | null>`sum(case when ${real} then 1 else 0 end)`.as("all"),
      sql<number | string | null>`sum(case when ${real} and not is_read then 1 else 0 end)`.as("unread"),
      sql<number | string | null>`sum(case when ${real} and is_read then 1 else 0 end)`.as("read"),
      sql<number | string | null>`sum(case when spam_reason is null and ${HELD} then 1 else 0 end)`.as("held"),
      sql<number | string | null>`sum(case when spam_reason is null then 0 else 1 end)`.as("spam"),
    ]);
  const row = await query.where((eb) => eb.and(narrowing(eb, narrow))).executeTakeFirstOrThrow();
  return {
    all: Number(row.all ?? 0),
    unread: Number(row.unread ?? 0),
    read: Number(row.read ?? 0),
    held: Number(row.held ?? 0),
    spam: Number(row.spam ?? 0),
  };
}

/** How many real enquiries (not spam, not held) of the read state chosen each status holds, of those the search, assignee and Due select. */
export async function countByStatus(db: Db, { filter, status: _chosen, ...narrow }: InboxQuery): Promise<Record<EnquiryStatus, number>> {
  const readState = filter === "unread" || filter === "read" ? filter : "all";
  const query = db
    .selectFrom("contact_submissions")
    .select(["status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where((eb) => eb.and([inFilter(eb, readState), ...narrowing(eb, narrow)]))
    .groupBy("status");
  const counts = Object.fromEntries(ENQUIRY_STATUSES.map((status) => [status, 0])) as Record<EnquiryStatus, number>;
  for (const row of await query.execute()) counts[row.status] = Number(row.count);
  return counts;
}

/** How many real enquiries (not spam, not held) are to be followed up on or before `dueBy`, of those the rest of the view selects. */
export async function countDue(db: Db, { filter: _filter, dueBy, ...narrow }: InboxQuery & { dueBy: string }): Promise<number> {
  const row = await db
    .selectFrom("contact_submissions")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where((eb) => eb.and([inFilter(eb, "all"), ...narrowing(eb, { ...narrow, dueBy })]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * One page of a view (1-based), with the counts for the filter tabs and the
 * statuses, and, given today's UK date, how many of the view are due.
 */
export async function listSubmissions(db: Db, query: InboxQuery, page = 1, today?: string): Promise<InboxPage> {
  const { filter: _filter, ...narrow } = query;
  const [rows, counts, statusCounts, due] = await Promise.all([
    submissionsQuery(db, query)
      .limit(INBOX_PAGE_SIZE + 1)
      .offset((page - 1) * INBOX_PAGE_SIZE)
      .execute(),
    countSubmissions(db, narrow),
    countByStatus(db, query),
    today === undefined ? undefined : countDue(db, { ...query, dueBy: query.dueBy ?? today }),
  ]);
  return {
    submissions: rows.slice(0, INBOX_PAGE_SIZE).map(toSubmission),
    counts,
    statusCounts,
    ...(due === undefined ? {} : { due }),
    page,
    hasMore: rows.length > INBOX_PAGE_SIZE,
  };
}

/** Marks a submission read or unread; false when there is no such submission. */
export async function setSubmissionRead(db: Db, id: string, isRead: boolean, actor: Actor): Promise<boolean> {
  return (await setSubmissionsRead(db, [id], isRead, actor)) > 0;
}

/** Marks these submissions read or unread, each with its audit entry; answers how many exist (and so were marked). */
export async function setSubmissionsRead(db: Db, ids: string[], isRead: boolean, actor: Actor): Promise<number> {
  if (ids.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    const marked = await trx.updateTable("contact_submissions").set({ is_read: isRead }).where("id", "in", ids).returning("id").execute();
    await auditEach(
      trx,
      { actor, action: isRead ? "enquiry-marked-read" : "enquiry-marked-unread" },
      marked.map((row) => row.id),
    );
    return marked.length;
  });
}

/** Deletes a submission and its e-mail jobs; false when there was no such submission. */
export async function deleteSubmission(db: Db, id: string, actor: Actor): Promise<boolean> {
  return (await deleteSubmissions(db, [id], actor)) > 0;
}

/** Deletes these submissions and their e-mail jobs, each with its audit entry; answers how many submissions there were. */
export async function deleteSubmissions(db: Db, ids: string[], actor: Actor): Promise<number> {
  if (ids.length === 0) return 0;
  const deleted = await deleteEnquiries(
    db,
    (eb) => eb("id", "in", ids),
    (trx, deletedIds) => auditEach(trx, { actor, action: "enquiry-deleted" }, deletedIds),
  );
  return deleted.submissions;
}

/**
 * Not spam: a submission under Spam moves to the inbox, unread; one held in a
 * flood is released to the inbox; one marked as possible spam loses its mark.
 * False when it is none of these.
 */
export async function markNotSpam(db: Db, id: string, actor: Actor): Promise<"moved" | "released" | "unmarked" | false> {
  return inTransaction(db, async (trx) => {
    const done = await unmarkSpam(trx, id);
    if (done) await audit(trx, { actor, action: done === "released" ? "enquiry-released" : "enquiry-marked-not-spam", target: id });
    return done;
  });
}

async function unmarkSpam(db: Db, id: string): Promise<"moved" | "released" | "unmarked" | false> {
  const unmark = (which: (eb: Where) => Expression<SqlBool>, set: { spam_signals: null; spam_reason?: null; is_read?: false }) =>
    db.updateTable("contact_submissions").set(set).where("id", "=", id).where(which).executeTakeFirst();
  const filed = await unmark((eb) => eb("spam_reason", "is not", null), { spam_reason: null, spam_signals: null, is_read: false });
  if (Number(filed.numUpdatedRows) > 0) return "moved";
  const held = await unmark(() => HELD, { spam_signals: null });
  if (Number(held.numUpdatedRows) > 0) return "released";
  const marked = await unmark((eb) => eb("spam_signals", "is not", null), { spam_signals: null });
  return Number(marked.numUpdatedRows) > 0 ? "unmarked" : false;
}

/** Move to Spam: the admin files an enquiry of the inbox away, with what marked it (if anything did). False when it is under Spam already, or gone. */
export async function markSpam(db: Db, id: string, actor: Actor): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("contact_submissions")
      .set((eb) => ({ spam_reason: eb.fn.coalesce("spam_signals", sql.lit("by-admin")), spam_signals: null }))
      .where("id", "=", id)
      .where("spam_reason", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await audit(trx, { actor, action: "enquiry-marked-spam", target: id });
    return true;
  });
}

export type StatusChange = { status: EnquiryStatus; reason?: string };

/**
 * Moves an enquiry to a status of the pipeline, with who and when, and its
 * audit entry in the same transaction. Not proceeding keeps its reason; the
 * other statuses clear it. False when there is no such enquiry.
 */
export async function setEnquiryStatus(db: Db, id: string, change: StatusChange, actor: Actor, now = new Date()): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("contact_submissions")
      .set({
        status: change.status,
        status_reason: change.status === "not-proceeding" ? (change.reason ?? null) : null,
        status_changed_at: now.toISOString(),
        status_changed_by: actorLabel(actor),
      })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    // The first status change is the team's first response, unless a reply came before it.
    await markFirstResponse(trx, id, now);
    await audit(trx, { actor, action: "enquiry-status-changed", target: id, details: { status: change.status }, at: now });
    return true;
  });
}
