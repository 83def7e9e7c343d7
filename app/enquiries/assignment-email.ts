import { formatSubmittedAt } from "~/platform/dates";
import type { OutgoingEmail } from "~/platform/mail/mailer.server";
import { escapeHtml } from "./emails";

/**
 * To a member an enquiry was assigned to by someone else (issue 22, decision
 * 061): who assigned it, the sender's name and when it arrived, and where to
 * find it. The visitor's message stays in the dashboard: the e-mail goes to a
 * member's own mailbox, which may be read on any phone.
 */
export type AssignmentEmailInput = {
  from: string;
  to: string;
  /** The member who assigned it, as they are named ("Jo Smith" or their address). */
  assignedBy: string;
  enquiry: { name: string; createdAt: string };
  companyName: string;
  /** The inbox filtered to the member's own, on the site's address, when it is known. */
  inboxUrl: string | undefined;
  messageId: string;
};

export function assignmentEmail({ from, to, assignedBy, enquiry, companyName, inboxUrl, messageId }: AssignmentEmailInput): OutgoingEmail {
  const subject = `An enquiry from ${enquiry.name} is yours`;
  const paragraphs = [
    `${assignedBy} assigned you the enquiry from ${enquiry.name}, received ${formatSubmittedAt(enquiry.createdAt)} (UK time).`,
    `Find it under Contact Submissions, Mine, in ${companyName}'s admin dashboard${inboxUrl ? `: ${inboxUrl}` : "."}`,
  ];
  const text = `${paragraphs.join("\n\n")}\n`;
  const link = inboxUrl ? `: <a href="${escapeHtml(inboxUrl)}">${escapeHtml(inboxUrl)}</a>` : ".";
  const html = `<!doctype html>
<html lang="en-GB">
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;background:#ffffff;">
<p style="margin:0 0 12px;">${escapeHtml(paragraphs[0]!)}</p>
<p style="margin:0 0 12px;">${escapeHtml(`Find it under Contact Submissions, Mine, in ${companyName}'s admin dashboard`)}${link}</p>
</body>
</html>
`;
  return { from, to: [to], subject, text, html, messageId };
}
