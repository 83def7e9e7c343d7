import { Form } from "react-router";
import type { InboxFilter } from "~/enquiries/inbox";
import { ENQUIRY_STATUSES, STATUS_LABELS, type EnquiryStatus } from "~/enquiries/pipeline";
import { assigneeParamValue } from "~/enquiries/assignment";
import type { ViewNarrowing } from "~/enquiries/view";
import { INBOX_TEXT } from "./texts";

/**
 * Beside the specification's tabs (issue 22): the status, whose enquiries
 * (Mine, Unassigned, a member's) and Due, in one plain GET form that keeps
 * the tab and the search, so it works without JavaScript. Each status says
 * how many of the view it holds; Due says how many are to be followed up
 * today or earlier.
 */

const SELECT = "mt-1 block rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-600";

/** Hidden fields that carry a view's parameters into a GET form (Refresh, search, these filters). */
export function HiddenParams({ params }: { params: Record<string, string> }) {
  return Object.entries(params).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}

export function NarrowingFilters({
  action,
  filter,
  search,
  narrowing,
  statusCounts,
  due,
  members,
  buttonClassName,
}: {
  action: string;
  filter: InboxFilter;
  search: string;
  narrowing: ViewNarrowing;
  /** None (nor `due`) when the search was too common to count (decision 073): the choices show no numbers. */
  statusCounts: Record<EnquiryStatus, number> | undefined;
  due: number | undefined;
  members: ReadonlyArray<{ id: string; name: string }>;
  buttonClassName: string;
}) {
  const status = INBOX_TEXT.status;
  const narrow = INBOX_TEXT.narrow;
  const assignee = assigneeParamValue(narrowing.assignee) ?? "";
  // A remembered choice is shown again when the page is another view (Back, a link).
  const key = `${narrowing.status ?? ""}:${assignee}:${narrowing.due}`;
  return (
    <Form key={key} method="get" action={action} preventScrollReset className="mt-3 flex flex-wrap items-end gap-x-3 gap-y-2">
      <HiddenParams params={{ ...(filter !== "all" ? { filter } : {}), ...(search !== "" ? { q: search } : {}) }} />
      <div>
        <label htmlFor="inbox-status" className="block text-sm font-medium text-slate-800">
          {status.filter}
        </label>
        <select id="inbox-status" name="status" defaultValue={narrowing.status ?? ""} className={SELECT}>
          <option value="">{status.allStatuses}</option>
          {ENQUIRY_STATUSES.map((value) => (
            <option key={value} value={value}>
              {statusCounts ? `${STATUS_LABELS[value]} (${statusCounts[value]})` : STATUS_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="inbox-assignee" className="block text-sm font-medium text-slate-800">
          {narrow.assignee}
        </label>
        <select id="inbox-assignee" name="assignee" defaultValue={assignee} className={SELECT}>
          <option value="">{narrow.anyone}</option>
          <option value="mine">{narrow.mine}</option>
          <option value="unassigned">{narrow.unassigned}</option>
          {members.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-center gap-2 py-2">
        <input
          id="inbox-due"
          type="checkbox"
          name="due"
          value="1"
          defaultChecked={narrowing.due}
          className="size-5 rounded border-slate-500 text-blue-700 focus:ring-blue-600"
        />
        <label htmlFor="inbox-due" className="text-sm font-medium text-slate-800">
          {narrow.due(due)}
        </label>
      </div>
      <button type="submit" className={buttonClassName}>
        {status.show}
      </button>
    </Form>
  );
}
