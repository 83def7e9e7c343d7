import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { replyHref } from "~/admin/format";
import { REPLY_TEXT, ReplyPage, type ReplyActionData, type ReplyView } from "~/admin/ReplyPage";
import { FORM_TEXT } from "~/admin/texts";
import { can } from "~/auth/roles";
import { readEnquirySettings } from "~/enquiries/enquiry-settings.server";
import { isSubmissionId } from "~/enquiries/inbox";
import { fillPlaceholders, parseReply, replySubject } from "~/enquiries/replies";
import { placeholderValues, repliesOf, replyTarget, sendReply } from "~/enquiries/replies.server";
import { formatSubmittedAt } from "~/platform/dates";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { requireMember, servicesContext } from "~/services";
import type { Route } from "./+types/route";

export function meta() {
  return [{ title: "Reply · Admin Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

/**
 * The reply composer (/admin/enquiries/reply?id=…&template=…), a page of
 * Contact Submissions for its members (decision 059): the enquiry, the
 * chosen template with its placeholders filled (the member's own name from
 * their account), and the replies sent so far with their delivery state.
 */
export async function loader(args: Route.LoaderArgs) {
  const { admin } = requireMember(args, "enquiries");
  const { db, company, mail } = args.context.get(servicesContext);
  const params = new URL(args.request.url).searchParams;
  const id = params.get("id");
  const target = isSubmissionId(id) ? await replyTarget(db, id) : undefined;
  if (!target) return data<{ reply: ReplyView }>({ reply: { status: "not-found" } }, { status: 404 });
  const [settings, values, stored, message] = await Promise.all([
    readEnquirySettings(db),
    placeholderValues(db, target, company, admin.adminId),
    repliesOf(db, [target.id]),
    db.selectFrom("contact_submissions").select("message").where("id", "=", target.id).executeTakeFirst(),
  ]);
  const asked = params.get("template");
  const template = asked === "none" ? undefined : (settings.templates.find((each) => each.id === asked) ?? settings.templates[0]);
  const reply: ReplyView = {
    status: "ok",
    enquiry: { id: target.id, name: target.name, email: target.email, message: message?.message ?? "", isSpam: target.isSpam },
    templates: settings.templates.map(({ id: templateId, name }) => ({ id: templateId, name })),
    templateId: template?.id ?? "none",
    subject: replySubject(fillPlaceholders(template?.subject ?? "Your enquiry to {company}", values)),
    body: template ? fillPlaceholders(template.body, values) : "",
    mailOn: mail !== undefined,
    mailtoHref: replyHref(target, company.name),
    replies: (stored.get(target.id) ?? []).map(({ createdAt, ...each }) => ({ ...each, when: formatSubmittedAt(createdAt) })),
    mayEditSettings: can(admin.role, "enquiry-settings"),
  };
  return { reply };
}

/** Headers an action sets (Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** A reply of up to 5,000 characters (four bytes each at most, encoded) and its subject. */
const REPLY_FORM_LIMIT = Math.max(ADMIN_FORM_LIMIT, 64 * 1024);

export async function action(args: Route.ActionArgs) {
  requireMember(args, "enquiries");
  return replyAction(args);
}

const replyAction = withBody(
  (request: Request) => readFormFields(request, REPLY_FORM_LIMIT, FORM_TEXT.notUnderstood),
  (refusal) => data<ReplyActionData>({ notice: { kind: "error", text: refusal.message } }, { status: refusal.status, headers: refusal.headers }),
  async (args: Route.ActionArgs, fields: Record<string, string>) => {
    const { actor } = requireMember(args, "enquiries");
    const { db, mail, outbox, log } = args.context.get(servicesContext);
    const refuse = (text: string, status: number) =>
      data<ReplyActionData>({ notice: { kind: "error", text }, fields: { subject: fields.subject ?? "", body: fields.body ?? "" } }, { status });
    if (!isSubmissionId(fields.id)) return refuse(REPLY_TEXT.notFound, 400);
    // Without a mail server the page offers the mailto link instead, and says why.
    if (!mail) return refuse(REPLY_TEXT.noMail, 409);
    const parsed = parseReply(fields.subject, fields.body);
    if ("problem" in parsed) return refuse(parsed.problem, 400);
    let sent;
    try {
      sent = await sendReply(db, fields.id, parsed, { actor, mail });
    } catch (error) {
      log.error({ err: error }, "Could not queue a reply to an enquiry");
      return refuse(REPLY_TEXT.failure, 503);
    }
    if (!sent.ok) return sent.reason === "spam" ? refuse(REPLY_TEXT.spam, 409) : refuse(REPLY_TEXT.notFound, 404);
    outbox.signal();
    return data<ReplyActionData>({ notice: { kind: "success", text: REPLY_TEXT.sent(sent.to) }, sent: true });
  },
);

export default function ReplyRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <ReplyPage view={loaderData.reply} result={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
