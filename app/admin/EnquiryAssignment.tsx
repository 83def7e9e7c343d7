import type { useFetcher } from "react-router";
import { CARD_BUTTON, CARD_FIELD } from "./EnquiryPipeline";
import { INBOX_TEXT } from "./texts";
import type { InboxSubmission } from "./types";

/**
 * Who deals with the enquiry and when to follow it up (issue 22, decision
 * 061): two small forms on the card, posting their intents like the card's
 * buttons, so both work without JavaScript. A follow-up due today or past
 * says so in words as well as colour.
 */

const FIELD = CARD_FIELD;
const BUTTON = CARD_BUTTON;

export function AssignmentControls({
  submission,
  members,
  Form,
  busy,
}: {
  submission: InboxSubmission;
  members: ReadonlyArray<{ id: string; name: string }>;
  Form: ReturnType<typeof useFetcher>["Form"];
  busy: boolean;
}) {
  const id = submission.id;
  const assign = INBOX_TEXT.assign;
  const followUp = INBOX_TEXT.followUp;
  // A member who has left the team is not in the list: the card still says who it was.
  const listed = submission.assigned_to === null || members.some((member) => member.id === submission.assigned_to);
  return (
    <div className="mt-3 flex flex-wrap items-end gap-x-6 gap-y-3 rounded-lg bg-slate-50 px-3 py-3 ring-1 ring-slate-200 ring-inset">
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="assign" />
        <input type="hidden" name="id" value={id} />
        <div>
          <label htmlFor={`assignee-${id}`} className="block text-sm font-medium text-slate-800">
            {assign.label}
          </label>
          <select id={`assignee-${id}`} name="assignee" defaultValue={submission.assigned_to ?? ""} className={FIELD}>
            <option value="">{assign.nobody}</option>
            {listed ? null : <option value={submission.assigned_to ?? ""}>{submission.assignee_name}</option>}
            {members.map((member) => (
              <option key={member.id} value={member.id}>
                {member.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={busy} className={BUTTON}>
          {assign.save}
        </button>
      </Form>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="set-follow-up" />
        <input type="hidden" name="id" value={id} />
        <div>
          <label htmlFor={`follow-up-${id}`} className="block text-sm font-medium text-slate-800">
            {followUp.label}
          </label>
          <input
            id={`follow-up-${id}`}
            name="followUp"
            type="date"
            min="2000-01-01"
            max="2099-12-31"
            defaultValue={submission.follow_up_on ?? ""}
            aria-describedby={submission.follow_up ? `follow-up-state-${id}` : undefined}
            className={FIELD}
          />
        </div>
        <button type="submit" disabled={busy} className={BUTTON}>
          {followUp.save}
        </button>
        {submission.follow_up_on ? (
          <button type="submit" name="clear" value="yes" disabled={busy} className={BUTTON}>
            {followUp.clear}
          </button>
        ) : null}
      </Form>
      {submission.follow_up && submission.follow_up.due !== "later" ? (
        <p id={`follow-up-state-${id}`} className="w-full text-sm">
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${
              submission.follow_up.due === "overdue" ? "bg-red-50 text-red-900 ring-red-300" : "bg-amber-50 text-amber-950 ring-amber-300"
            }`}
          >
            {submission.follow_up.due === "overdue" ? followUp.overdue : followUp.today}
          </span>{" "}
          <span className="text-slate-700">{submission.follow_up.label}</span>
        </p>
      ) : null}
    </div>
  );
}
