import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { EnquiriesPanel } from "~/admin/EnquiriesPanel";
import { TeamFigures } from "~/admin/TeamFigures";
import { describeNotification } from "~/admin/notification-status";
import { FORM_TEXT } from "~/admin/texts";
import type { AdminActionData, InboxSubmission, InboxView } from "~/admin/types";
import { useSlowTab } from "~/admin/use-slow-tab";
import { parseInboxFilter, parsePosition, parseSearch } from "~/enquiries/inbox";
import { listSubmissions } from "~/enquiries/inbox.server";
import { notesOf } from "~/enquiries/notes.server";
import { assignableMembers, memberName } from "~/enquiries/assignment.server";
import { inboxQuery, parseNarrowing } from "~/enquiries/view";
import { buildTimeline, replyEntry } from "~/enquiries/timeline";
import { timelineFactsOf } from "~/enquiries/timeline.server";
import { readEnquirySettings } from "~/enquiries/enquiry-settings.server";
import { repliesOf } from "~/enquiries/replies.server";
import { can } from "~/auth/roles";
import type { ReplyingView } from "~/admin/types";
import { notificationStates } from "~/enquiries/outbox.server";
import { spamSignalsLabel } from "~/enquiries/spam";
import { calendarDateLabel, formatSubmittedAt, londonDate } from "~/platform/dates";
import { siteUrl } from "~/platform/http/context";
import { firstOfEach, readFormEntries, readFormFields, withBody } from "~/platform/http/request-body.server";
import { requireMember, servicesContext } from "~/services";
import { handleInboxAction } from "./actions.server";
import { readTeamFigures } from "./figures.server";
import type { Route } from "./+types/route";

/**
 * The Contact Submissions tab (/admin/enquiries): the filter, the search, the
 * status, the assignee, Due and the page are in the URL (?filter=…&q=…&status=…&assignee=…&due=1&page=n&after=… or &before=…: a keyset page, decision 058), each enquiry with its words
 * made here (dates in UK time, spam signals, the notification e-mail's state).
 */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const { admin, actor } = requireMember(args, "enquiries");
  const services = context.get(servicesContext);
  const { db } = services;
  const params = new URL(request.url).searchParams;
  const filter = parseInboxFilter(params.get("filter"));
  const search = parseSearch(params.get("q"));
  const narrowing = parseNarrowing(params);
  // Read beside the inbox; it never throws (a failure is the panel's own message).
  const figures = readTeamFigures(services, admin.role);
  let inbox: InboxView;
  let replying: ReplyingView = { mailOn: services.mail !== undefined, reasons: [], mayEditSettings: can(admin.role, "enquiry-settings") };
  try {
    const now = new Date();
    const today = londonDate(now);
    const page = await listSubmissions(db, inboxQuery({ filter, search, narrowing }, actor.id, today), parsePosition(params), today);
    const ids = page.submissions.map((submission) => submission.id);
    const [states, notes, team, facts, replies, settings] = await Promise.all([
      notificationStates(
        db,
        page.submissions.filter((submission) => submission.spam_reason === null).map((submission) => submission.id),
      ),
      notesOf(db, ids),
      assignableMembers(db),
      timelineFactsOf(db, ids),
      repliesOf(db, ids),
      readEnquirySettings(db),
    ]);
    replying = { ...replying, reasons: settings.reasons };
    const members = team.map((member) => ({ id: member.id, name: memberName(member) }));
    const names = new Map(members.map((member) => [member.id, member.name]));
    const submissions = page.submissions.map((submission): InboxSubmission => {
      const state = states[submission.id];
      return {
        ...submission,
        submitted_label: formatSubmittedAt(submission.created_at),
        ...(submission.spam_reason === null ? {} : { spam_label: spamSignalsLabel(submission.spam_reason) }),
        ...(submission.spam_signals === null ? {} : { possible_spam_label: spamSignalsLabel(submission.spam_signals) }),
        ...(state ? { notification: describeNotification(state, now) } : {}),
        ...(submission.status_changed_at === null ? {} : { status_changed_label: formatSubmittedAt(submission.status_changed_at) }),
        ...(submission.assigned_to === null ? {} : { assignee_name: names.get(submission.assigned_to) ?? submission.assigned_to }),
        ...(submission.follow_up_on === null
          ? {}
          : {
              follow_up: {
                label: calendarDateLabel(submission.follow_up_on),
                due: submission.follow_up_on < today ? "overdue" : submission.follow_up_on === today ? "today" : "later",
              },
            }),
        notes: (notes.get(submission.id) ?? []).map((note) => ({ id: note.id, author: note.author, body: note.body, when: formatSubmittedAt(note.createdAt) })),
        replies: (replies.get(submission.id) ?? []).map(({ createdAt, sentAt: _, ...reply }) => ({ ...reply, when: formatSubmittedAt(createdAt) })),
        timeline: buildTimeline({
          receivedAt: submission.created_at,
          notification: state,
          notes: notes.get(submission.id) ?? [],
          facts: facts.get(submission.id) ?? [],
          extra: (replies.get(submission.id) ?? []).map(replyEntry),
        }).map((entry) => ({ ...entry, when: formatSubmittedAt(entry.at) })),
      };
    });
    inbox = {
      status: "ok",
      filter,
      search,
      narrowing,
      ...page,
      members,
      submissions,
      selectAll: params.get("select") === "all",
    };
  } catch (error) {
    services.log.error({ err: error }, "Could not load contact submissions");
    inbox = { status: "error", filter, search, narrowing };
  }
  return { inbox, replying, companyName: services.company.name, retentionDays: services.contact.retentionDays, figures: await figures };
}

/** Headers an action sets (Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** The inbox's forms are a few short fields, or up to 200 ids from the bulk bar. */
const INBOX_FORM_LIMIT = 64 * 1024;

/**
 * A card's actions and the bulk bar's, by the form field `intent`. The bulk
 * bar's ticked cards are `ids`, repeated: a url-encoded form keeps each; a
 * multipart body is read one value per field, so its `ids` are left
 * undefined and a bulk action sent so is refused, never applied to one id.
 * Outside the role: 403 before the body is read.
 */
export async function action(args: Route.ActionArgs) {
  requireMember(args, "enquiries");
  return inboxAction(args);
}

const inboxAction = withBody(
  async (request: Request) => {
    if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
      return { fields: await readFormFields(request, INBOX_FORM_LIMIT, FORM_TEXT.notUnderstood), ids: undefined };
    }
    const entries = await readFormEntries(request, INBOX_FORM_LIMIT, FORM_TEXT.notUnderstood);
    return { fields: firstOfEach(entries), ids: entries.filter(([name]) => name === "ids").map(([, value]) => value) };
  },
  (refusal) => data<AdminActionData>({ notice: { kind: "error", text: refusal.message } }, { status: refusal.status, headers: refusal.headers }),
  async (args: Route.ActionArgs, { fields, ids }) => {
    const { actor } = requireMember(args, "enquiries");
    const services = args.context.get(servicesContext);
    const { db, outbox, log, mail, company } = services;
    // The e-mail telling a member an enquiry is theirs links to their own enquiries on the address the team uses.
    const assignmentMail = mail && { from: mail.from, companyName: company.name, inboxUrl: `${siteUrl(services, args.request)}/admin/enquiries?assignee=mine` };
    return handleInboxAction({ db, outbox, log, assignmentMail }, fields, ids, actor);
  },
);

export default function EnquiriesTab({ loaderData, actionData }: Route.ComponentProps) {
  const { inbox, replying, companyName, retentionDays, figures } = loaderData;
  // Another filter, search or page (or Refresh) on its way: after a moment the list says it is loading.
  const loading = useSlowTab() === "enquiries";
  return (
    <>
      <EnquiriesPanel view={inbox} replying={replying} loading={loading} companyName={companyName} retentionDays={retentionDays} actionData={actionData} />
      <TeamFigures weeks={figures.weeks} canExport={figures.canExport} />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
