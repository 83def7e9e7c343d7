import { Form, Link } from "react-router";
import { LIMITS, type ReplyDelivery } from "~/enquiries/replies";
import { Icon } from "~/components/Icon";
import { NoticeRegion } from "./NoticeRegion";
import { REPLY_PATH, tabPath } from "./tabs";
import { INBOX_TEXT } from "./texts";
import type { Notice, ReplyViewReply } from "./types";

/**
 * A member's reply to an enquiry (/admin/enquiries/reply?id=…, decision 059):
 * the composer as a plain form (To the visitor, a template, the subject and
 * the text), so it works without JavaScript; choosing a template is a GET of
 * the same page. Without a mail server it says why and offers the mailto link.
 */

export const REPLY_TEXT = {
  title: (name: string) => `Reply to ${name}`,
  back: "Back to Contact Submissions",
  to: "To",
  template: "Start from the template",
  noTemplate: "No template",
  useTemplate: "Use template",
  templateHelp: "Using a template replaces the subject and text below.",
  subject: "Subject",
  body: "Your reply",
  send: "Send reply",
  sent: (email: string) => `Reply queued to ${email}: its delivery shows below and on its card.`,
  theirMessage: "Their message",
  noMail:
    "Replies cannot be sent from the dashboard: e-mail is not set up on this server (no SMTP_URL). Use Reply via Email to answer from your own mail program.",
  spam: "This enquiry is in Spam: move it out of Spam before replying.",
  notFound: "This enquiry no longer exists.",
  failure: "The reply could not be sent. Please try again.",
  replies: (n: number) => `Replies sent (${n})`,
  by: (author: string, when: string) => `${author}, ${when}`,
  delivery: { queued: "Queued", sent: "Sent", failing: "Failing: the server will try again", "not-sent": "Not sent" } satisfies Record<ReplyDelivery, string>,
  settings: "Reply templates and reasons",
} as const;

export type ReplyView =
  | {
      status: "ok";
      enquiry: { id: string; name: string; email: string; message: string; isSpam: boolean };
      templates: Array<{ id: string; name: string }>;
      templateId: string;
      subject: string;
      body: string;
      mailOn: boolean;
      mailtoHref: string;
      replies: ReplyViewReply[];
      mayEditSettings: boolean;
    }
  | { status: "not-found" };

export type ReplyActionData = { notice: Notice; fields?: { subject: string; body: string }; sent?: boolean };

const FIELD = "mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-blue-600";
const LABEL = "block text-sm font-medium text-slate-800";
const BUTTON = "inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium ring-1";
const LINK = "text-blue-800 underline underline-offset-2 hover:text-blue-950";

export function ReplyPage({ view, result }: { view: ReplyView; result: ReplyActionData | undefined }) {
  if (view.status === "not-found") {
    return (
      <section aria-labelledby="reply-heading">
        <h2 id="reply-heading" className="text-2xl font-bold text-slate-900">
          {REPLY_TEXT.notFound}
        </h2>
        <p className="mt-2">
          <Link to={tabPath("enquiries")} className={LINK}>
            {REPLY_TEXT.back}
          </Link>
        </p>
      </section>
    );
  }
  const { enquiry } = view;
  // After a reply is sent the composer starts again from the template; after a refusal it keeps what was typed.
  const kept = result?.sent ? undefined : result?.fields;
  return (
    <section aria-labelledby="reply-heading">
      <h2 id="reply-heading" className="text-2xl font-bold [overflow-wrap:anywhere] text-slate-900">
        {REPLY_TEXT.title(enquiry.name)}
      </h2>
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
        <Link to={`${tabPath("enquiries")}#enquiry-${enquiry.id}`} className={LINK}>
          {REPLY_TEXT.back}
        </Link>
        {view.mayEditSettings ? (
          <Link to="/admin/enquiries/settings" className={LINK}>
            {REPLY_TEXT.settings}
          </Link>
        ) : null}
      </p>
      <NoticeRegion notice={result?.notice} watch={result} className="mt-4" />

      <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <h3 className="text-sm font-semibold text-slate-900">{REPLY_TEXT.theirMessage}</h3>
        <p className="mt-1 [overflow-wrap:anywhere] whitespace-pre-line text-slate-800">{enquiry.message}</p>
      </div>

      {!view.mailOn || enquiry.isSpam ? (
        <div className="mt-4 rounded-lg bg-amber-50 px-3 py-3 text-sm text-amber-950 ring-1 ring-amber-200 ring-inset">
          <p>{enquiry.isSpam ? REPLY_TEXT.spam : REPLY_TEXT.noMail}</p>
          {view.mailOn ? null : (
            <a href={view.mailtoHref} className={`${BUTTON} mt-3 bg-blue-700 text-white ring-blue-700 hover:bg-blue-800`}>
              <Icon name="envelope" className="size-4" />
              {INBOX_TEXT.reply}
            </a>
          )}
        </div>
      ) : (
        <div className="mt-4 space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          {view.templates.length > 0 ? (
            <Form method="get" action={REPLY_PATH} className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="id" value={enquiry.id} />
              <div className="min-w-0 flex-1">
                <label htmlFor="reply-template" className={LABEL}>
                  {REPLY_TEXT.template}
                </label>
                <select id="reply-template" name="template" defaultValue={view.templateId} aria-describedby="reply-template-help" className={FIELD}>
                  <option value="none">{REPLY_TEXT.noTemplate}</option>
                  {view.templates.map((template) => (
                    <option key={template.id} value={template.id}>
                      {template.name}
                    </option>
                  ))}
                </select>
                <p id="reply-template-help" className="mt-1 text-xs text-slate-700">
                  {REPLY_TEXT.templateHelp}
                </p>
              </div>
              <button type="submit" className={`${BUTTON} mb-5 bg-white text-slate-800 ring-slate-300 hover:bg-slate-50`}>
                {REPLY_TEXT.useTemplate}
              </button>
            </Form>
          ) : null}
          {/* A new form per template and after each reply sent: its fields start from them. */}
          <Form key={`${view.templateId}:${view.replies.length}`} method="post" action={`${REPLY_PATH}?id=${enquiry.id}`} className="space-y-4">
            <input type="hidden" name="id" value={enquiry.id} />
            <p className="text-sm text-slate-800">
              <span className="font-medium">{REPLY_TEXT.to}:</span>{" "}
              <span className="[overflow-wrap:anywhere] text-slate-900">
                {enquiry.name} &lt;{enquiry.email}&gt;
              </span>
            </p>
            <div>
              <label htmlFor="reply-subject" className={LABEL}>
                {REPLY_TEXT.subject}
              </label>
              <input id="reply-subject" name="subject" required maxLength={LIMITS.subject} defaultValue={kept?.subject ?? view.subject} className={FIELD} />
            </div>
            <div>
              <label htmlFor="reply-body" className={LABEL}>
                {REPLY_TEXT.body}
              </label>
              <textarea id="reply-body" name="body" required rows={12} maxLength={LIMITS.body} defaultValue={kept?.body ?? view.body} className={FIELD} />
            </div>
            <button type="submit" className={`${BUTTON} bg-blue-700 font-semibold text-white ring-blue-700 hover:bg-blue-800`}>
              <Icon name="envelope" className="size-4" />
              {REPLY_TEXT.send}
            </button>
          </Form>
        </div>
      )}

      {view.replies.length > 0 ? (
        <div className="mt-6">
          <h3 className="text-lg font-semibold text-slate-900">{REPLY_TEXT.replies(view.replies.length)}</h3>
          <RepliesList replies={view.replies} />
        </div>
      ) : null}
    </section>
  );
}

/** Replies with who, when and their delivery state: on this page and on the enquiry's card. */
export function RepliesList({ replies }: { replies: ReplyViewReply[] }) {
  return (
    <ul className="mt-2 space-y-2">
      {replies.map((reply) => (
        <li key={reply.id} className="rounded-lg bg-blue-50 px-3 py-2 text-sm ring-1 ring-blue-200 ring-inset">
          <p className="font-semibold [overflow-wrap:anywhere] text-slate-900">{reply.subject}</p>
          <p className="mt-1 [overflow-wrap:anywhere] whitespace-pre-line text-slate-900">{reply.body}</p>
          <p className="mt-1 text-xs text-slate-700">
            {REPLY_TEXT.by(reply.author, reply.when)} · <span className="font-semibold">{REPLY_TEXT.delivery[reply.delivery]}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}
