import { assigneeParamValue, parseAssigneeParam, resolveAssignee, type AssigneeParam } from "./assignment";
import type { InboxFilter, InboxQuery } from "./inbox";
import { parseStatusFilter, type EnquiryStatus } from "./pipeline";

/**
 * What narrows a view of the inbox besides the specification's tabs and the
 * search (issue 22): a status, whose enquiries (Mine, Unassigned, a member's)
 * and Due. In the URL (?status=…&assignee=…&due=1) so each view can be
 * linked, reloaded and exported; shared by the page, its JSON and its CSV.
 */
export type ViewNarrowing = { status?: EnquiryStatus; assignee?: AssigneeParam; due: boolean };

export function parseNarrowing(params: URLSearchParams): ViewNarrowing {
  const status = parseStatusFilter(params.get("status"));
  const assignee = parseAssigneeParam(params.get("assignee"));
  return { ...(status ? { status } : {}), ...(assignee ? { assignee } : {}), due: params.get("due") === "1" };
}

/** The URL's parameters for it (none for what is not narrowed). */
export function narrowingParams({ status, assignee, due }: ViewNarrowing): Record<string, string> {
  const assigneeValue = assigneeParamValue(assignee);
  return { ...(status ? { status } : {}), ...(assigneeValue ? { assignee: assigneeValue } : {}), ...(due ? { due: "1" } : {}) };
}

export function isNarrowed(narrowing: ViewNarrowing): boolean {
  return Object.keys(narrowingParams(narrowing)).length > 0;
}

/** The query a view asks: Mine is the signed-in member's own; Due, what is due on or before today (UK). */
export function inboxQuery(view: { filter: InboxFilter; search: string; narrowing: ViewNarrowing }, memberId: string, today: string): InboxQuery {
  const { status, assignee, due } = view.narrowing;
  const resolved = resolveAssignee(assignee, memberId);
  return {
    filter: view.filter,
    search: view.search,
    ...(status ? { status } : {}),
    ...(resolved ? { assignee: resolved } : {}),
    ...(due ? { dueBy: today } : {}),
  };
}
