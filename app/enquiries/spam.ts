/**
 * Why a submission was caught as spam: stored in contact_submissions.spam_reason
 * (the code), shown to the admin under the Spam filter (the label). The rules
 * themselves are in spam.server.ts.
 */
export const SPAM_REASON_LABELS = {
  honeypot: "Filled in the hidden field that only bots see",
  "no-token": "Sent without the form's timing token",
  "bad-token": "Sent with a forged or damaged timing token",
  "too-fast": "Sent too soon after the page was opened",
  links: "Too many links in the message",
  "link-markup": "Link markup (BBCode or HTML) in the message",
  "link-in-name": "A link in the name",
} as const;

export type SpamReason = keyof typeof SPAM_REASON_LABELS;

/** The honeypot's field name in the form and the API: a text input people and screen readers never see. */
export const HONEYPOT_FIELD = "website";

export function spamReasonLabel(code: string): string {
  return (SPAM_REASON_LABELS as Record<string, string>)[code] ?? code;
}
