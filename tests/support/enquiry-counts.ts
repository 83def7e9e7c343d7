import { isHeldInFlood } from "~/enquiries/spam";
import type { Db } from "~/platform/db/db.server";
import { toBoolean } from "~/platform/db/db-values";

/**
 * The inbox's counts two ways, as "tab status assignee: n" lines sorted: what
 * the counters of migration 022 hold (a group's rows added up, groups of 0
 * left out), and what a fresh count(*) of contact_submissions gives, each
 * enquiry put under its tab as the inbox files it (isHeldInFlood deciding
 * Held). A test compares the two after changes.
 */
export async function keptCounts(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("enquiry_counts")
    .select(["tab", "status", "assignee", (eb) => eb.fn.sum<number | string>("n").as("n")])
    .groupBy(["tab", "status", "assignee"])
    .execute();
  return rows
    .filter((row) => Number(row.n) !== 0)
    .map((row) => `${row.tab} ${row.status} ${row.assignee || "nobody"}: ${Number(row.n)}`)
    .sort();
}

export async function freshCounts(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("contact_submissions")
    .select(["spam_reason", "spam_signals", "is_read", "status", "assigned_to", (eb) => eb.fn.countAll<number | string>().as("n")])
    .groupBy(["spam_reason", "spam_signals", "is_read", "status", "assigned_to"])
    .execute();
  const groups = new Map<string, number>();
  for (const row of rows) {
    const tab = row.spam_reason !== null ? "spam" : isHeldInFlood(row.spam_signals) ? "held" : toBoolean(row.is_read) ? "read" : "unread";
    const key = `${tab} ${row.status} ${row.assigned_to ?? "nobody"}`;
    groups.set(key, (groups.get(key) ?? 0) + Number(row.n));
  }
  return [...groups].map(([key, n]) => `${key}: ${n}`).sort();
}
