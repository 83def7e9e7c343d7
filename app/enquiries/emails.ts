import { formatSubmittedAt, formatUpcomingTime } from "~/platform/dates";
import type { Company } from "~/company/company";
import type { NotificationAddresses } from "~/platform/http/context";
import type { OutgoingEmail } from "~/platform/mail/mailer.server";
import { fillPlaceholders, firstNameOf } from "./replies";
import { USER_TYPE_LABELS, type Enquiry } from "./schema";
import { valuationRows } from "./valuation";

/**
 * The e-mails an enquiry produces, rendered once when it is stored (the outbox
 * keeps the result). Only the subject and Reply-To headers carry anything a
 * visitor typed; nodemailer encodes both, and the schema has already refused
 * line breaks in the name and any address that is not a single plain mailbox.
 */

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** The address part of "Name <address>" or of a bare address. */
function addressOf(mailbox: string): string {
  return mailbox.match(/<([^<>]+)>\s*$/)?.[1]?.trim() ?? mailbox.trim();
}

/** `<job-id@domain of MAIL_FROM>`: the outbox job's id, so every retry of one e-mail carries the same Message-ID. */
export function messageIdFor(jobId: string, from: string): string {
  const address = addressOf(from);
  return `<${jobId}@${address.slice(address.lastIndexOf("@") + 1)}>`;
}

export type NotificationInput = {
  enquiry: Enquiry;
  /** ISO time the enquiry was stored. */
  receivedAt: string;
  mail: NotificationAddresses;
  messageId: string;
  /** The spam rules noticed something, not enough to file it away: the subject says so. */
  possibleSpam?: boolean;
};

/** To the company: every field, Reply-To the visitor so that replying answers them. */
export function notificationEmail({ enquiry, receivedAt, mail, messageId, possibleSpam = false }: NotificationInput): OutgoingEmail {
  const userType = USER_TYPE_LABELS[enquiry.userType];
  const fields: [label: string, value: string][] = [
    ["Name", enquiry.name],
    ["Email", enquiry.email],
    ["Phone", enquiry.phone ?? "not given"],
    ["I am a", userType],
    ...(enquiry.valuation ? valuationRows(enquiry.valuation) : []),
    ["Received", formatSubmittedAt(receivedAt)],
  ];
  const what = enquiry.valuation ? `valuation request from ${enquiry.name} (${enquiry.valuation.postcode})` : `enquiry from ${enquiry.name} (${userType})`;
  const subject = `${possibleSpam ? "[Possible spam] " : ""}New ${what}`;
  // A valuation request's note is optional: no empty Message heading without one.
  const message = enquiry.message === "" ? "(none)" : enquiry.message;
  const footer = `${possibleSpam ? "The spam rules noticed something about this enquiry but kept it in your inbox, marked as possible spam: it may well be real. " : ""}Replying to this e-mail answers ${enquiry.name} directly. Every enquiry is also in Contact Submissions in the admin dashboard.`;

  const text = [subject, "", ...fields.map(([label, value]) => `${label}: ${value}`), "", "Message:", message, "", "--", footer, ""].join("\n");

  const cell = "padding:4px 12px 4px 0;vertical-align:top;";
  const html = `<!doctype html>
<html lang="en-GB">
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;background:#ffffff;">
<h1 style="margin:0 0 16px;font-size:18px;">${escapeHtml(subject)}</h1>
<table style="border-collapse:collapse;margin:0 0 16px;">
${fields
  .map(
    ([label, value]) =>
      `<tr><th scope="row" style="${cell}text-align:left;font-weight:bold;">${escapeHtml(label)}</th><td style="${cell}">${escapeHtml(value)}</td></tr>`,
  )
  .join("\n")}
</table>
<h2 style="margin:0 0 8px;font-size:16px;">Message</h2>
<div style="white-space:pre-wrap;margin:0 0 16px;padding:12px;border-left:4px solid #d1d5db;background:#f9fafb;">${escapeHtml(message)}</div>
<p style="margin:0;font-size:13px;color:#4b5563;">${escapeHtml(footer)}</p>
</body>
</html>
`;

  return { from: mail.from, to: mail.notifyTo, replyTo: enquiry.email, subject, text, html, messageId };
}

export type AcknowledgementInput = {
  enquiry: Enquiry;
  mail: NotificationAddresses;
  company: Company;
  /** The owner's text (Contact Submissions, Settings), with its placeholders. */
  text: string;
  messageId: string;
};

/**
 * To the visitor: a short receipt in the owner's words. It repeats nothing
 * they typed except a plain first name (never one that reads like a web
 * address: firstNameOf), so the form cannot relay a message to someone
 * else's inbox.
 */
export function acknowledgementEmail({ enquiry, mail, company, text: template, messageId }: AcknowledgementInput): OutgoingEmail {
  const filled = fillPlaceholders(template, { firstName: firstNameOf(enquiry.name), company: company.name, phone: company.phone, myName: company.name });
  const paragraphs = filled.split(/\n{2,}/);
  const text = `${filled}\n`;
  const html = `<!doctype html>
<html lang="en-GB">
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;background:#ffffff;">
${paragraphs.map((paragraph) => `<p style="margin:0 0 12px;white-space:pre-line;">${escapeHtml(paragraph)}</p>`).join("\n")}
</body>
</html>
`;
  return {
    from: mail.from,
    to: [enquiry.email],
    // Replies reach a person at the company, not the sending address.
    replyTo: mail.notifyTo[0],
    subject: `We received your message – ${company.name}`,
    text,
    html,
    messageId,
  };
}

export type FloodSummaryInput = {
  /** Enquiries held in the window so far. */
  count: number;
  /** ISO start and end of the window. */
  from: string;
  until: string;
  /** CONTACT_SITE_LIMIT. */
  siteLimit: number;
  mail: NotificationAddresses;
  messageId: string;
  /** Where the held enquiries are listed (PUBLIC_URL's admin), when the site knows its address. */
  reviewUrl: string | undefined;
};

/**
 * To the company, instead of one notification per enquiry held in a flood
 * (decision 037): how many arrived in the window, and where to review them.
 * Nothing a visitor typed is in it.
 */
const notSpam = (one: boolean) => (one ? "If it is real, Not spam moves it to your inbox." : "Use Not spam on any that are real, to move them to your inbox.");

export function floodSummaryEmail({ count, from, until, siteLimit, mail, messageId, reviewUrl }: FloodSummaryInput): OutgoingEmail {
  const one = count === 1;
  const enquiries = `${count} ${one ? "enquiry" : "enquiries"}`;
  const subject = `${enquiries} arrived during a flood; review ${one ? "it" : "them"}`;
  const review = `Review ${one ? "it" : "them"} under Contact Submissions, Held, in the admin dashboard`;
  const paragraphs = [
    `Between ${formatSubmittedAt(from)} and ${formatUpcomingTime(until, new Date(from))} (UK time), ${enquiries} arrived after more than ${siteLimit} had arrived within the hour (CONTACT_SITE_LIMIT). So many at once is usually a bot.`,
    one
      ? "It is stored, held apart from your inbox, and was not e-mailed to you on its own."
      : "They are all stored, held apart from your inbox, and were not e-mailed to you one by one.",
    `${review}${reviewUrl ? `: ${reviewUrl}` : ""}. ${notSpam(one)}`,
    "While a flood lasts, this summary is sent at most once every 15 minutes.",
  ];
  const text = `${subject}\n\n${paragraphs.join("\n\n")}\n`;
  const paragraph = (content: string) => `<p style="margin:0 0 12px;">${content}</p>`;
  const reviewLink = reviewUrl ? `: <a href="${escapeHtml(reviewUrl)}">${escapeHtml(reviewUrl)}</a>` : "";
  const html = `<!doctype html>
<html lang="en-GB">
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;background:#ffffff;">
<h1 style="margin:0 0 16px;font-size:18px;">${escapeHtml(subject)}</h1>
${paragraph(escapeHtml(paragraphs[0]!))}
${paragraph(escapeHtml(paragraphs[1]!))}
${paragraph(`${escapeHtml(review)}${reviewLink}. ${escapeHtml(notSpam(one))}`)}
${paragraph(escapeHtml(paragraphs[3]!))}
</body>
</html>
`;
  return { from: mail.from, to: mail.notifyTo, subject, text, html, messageId };
}
