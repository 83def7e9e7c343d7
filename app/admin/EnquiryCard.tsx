import { useId, type ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import { USER_TYPE_LABELS, type UserType } from "~/enquiries/schema";
import { isHeldInFlood } from "~/enquiries/spam";
import { telHref } from "~/company/company";
import { Icon } from "~/components/Icon";
import { ACTION_BUTTON, CardNotes, StatusControl } from "./EnquiryPipeline";
import { AssignmentControls } from "./EnquiryAssignment";
import { CardTimeline } from "./EnquiryTimeline";
import { ValuationBadge, ValuationDetailsList } from "./EnquiryValuation";
import { mailtoHref, replyHref } from "./format";
import { useHydrated } from "./use-hydrated";
import { rowFetcherKey } from "./RowResults";
import { INBOX_TEXT } from "./texts";
import { RepliesList } from "./ReplyPage";
import { REPLY_PATH } from "./tabs";
import type { AdminActionData, InboxSubmission, ReplyingView } from "./types";

/** SPEC §9: landlord blue, tenant green, investor purple, other neutral. Each pair passes WCAG AA contrast. */
const BADGE: Record<UserType, string> = {
  landlord: "bg-blue-100 text-blue-900 ring-blue-300",
  tenant: "bg-green-100 text-green-900 ring-green-300",
  investor: "bg-purple-100 text-purple-900 ring-purple-300",
  other: "bg-slate-100 text-slate-800 ring-slate-300",
};

export function EnquiryCard({
  submission,
  companyName,
  members,
  replying,
  confirmingDelete,
  askingReason,
  cancelHref,
  bulkFormId,
  selected,
  onSelectedChange,
}: {
  submission: InboxSubmission;
  companyName: string;
  /** Who it can be assigned to. */
  members: ReadonlyArray<{ id: string; name: string }>;
  /** Replying from the dashboard (decision 059). */
  replying: ReplyingView;
  /** Without JavaScript: this card's delete is waiting for confirmation on the page. */
  confirmingDelete: boolean;
  /** Without JavaScript: Not proceeding was chosen without its reason, which the card now asks for. */
  askingReason: boolean;
  /** Where "Cancel" goes from that confirmation (the current view). */
  cancelHref: string;
  /** The bulk bar's form, which the card's checkbox joins (forms cannot nest, and the card has forms of its own). */
  bulkFormId: string;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
}) {
  // Its answers reach the panel through <RowResults>, which outlives a deleted card.
  const fetcher = useFetcher<AdminActionData>({ key: rowFetcherKey("enquiry", submission.id) });
  const nameId = useId();
  const pending = fetcher.formData?.get("intent");
  const spam = submission.spam_reason !== null;
  const possibleSpam = !spam && submission.possible_spam_label !== undefined;
  // Arrived in a flood: marked like possible spam, but held apart from the inbox until released (decision 037).
  const held = possibleSpam && isHeldInFlood(submission.spam_signals);
  // Optimistic: the new read state shows at once; the server's answer settles it.
  const isRead = pending === "mark-read" ? true : pending === "mark-unread" ? false : submission.is_read;
  const deleting = pending === "delete";
  const hydrated = useHydrated();
  const notification = submission.notification;

  const busy = fetcher.state !== "idle";
  const notSpamLabel = (
    <>
      <Icon name="check" className="size-4" />
      {INBOX_TEXT.spam.notSpam}
    </>
  );
  /** One of the card's plain buttons: a small form posting its intent for this submission. */
  const cardAction = (intent: string, label: ReactNode, disabled: boolean | undefined) => (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={submission.id} />
      <button type="submit" disabled={disabled} className={`${ACTION_BUTTON} bg-white text-slate-800 ring-slate-300 hover:bg-slate-50`}>
        {label}
      </button>
    </fetcher.Form>
  );

  return (
    <li id={`enquiry-${submission.id}`}>
      <article
        aria-labelledby={nameId}
        aria-busy={deleting || undefined}
        className={`rounded-xl border bg-white p-5 shadow-sm transition-opacity sm:p-6 ${
          isRead || spam ? "border-slate-200" : "border-blue-300 ring-1 ring-blue-200"
        } ${deleting ? "opacity-60" : ""}`}
      >
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 items-start gap-3">
            <input
              type="checkbox"
              name="ids"
              value={submission.id}
              form={bulkFormId}
              checked={selected}
              onChange={(event) => onSelectedChange(event.currentTarget.checked)}
              aria-label={INBOX_TEXT.bulk.select(submission.name)}
              className="mt-1.5 size-5 shrink-0 accent-blue-700"
            />
            <div className="min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <h3 id={nameId} className="text-lg font-semibold [overflow-wrap:anywhere] text-slate-900">
                  {submission.name}
                </h3>
                {spam ? (
                  <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950 ring-1 ring-amber-300 ring-inset">
                    {INBOX_TEXT.spam.badge}
                  </span>
                ) : isRead ? null : (
                  <span className="rounded-full bg-blue-700 px-2 py-0.5 text-xs font-semibold text-white">Unread</span>
                )}
                {possibleSpam ? (
                  <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950 ring-1 ring-amber-300 ring-inset">
                    {held ? INBOX_TEXT.spam.heldBadge : INBOX_TEXT.spam.possibleBadge}
                  </span>
                ) : null}
              </div>
              <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                <a href={mailtoHref(submission.email)} className="break-all text-blue-800 underline underline-offset-2 hover:text-blue-950">
                  {submission.email}
                </a>
                {submission.phone ? (
                  <a href={telHref(submission.phone)} className="text-blue-800 underline underline-offset-2 hover:text-blue-950">
                    {submission.phone}
                  </a>
                ) : null}
              </p>
            </div>
          </div>
          <div className="flex flex-row flex-wrap items-center gap-2 sm:flex-col sm:items-end sm:gap-1 sm:text-right">
            <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${BADGE[submission.user_type]}`}>
              {USER_TYPE_LABELS[submission.user_type]}
            </span>
            {submission.kind === "valuation" ? <ValuationBadge /> : null}
            <time dateTime={submission.created_at} className="text-sm text-slate-600">
              {submission.submitted_label}
            </time>
          </div>
        </div>

        {submission.valuation ? <ValuationDetailsList details={submission.valuation} /> : null}
        {submission.message ? <p className="mt-4 text-slate-800 [overflow-wrap:anywhere] whitespace-pre-line">{submission.message}</p> : null}

        {possibleSpam ? (
          <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200 ring-inset">
            <span className="font-semibold">{held ? INBOX_TEXT.spam.heldReason : INBOX_TEXT.spam.possibleReason}</span> {submission.possible_spam_label}
          </p>
        ) : null}
        {spam ? (
          <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200 ring-inset">
            <span className="font-semibold">{INBOX_TEXT.spam.reason}</span> {submission.spam_label}
          </p>
        ) : notification ? (
          <p
            className={`mt-4 flex items-start gap-1.5 text-sm [overflow-wrap:anywhere] ${
              notification.failed ? "rounded-lg bg-red-50 px-3 py-2 text-red-900 ring-1 ring-red-200 ring-inset" : "text-slate-700"
            }`}
          >
            <Icon name={notification.failed ? "exclamation" : "envelope"} className="mt-0.5 size-4 shrink-0" />
            <span className="min-w-0">
              {INBOX_TEXT.notification.label} <span className="font-semibold">{notification.status}</span>
              {notification.next ? `; ${notification.next}` : null}
            </span>
          </p>
        ) : null}

        {spam ? null : (
          <StatusControl
            // A new control when the stored status changes or the server asks for a reason: its choice starts from them.
            key={`${submission.status}:${askingReason || fetcher.data?.askReason === submission.id}`}
            submission={submission}
            Form={fetcher.Form}
            busy={busy}
            askingReason={askingReason || fetcher.data?.askReason === submission.id}
            reasons={replying.reasons}
          />
        )}
        {spam ? null : (
          <AssignmentControls
            // A new form when the stored values change: its fields start from them.
            key={`${submission.assigned_to}:${submission.follow_up_on}`}
            submission={submission}
            members={members}
            Form={fetcher.Form}
            busy={busy}
          />
        )}

        <CardNotes submission={submission} Form={fetcher.Form} busy={busy} added={fetcher.data?.notice?.text === INBOX_TEXT.notes.added} />
        <CardTimeline submission={submission} />

        {submission.replies.length > 0 ? (
          <div className="mt-4">
            <h4 className="text-sm font-semibold text-slate-900">{INBOX_TEXT.replies(submission.replies.length)}</h4>
            <RepliesList replies={submission.replies} />
          </div>
        ) : null}

        {confirmingDelete ? (
          <div role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 p-4">
            <p className="text-sm text-red-900">{INBOX_TEXT.deleteConfirm}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <form method="post">
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={submission.id} />
                <input type="hidden" name="confirmed" value="yes" />
                <button type="submit" className={`${ACTION_BUTTON} bg-red-700 text-white ring-red-700 hover:bg-red-800`}>
                  {INBOX_TEXT.delete}
                </button>
              </form>
              <Link to={cancelHref} className={`${ACTION_BUTTON} bg-white text-slate-800 ring-slate-300 hover:bg-slate-50`}>
                Cancel
              </Link>
            </div>
          </div>
        ) : null}

        {spam || replying.mailOn ? null : <p className="mt-4 text-sm text-slate-700">{INBOX_TEXT.replyNoMail}</p>}

        <div className="mt-5 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
          <a href={replyHref(submission, companyName)} className={`${ACTION_BUTTON} bg-blue-700 text-white ring-blue-700 hover:bg-blue-800`}>
            <Icon name="envelope" className="size-4" />
            {INBOX_TEXT.reply}
          </a>
          {spam || !replying.mailOn ? null : (
            <Link to={`${REPLY_PATH}?id=${submission.id}`} className={`${ACTION_BUTTON} bg-white text-blue-900 ring-blue-300 hover:bg-blue-50`}>
              <Icon name="envelope" className="size-4" />
              {INBOX_TEXT.replyHere}
            </Link>
          )}
          {spam
            ? cardAction("not-spam", notSpamLabel, busy)
            : cardAction(isRead ? "mark-unread" : "mark-read", isRead ? INBOX_TEXT.markUnread : INBOX_TEXT.markRead, deleting)}
          {possibleSpam ? (
            <>
              {cardAction("not-spam", notSpamLabel, busy)}
              {cardAction("mark-spam", INBOX_TEXT.spam.moveToSpam, busy)}
            </>
          ) : null}
          {notification?.failed
            ? // Not disabled while it runs: the card stays, and focus should stay on the button.
              cardAction(
                "retry-notification",
                <>
                  <Icon name="refresh" className="size-4" />
                  {INBOX_TEXT.notification.retry}
                </>,
                undefined,
              )
            : null}
          <fetcher.Form
            method="post"
            onSubmit={(event) => {
              // Asks with the browser's own dialog; without JavaScript the page asks instead.
              if (!window.confirm(INBOX_TEXT.deleteConfirm)) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={submission.id} />
            {/* Only once the confirm() above can run: a page without JavaScript asks on the page first. */}
            {hydrated ? <input type="hidden" name="confirmed" value="yes" /> : null}
            <button
              type="submit"
              aria-label={INBOX_TEXT.delete}
              disabled={deleting}
              className={`${ACTION_BUTTON} bg-white text-red-800 ring-red-300 hover:bg-red-50`}
            >
              <Icon name="trash" className="size-4" />
              Delete
            </button>
          </fetcher.Form>
        </div>
      </article>
    </li>
  );
}
