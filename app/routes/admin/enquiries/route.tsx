import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { EnquiriesPanel } from "~/admin/EnquiriesPanel";
import { describeNotification } from "~/admin/notification-status";
import { FORM_TEXT } from "~/admin/texts";
import type { AdminActionData, InboxSubmission, InboxView } from "~/admin/types";
import { useSlowTab } from "~/admin/use-slow-tab";
import { parseInboxFilter, parsePosition, parseSearch } from "~/enquiries/inbox";
import { listSubmissions } from "~/enquiries/inbox.server";
import { notesOf } from "~/enquiries/notes.server";
import { parseStatusFilter } from "~/enquiries/pipeline";
import { notificationStates } from "~/enquiries/outbox.server";
import { spamSignalsLabel } from "~/enquiries/spam";
import { formatSubmittedAt } from "~/platform/dates";
import { firstOfEach, readFormEntries, readFormFields, withBody } from "~/platform/http/request-body.server";
import { requireMember, servicesContext } from "~/services";
import { handleInboxAction } from "./actions.server";
import type { Route } from "./+types/route";

/**
 * The Contact Submissions tab (/admin/enquiries): the filter, the search, the
 * status and the page are in the URL (?filter=…&q=…&status=…&page=n&after=… or &before=…: a keyset page, decision 058), each enquiry with its words
 * made here (dates in UK time, spam signals, the notification e-mail's state).
 */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  requireMember(args, "enquiries");
  const services = context.get(servicesContext);
  const { db } = services;
  const params = new URL(request.url).searchParams;
  const filter = parseInboxFilter(params.get("filter"));
  const search = parseSearch(params.get("q"));
  const statusFilter = parseStatusFilter(params.get("status"));
  let inbox: InboxView;
  try {
    const page = await listSubmissions(db, { filter, search, status: statusFilter }, parsePosition(params));
    const now = new Date();
    const [states, notes] = await Promise.all([
      notificationStates(
        db,
        page.submissions.filter((submission) => submission.spam_reason === null).map((submission) => submission.id),
      ),
      notesOf(
        db,
        page.submissions.map((submission) => submission.id),
      ),
    ]);
    const submissions = page.submissions.map((submission): InboxSubmission => {
      const state = states[submission.id];
      return {
        ...submission,
        submitted_label: formatSubmittedAt(submission.created_at),
        ...(submission.spam_reason === null ? {} : { spam_label: spamSignalsLabel(submission.spam_reason) }),
        ...(submission.spam_signals === null ? {} : { possible_spam_label: spamSignalsLabel(submission.spam_signals) }),
        ...(state ? { notification: describeNotification(state, now) } : {}),
        ...(submission.status_changed_at === null ? {} : { status_changed_label: formatSubmittedAt(submission.status_changed_at) }),
        notes: (notes.get(submission.id) ?? []).map((note) => ({ id: note.id, author: note.author, body: note.body, when: formatSubmittedAt(note.createdAt) })),
      };
    });
    inbox = { status: "ok", filter, search, statusFilter, ...page, submissions, selectAll: params.get("select") === "all" };
  } catch (error) {
    services.log.error({ err: error }, "Could not load contact submissions");
    inbox = { status: "error", filter, search, statusFilter };
  }
  return { inbox, companyName: services.company.name, retentionDays: services.contact.retentionDays };
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
    const { db, outbox, log } = args.context.get(servicesContext);
    return handleInboxAction({ db, outbox, log }, fields, ids, actor);
  },
);

export default function EnquiriesTab({ loaderData, actionData }: Route.ComponentProps) {
  const { inbox, companyName, retentionDays } = loaderData;
  // Another filter, search or page (or Refresh) on its way: after a moment the list says it is loading.
  const loading = useSlowTab() === "enquiries";
  return <EnquiriesPanel view={inbox} loading={loading} companyName={companyName} retentionDays={retentionDays} actionData={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
