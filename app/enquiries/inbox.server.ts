import type { Selectable } from "kysely";
import type { Db } from "~/platform/db.server";
import { toBoolean, toIsoString } from "~/platform/db-values";
import type { ContactSubmissionTable } from "~/platform/schema";
import type { InboxCounts, InboxFilter, InboxPage, StoredSubmission } from "./inbox";

/** The admin's inbox of contact submissions: newest first, filtered by read state. */
export const INBOX_PAGE_SIZE = 50;

function toSubmission(row: Selectable<ContactSubmissionTable>): StoredSubmission {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    user_type: row.user_type,
    message: row.message,
    is_read: toBoolean(row.is_read),
    created_at: toIsoString(row.created_at),
  };
}

export async function countSubmissions(db: Db): Promise<InboxCounts> {
  const rows = await db
    .selectFrom("contact_submissions")
    .select((eb) => ["is_read", eb.fn.countAll<number | string>().as("count")])
    .groupBy("is_read")
    .execute();
  const counts = { all: 0, unread: 0, read: 0 };
  for (const row of rows) {
    const count = Number(row.count);
    counts.all += count;
    counts[toBoolean(row.is_read) ? "read" : "unread"] += count;
  }
  return counts;
}

/** One page of the inbox (1-based), with the counts for the filter tabs. */
export async function listSubmissions(db: Db, filter: InboxFilter, page = 1): Promise<InboxPage> {
  let query = db.selectFrom("contact_submissions").selectAll();
  if (filter !== "all") query = query.where("is_read", "=", filter === "read");
  const [rows, counts] = await Promise.all([
    query
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(INBOX_PAGE_SIZE + 1)
      .offset((page - 1) * INBOX_PAGE_SIZE)
      .execute(),
    countSubmissions(db),
  ]);
  return {
    submissions: rows.slice(0, INBOX_PAGE_SIZE).map(toSubmission),
    counts,
    page,
    hasMore: rows.length > INBOX_PAGE_SIZE,
  };
}

/** Marks a submission read or unread; false when there is no such submission. */
export async function setSubmissionRead(db: Db, id: string, isRead: boolean): Promise<boolean> {
  const result = await db.updateTable("contact_submissions").set({ is_read: isRead }).where("id", "=", id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a submission; false when there was no such submission. */
export async function deleteSubmission(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("contact_submissions").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
