import { isCalendarDate } from "~/platform/dates";
import { isUuid } from "~/platform/ids";

/**
 * Who deals with an enquiry and when to follow it up (issue 22, decision
 * 061). Shared by server and browser: the inbox's `?assignee=` and `?due=`,
 * and the follow-up date a member types.
 */

/** `?assignee=`: the member's own ("mine"), nobody's ("unassigned"), or one member's (their id). */
export type AssigneeParam = "mine" | "unassigned" | { member: string };

export function parseAssigneeParam(value: string | null): AssigneeParam | undefined {
  if (value === "mine" || value === "unassigned") return value;
  return value !== null && isUuid(value) ? { member: value } : undefined;
}

/** The query's form of it: a member's id (Mine is the signed-in member's), or nobody. */
export type AssigneeFilter = { member: string } | "unassigned";

export function resolveAssignee(param: AssigneeParam | undefined, memberId: string): AssigneeFilter | undefined {
  if (param === undefined) return undefined;
  return param === "mine" ? { member: memberId } : param;
}

/** How the URL says it: `assignee=mine` stays Mine, so a shared link shows each member their own. */
export function assigneeParamValue(param: AssigneeParam | undefined): string | undefined {
  if (param === undefined) return undefined;
  return typeof param === "string" ? param : param.member;
}

/** The earliest and latest follow-up day a member can give: typing slips (year 20266) are refused, not kept. */
const EARLIEST = "2000-01-01";
const LATEST = "2099-12-31";

/**
 * A follow-up day from a form: "YYYY-MM-DD" (an <input type="date">), a real
 * day between 2000 and 2099; "" clears it. Undefined when it is neither.
 */
export function parseFollowUp(value: string | undefined): string | null | undefined {
  const text = (value ?? "").trim();
  if (text === "") return null;
  if (!isCalendarDate(text) || text < EARLIEST || text > LATEST) return undefined;
  return text;
}
