import type { AuditDetails } from "~/audit/kinds";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { memberName } from "./assignment.server";
import type { TimelineFact } from "./timeline";

/**
 * The audit log's entries about these enquiries that their timelines show
 * (decision 062), oldest first, by enquiry, with members named as the team
 * knows them. One query for the page's cards (the log's index on target and
 * time), and one for the names of the members assigned.
 */
const ACTIONS = {
  "enquiry-status-changed": "status",
  "enquiry-assigned": "assigned",
  "enquiry-follow-up-set": "follow-up",
  "enquiry-marked-spam": "marked-spam",
  "enquiry-marked-not-spam": "not-spam",
  "enquiry-released": "released",
} as const;

/** Who a member assigned was, when they have left the team. */
export const FORMER_MEMBER = "a former member";

export async function timelineFactsOf(db: Db, submissionIds: string[]): Promise<Map<string, TimelineFact[]>> {
  const facts = new Map<string, TimelineFact[]>();
  if (submissionIds.length === 0) return facts;
  const rows = await db
    .selectFrom("audit_log")
    .select(["target_id", "action", "actor_label", "details", "at"])
    .where("target_id", "in", submissionIds)
    .where("action", "in", Object.keys(ACTIONS))
    .orderBy("at")
    .orderBy("id")
    .execute();
  const parsed = rows.map((row) => ({ ...row, details: (row.details === null ? {} : JSON.parse(row.details)) as AuditDetails }));
  const assignees = [...new Set(parsed.flatMap((row) => (row.details.assignee ? [row.details.assignee] : [])))];
  const names = new Map<string, string>();
  if (assignees.length > 0) {
    for (const member of await db.selectFrom("admin_users").select(["id", "name", "email"]).where("id", "in", assignees).execute()) {
      names.set(member.id, memberName(member));
    }
  }
  for (const row of parsed) {
    if (row.target_id === null) continue;
    const action = ACTIONS[row.action as keyof typeof ACTIONS];
    const base = { at: toIsoString(row.at), by: row.actor_label };
    const fact: TimelineFact | undefined =
      action === "status"
        ? row.details.status && { ...base, action, status: row.details.status }
        : action === "assigned"
          ? { ...base, action, to: row.details.assignee && (names.get(row.details.assignee) ?? FORMER_MEMBER) }
          : action === "follow-up"
            ? { ...base, action, day: row.details.day }
            : { ...base, action };
    if (!fact) continue;
    const list = facts.get(row.target_id) ?? [];
    list.push(fact);
    facts.set(row.target_id, list);
  }
  return facts;
}
