import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from "kysely";
import { dialectOf, type Db } from "~/platform/db/db.server";
import type { MigrationDialect } from "~/platform/db/migrations/types";
import { toBoolean, toIsoString } from "~/platform/db/db-values";
import type { ContactSubmissionTable, DatabaseSchema } from "~/platform/db/schema";
import { audit, auditEach } from "~/audit/audit.server";
import { actorLabel, type Actor } from "~/audit/actor";
import { inTransaction } from "~/platform/db/transactions.server";
import { deleteEnquiries } from "./enquiries.server";
import { formatCursor, type InboxCounts, type InboxFilter, type InboxPage, type InboxQuery, type PagePosition, type StoredSubmission } from "./inbox";
import { ENQUIRY_STATUSES, type EnquiryStatus } from "./pipeline";
import { FLOOD_SIGNAL, isHeldInFlood } from "./spam";
import { markFirstResponse } from "./first-response.server";
import { countersByGroup, type CountGroup } from "./inbox-counts.server";
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
 * A case-insensitive substring of the name, e-mail, phone or message, or of a
 * valuation request's address and postcode, found with the database's own
 * text index (migrations 018 and 023, decisions 058 and 068).
 *
 * SQLite: the FTS5 trigram index, asked for the search as one phrase (its
 * characters in a row; quotes doubled, so nothing in it is FTS syntax). The
 * trigram tokenizer folds case (Unicode, not only ASCII) and needs three
 * characters: a shorter search is a LIKE over the rows, as before.
 * PostgreSQL: LIKE on SEARCH_TEXT, which its pg_trgm index serves. Both keep
 * "%" and "_" as themselves.
 */
function matchesSearch(eb: Where, search: string, dialect: MigrationDialect, plan: SearchPlan = "index") {
  if (dialect === "postgres") return sql<SqlBool>`${SEARCH_TEXT} like lower(${likePattern(search)}) escape '\\'`;
  if (Array.from(search).length < 3) {
    const searched = [...SEARCHED.map((column) => sql.ref(column)), SQLITE_PLACE];
    return eb.or(searched.map((text) => sql<SqlBool>`lower(${text}) like lower(${likePattern(search)}) escape '\\'`));
  }
  const phrase = ftsPhrase(search);
  // "+" keeps SQLite from looking the matches up by rowid: it walks the view's order and tests each row against the set of matches.
  const rowid = plan === "walk" ? sql`+contact_submissions.rowid` : sql`contact_submissions.rowid`;
  return sql<SqlBool>`${rowid} in (select rowid from contact_submissions_search where contact_submissions_search match ${phrase})`;
}

/**
 * How a page finds a search's matches (decision 073). "index": the matches
 * first (the text index), then sorted newest first: fast while they are few.
 * "walk": the view's own order, newest first, each row tested against the
 * matches until the page is full: fast when they are many (a word in most
 * messages fills a page within a few hundred rows). Both find the same rows
 * in the same order. PostgreSQL's planner weighs the two itself (its
 * statistics of the indexed expression estimate a search's matches well).
 */
type SearchPlan = "index" | "walk";

/**
 * A search matching more than this many enquiries (of every tab together) is
 * not counted per tab, status and Due (decision 073): counting tens of
 * thousands of matches cost more than the 50 ms a view may take. The page
 * says "more than 1,000" instead, and shows the newest matches as ever.
 */
export const SEARCH_COUNT_LIMIT = 1000;

/** Whether the search matches more than `limit` enquiries: it reads at most limit + 1 of the text index's matches. */
async function matchesMoreThan(db: Db, search: string, limit: number): Promise<boolean> {
  const dialect = dialectOf(db);
  const matches =
    dialect === "sqlite" && Array.from(search).length >= 3
      ? // The index alone: the table's rows are not read.
        sql`select rowid from contact_submissions_search where contact_submissions_search match ${ftsPhrase(search)} limit ${limit + 1}`
      : db
          .selectFrom("contact_submissions")
          .select(sql.lit(1).as("one"))
          .where((eb) => matchesSearch(eb, search, dialect))
          .limit(limit + 1);
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from (${matches}) as matches`.execute(db);
  return Number(rows[0]?.count ?? 0) > limit;
}

/** The search as one FTS5 phrase: its characters in a row, quotes doubled, so nothing in it is FTS syntax. */
function ftsPhrase(search: string): string {
  return `"${search.replaceAll('"', '""')}"`;
}

const SEARCHED = ["name", "email", "phone", "message"] as const;

/** A valuation request's address and postcode, as migration 023's triggers index them on SQLite ('' for the contact form's). */
const SQLITE_PLACE = sql`(case when json_valid(details) then coalesce(json_extract(details, '$.address') || ' ' || json_extract(details, '$.postcode'), '') else '' end)`;

/**
 * What PostgreSQL searches: the four fields and a valuation's address and postcode, lower-cased, apart
 * (\x01 never reaches a search: parseSearch makes it a space). Migration 023 indexes this very expression.
 */
const SEARCH_TEXT = sql`lower(name || E'\\x01' || email || E'\\x01' || coalesce(phone, '') || E'\\x01' || message || E'\\x01' ||
  coalesce((details::jsonb ->> 'address') || ' ' || (details::jsonb ->> 'postcode'), ''))`;

/** A LIKE pattern finding `text` anywhere, its own wildcards escaped. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/**
 * Every submission the admin's filter and search select, newest first (under
 * Due, the most overdue first): the one definition of "what this view holds",
 * shared by the inbox pages and the CSV export. `search` should come through
 * parseSearch (inbox.ts); empty means no search.
 */
export function submissionsQuery(db: Db, query: InboxQuery, plan: SearchPlan = "index") {
  const rows = db
    .selectFrom("contact_submissions")
    .selectAll()
    .where((eb) => eb.and([inFilter(eb, query.filter), ...narrowing(eb, query, dialectOf(db), plan)]));
  return (query.dueBy === undefined ? rows : rows.orderBy("follow_up_on", "asc")).orderBy("created_at", "desc").orderBy("id", "desc");
}

/**
 * What narrows every count of a view besides the tab: the search, and each
 * of the status, the assignee and Due when asked (decision 061).
 */
function narrowing(
  eb: Where,
  { search = "", status, assignee, dueBy }: Omit<InboxQuery, "filter">,
  dialect: MigrationDialect,
  plan: SearchPlan = "index",
): Expression<SqlBool>[] {
  return [
    ...(search === "" ? [] : [matchesSearch(eb, search, dialect, plan)]),
    ...(status ? [eb("status", "=", status)] : []),
    ...(assignee === undefined ? [] : [assignee === "unassigned" ? eb("assigned_to", "is", null) : eb("assigned_to", "=", assignee.member)]),
    ...(dueBy === undefined ? [] : [eb("follow_up_on", "<=", dueBy)]),
  ];
}

/**
 * How many submissions there are of each kind the tabs and the statuses tell
 * apart (spam, held in a flood, read, unread; by status), which the counts
 * below add up. A view without a search or Due reads them from the counters
 * the database keeps (migration 022, decision 063), of everyone or of one
 * assignee. A search or Due counts its matches: one pass over an index that
 * holds the columns tested (migration 018), a few dozen groups.
 */
async function countGroups(db: Db, { search = "", assignee, dueBy }: Pick<InboxQuery, "search" | "assignee" | "dueBy">): Promise<CountGroup[]> {
  if (search === "" && dueBy === undefined) return countersByGroup(db, assignee);
  const rows = await db
    .selectFrom("contact_submissions")
    .select(["spam_reason", "is_read", "status", "spam_signals", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where((eb) => eb.and(narrowing(eb, { search, assignee, dueBy }, dialectOf(db))))
    .groupBy(["spam_reason", "is_read", "status", "spam_signals"])
    .execute();
  return rows.map((row) => ({
    tab: row.spam_reason !== null ? "spam" : isHeldInFlood(row.spam_signals) ? "held" : toBoolean(row.is_read) ? "read" : "unread",
    status: row.status,
    count: Number(row.count),
  }));
}

/** Per filter tab, of the groups of the status chosen (every status without one). */
function tabCounts(groups: CountGroup[], status: EnquiryStatus | undefined): InboxCounts {
  const counts: InboxCounts = { all: 0, unread: 0, read: 0, held: 0, spam: 0 };
  for (const group of groups) {
    if (status && group.status !== status) continue;
    counts[group.tab] += group.count;
    if (group.tab === "read" || group.tab === "unread") counts.all += group.count;
  }
  return counts;
}

/** Per status, of the real enquiries (not spam, not held) of the read state chosen. */
function statusCounts(groups: CountGroup[], filter: InboxFilter): Record<EnquiryStatus, number> {
  const counts = Object.fromEntries(ENQUIRY_STATUSES.map((status) => [status, 0])) as Record<EnquiryStatus, number>;
  for (const group of groups) {
    const real = group.tab === "read" || group.tab === "unread";
    if (real && (filter === group.tab || (filter !== "read" && filter !== "unread"))) counts[group.status] += group.count;
  }
  return counts;
}

/** How many submissions each filter tab holds, of those the search, status, assignee and Due (when chosen) select. */
export async function countSubmissions(db: Db, narrow: Omit<InboxQuery, "filter"> = {}): Promise<InboxCounts> {
  return tabCounts(await countGroups(db, narrow), narrow.status);
}

/** How many real enquiries (not spam, not held) of the read state chosen each status holds, of those the search, assignee and Due select. */
export async function countByStatus(db: Db, query: InboxQuery): Promise<Record<EnquiryStatus, number>> {
  return statusCounts(await countGroups(db, query), query.filter);
}

/** How many real enquiries (not spam, not held) are to be followed up on or before `dueBy`, of those the rest of the view selects. */
export async function countDue(db: Db, { filter: _filter, dueBy, ...narrow }: InboxQuery & { dueBy: string }): Promise<number> {
  const row = await db
    .selectFrom("contact_submissions")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where((eb) => eb.and([inFilter(eb, "all"), ...narrowing(eb, { ...narrow, dueBy }, dialectOf(db))]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * One page of a view, with the counts for the filter tabs and the statuses,
 * and, given today's UK date, how many of the view are due. A page after a
 * cursor (Next) or before one (Previous) reads only its own rows from the
 * (created_at, id) order; a number alone is the newest page, or, for an old
 * ?page=n of the JSON API, an offset. Due's order (the most overdue first)
 * is not that order: its pages are by number (a due list is a day's work,
 * never thousands).
 */
export async function listSubmissions(db: Db, query: InboxQuery, position: number | PagePosition = 1, today?: string): Promise<InboxPage> {
  const at: PagePosition = typeof position === "number" ? { page: position } : query.dueBy === undefined ? position : { page: position.page };
  // A search with more matches than SEARCH_COUNT_LIMIT: the page walks the view's order, and nothing is counted.
  const many = (query.search ?? "") !== "" && (await matchesMoreThan(db, query.search!, SEARCH_COUNT_LIMIT));
  const [found, groups, due] = await Promise.all([
    pageRows(db, query, at, many ? "walk" : "index"),
    many ? undefined : countGroups(db, query),
    today === undefined || many ? undefined : countDue(db, { ...query, dueBy: query.dueBy ?? today }),
  ]);
  // Nothing newer than Previous's cursor fills a page: the newest page is what there is.
  if (found === "newest") return listSubmissions(db, query, 1, today);
  const submissions = found.rows.map(toSubmission);
  const first = submissions[0];
  const last = submissions.at(-1);
  const place = (submission: StoredSubmission) => formatCursor({ createdAt: submission.created_at, id: submission.id });
  return {
    submissions,
    ...(groups ? { counts: tabCounts(groups, query.status), statusCounts: statusCounts(groups, query.filter) } : { matchesOver: SEARCH_COUNT_LIMIT }),
    ...(due === undefined ? {} : { due }),
    page: at.page,
    hasMore: found.hasMore,
    cursor: at.after ? { after: formatCursor(at.after) } : at.before ? { before: formatCursor(at.before) } : {},
    ...(at.page > 1 && first ? { previousCursor: place(first) } : {}),
    ...(found.hasMore && last ? { nextCursor: place(last) } : {}),
  };
}

type Row = Selectable<ContactSubmissionTable>;

async function pageRows(db: Db, query: InboxQuery, at: PagePosition, plan: SearchPlan): Promise<{ rows: Row[]; hasMore: boolean } | "newest"> {
  const { after, before } = at;
  if (before) {
    const newer = await submissionsQuery(db, query, plan)
      .where((eb) => eb(eb.refTuple("created_at", "id"), ">", eb.tuple(before.createdAt, before.id)))
      .clearOrderBy()
      .orderBy("created_at", "asc")
      .orderBy("id", "asc")
      .limit(INBOX_PAGE_SIZE + 1)
      .execute();
    return newer.length > INBOX_PAGE_SIZE ? { rows: newer.slice(0, INBOX_PAGE_SIZE).reverse(), hasMore: true } : "newest";
  }
  let rows = submissionsQuery(db, query, plan).limit(INBOX_PAGE_SIZE + 1);
  if (after) rows = rows.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(after.createdAt, after.id)));
  else if (at.page > 1) rows = rows.offset((at.page - 1) * INBOX_PAGE_SIZE);
  const found = await rows.execute();
  return { rows: found.slice(0, INBOX_PAGE_SIZE), hasMore: found.length > INBOX_PAGE_SIZE };
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
    // A page of spam deleted at once must not hold up the site for seconds (decision 069); an erasure wipes.
    { wipeSearchIndex: false },
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
