import { escapeHtml, messageIdFor } from "~/enquiries/emails";
import { LINK_PLACEHOLDER } from "~/enquiries/outbox.server";
import type { OutgoingEmail } from "~/platform/mail/mailer.server";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, type Role } from "./roles";
import { dateFormatter } from "~/platform/dates";

/**
 * The invitation e-mail, rendered when the invitation is made and kept in the
 * outbox without its link: LINK_PLACEHOLDER stands where the link goes, and
 * the worker puts the link in only as it sends (docs/decisions/042). Nothing
 * in it was typed by anyone but an owner (their address) and the company.
 */
export type InvitationEmailInput = {
  jobId: string;
  from: string;
  to: string;
  role: Role;
  /** Who invited: a member's e-mail address. */
  invitedBy: string;
  companyName: string;
  /** When the link stops working. */
  expiresAt: Date;
};

const EXPIRY = dateFormatter("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/London" });

export function invitationEmail({ jobId, from, to, role, invitedBy, companyName, expiresAt }: InvitationEmailInput): OutgoingEmail {
  const subject = `You are invited to the ${companyName} back office`;
  const paragraphs = [
    `${invitedBy} has invited you to join the ${companyName} back office as ${ROLE_LABELS[role]}: ${ROLE_DESCRIPTIONS[role]}`,
    `To accept, open this link and choose your name and password:`,
    LINK_PLACEHOLDER,
    `The link works once, until ${EXPIRY().format(expiresAt)} (UK time). If you did not expect this invitation, ignore this e-mail: nothing happens unless the link is opened.`,
  ];
  const text = `${paragraphs.join("\n\n")}\n`;
  const html = `<!doctype html>
<html lang="en-GB">
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;background:#ffffff;">
<p style="margin:0 0 12px;">${escapeHtml(paragraphs[0]!)}</p>
<p style="margin:0 0 12px;">${escapeHtml(paragraphs[1]!)}</p>
<p style="margin:0 0 12px;"><a href="${LINK_PLACEHOLDER}" style="color:#1d4ed8;">Accept the invitation</a><br><span style="word-break:break-all;">${LINK_PLACEHOLDER}</span></p>
<p style="margin:0;font-size:13px;color:#4b5563;">${escapeHtml(paragraphs[3]!)}</p>
</body>
</html>
`;
  return { from, to: [to], subject, text, html, messageId: messageIdFor(jobId, from) };
}
