import { useState } from "react";
import type { useFetcher } from "react-router";
import { MAX_NOTE_LENGTH } from "~/enquiries/notes";
import { ENQUIRY_STATUSES, MAX_REASON_LENGTH, NOT_PROCEEDING_REASONS, STATUS_LABELS, type EnquiryStatus } from "~/enquiries/pipeline";
import { INBOX_TEXT } from "./texts";
import type { InboxSubmission } from "./types";

/** The pipeline's parts of an enquiry's card (issue 22): its Status and the team's notes. */

/** The card's selects and date fields (EnquiryAssignment's too). */
export const CARD_FIELD = "mt-1 block rounded-lg border border-slate-500 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-blue-600";
const SELECT = CARD_FIELD;
/** The card's buttons (EnquiryCard's too), each kind with its colours on top. */
export const ACTION_BUTTON =
  "inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium ring-1 transition-colors disabled:cursor-wait disabled:opacity-70";
/** A plain button of the card's forms (EnquiryAssignment's too). */
export const CARD_BUTTON = `${ACTION_BUTTON} bg-white text-slate-800 ring-slate-300 hover:bg-slate-50`;
const BUTTON = CARD_BUTTON;

/**
 * The enquiry's Status in the pipeline (issue 22): one small form on the
 * card, posting its intent like the card's buttons, so it works without
 * JavaScript; Not proceeding asks why (a reason from the list, or typed).
 * Under it, who changed the status last and when.
 */
export function StatusControl({
  submission,
  Form,
  busy,
  askingReason,
  reasons = NOT_PROCEEDING_REASONS,
}: {
  submission: InboxSubmission;
  Form: ReturnType<typeof useFetcher>["Form"];
  busy: boolean;
  askingReason: boolean;
  /** The owner's list (decision 059). */
  reasons?: readonly string[];
}) {
  const text = INBOX_TEXT.status;
  // The card gives it a new key when the stored status changes or a reason is asked for.
  const [chosen, setChosen] = useState<EnquiryStatus>(askingReason ? "not-proceeding" : submission.status);
  const id = submission.id;
  const listed = reasons.includes(submission.status_reason ?? "");
  const typed = submission.status_reason !== null && !listed ? submission.status_reason : "";
  return (
    <div className="mt-4 rounded-lg bg-slate-50 px-3 py-3 ring-1 ring-slate-200 ring-inset">
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="set-status" />
        <input type="hidden" name="id" value={id} />
        <div>
          <label htmlFor={`status-${id}`} className="block text-sm font-medium text-slate-800">
            {text.label}
          </label>
          <select
            id={`status-${id}`}
            name="status"
            value={chosen}
            onChange={(event) => setChosen(event.currentTarget.value as EnquiryStatus)}
            className={SELECT}
          >
            {ENQUIRY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        {chosen === "not-proceeding" ? (
          <>
            <div>
              <label htmlFor={`reason-${id}`} className="block text-sm font-medium text-slate-800">
                {text.reason}
              </label>
              <select id={`reason-${id}`} name="reason" defaultValue={listed ? (submission.status_reason ?? "") : typed ? "other" : ""} className={SELECT}>
                <option value="">{text.chooseReason}</option>
                {reasons.map((reason) => (
                  <option key={reason} value={reason}>
                    {reason}
                  </option>
                ))}
                <option value="other">{text.otherReason}</option>
              </select>
            </div>
            <div>
              <label htmlFor={`other-reason-${id}`} className="block text-sm font-medium text-slate-800">
                {text.typedReason}
              </label>
              <input id={`other-reason-${id}`} name="otherReason" type="text" maxLength={MAX_REASON_LENGTH} defaultValue={typed} className={`${SELECT} w-56`} />
            </div>
          </>
        ) : null}
        <button type="submit" disabled={busy} className={BUTTON}>
          {text.save}
        </button>
      </Form>
      {submission.status_changed_by && submission.status_changed_label ? (
        <p className="mt-2 text-sm [overflow-wrap:anywhere] text-slate-700">
          <span className="font-semibold">{STATUS_LABELS[submission.status]}</span>
          {submission.status_reason ? `: ${submission.status_reason}` : null} ({text.changedBy(submission.status_changed_by, submission.status_changed_label)})
        </p>
      ) : null}
    </div>
  );
}

/**
 * The team's notes on the enquiry, oldest first, and a form to add one (a
 * plain POST, like the card's buttons). Shown to the team only: a note is
 * never sent to the visitor.
 */
export function CardNotes({
  submission,
  Form,
  busy,
  added,
}: {
  submission: InboxSubmission;
  Form: ReturnType<typeof useFetcher>["Form"];
  busy: boolean;
  /** The last answer was "Note added.": the box starts empty again. */
  added: boolean;
}) {
  const text = INBOX_TEXT.notes;
  const id = submission.id;
  return (
    // Not a landmark (a section with a name would be one on every card, which axe wants told apart): its heading leads to it.
    <div className="mt-4">
      <h4 id={`notes-${id}`} className="text-sm font-semibold text-slate-900">
        {text.title} ({submission.notes.length})
      </h4>
      {submission.notes.length > 0 ? (
        <ul className="mt-2 space-y-2">
          {submission.notes.map((note) => (
            <li key={note.id} className="rounded-lg bg-yellow-50 px-3 py-2 text-sm ring-1 ring-yellow-200 ring-inset">
              <p className="[overflow-wrap:anywhere] whitespace-pre-line text-slate-900">{note.body}</p>
              <p className="mt-1 text-xs text-slate-700">{text.by(note.author, note.when)}</p>
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="add-note" />
        <input type="hidden" name="id" value={id} />
        <div className="min-w-0 flex-1">
          <label htmlFor={`note-${id}`} className="block text-sm font-medium text-slate-800">
            {text.label}
          </label>
          <textarea
            // A new box once a note is added: the words just kept are not left in it.
            key={added ? submission.notes.length : "writing"}
            id={`note-${id}`}
            name="note"
            rows={2}
            required
            maxLength={MAX_NOTE_LENGTH}
            className={`${CARD_FIELD} w-full`}
          />
        </div>
        <button type="submit" disabled={busy} className={BUTTON}>
          {text.add}
        </button>
      </Form>
    </div>
  );
}
