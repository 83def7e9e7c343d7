/**
 * What the spam rules noticed about a submission (spam.server.ts), stored as
 * codes: in contact_submissions.spam_reason when it was filed under Spam, in
 * spam_signals when it stayed in the inbox marked as possible spam (or was
 * held in a flood: "flood", decision 037). Shown to the admin as these labels.
 */
export const SPAM_SIGNAL_LABELS = {
  honeypot: "Filled in the hidden field that only bots see",
  "no-token": "Sent without the form's timing token",
  "bad-token": "Sent with a forged or damaged timing token",
  "too-fast": "Sent within 3 seconds of opening the page",
  links: "Three or more links in the message",
  "link-markup": "Link markup (BBCode or HTML) in the message",
  "link-in-name": "A link in the name",
  "repeat-sender": "Several messages from one connection within the hour",
  "by-admin": "Moved to Spam by an admin",
  flood: "Arrived during a flood: more enquiries within the hour than the site-wide limit",
} as const;

export type SpamSignal = keyof typeof SPAM_SIGNAL_LABELS;

/** The honeypot's field name in the form and the API: a text input people and screen readers never see. */
export const HONEYPOT_FIELD = "website";

/** Signals are stored joined by "+": "too-fast+links". */
export function joinSignals(signals: readonly SpamSignal[]): string {
  return signals.join("+");
}

/** "too-fast+links" → "Sent within 3 seconds of opening the page; Three or more links in the message". */
export function spamSignalsLabel(stored: string): string {
  return stored
    .split("+")
    .map((code) => (Object.hasOwn(SPAM_SIGNAL_LABELS, code) ? SPAM_SIGNAL_LABELS[code as SpamSignal] : code))
    .join("; ");
}

/** The mark of an enquiry held in a flood (over CONTACT_SITE_LIMIT): first among its signals. */
export const FLOOD_SIGNAL: SpamSignal = "flood";

/** Whether stored signals ("flood+too-fast") hold the flood mark. */
export function isHeldInFlood(stored: string | null): boolean {
  return stored?.split("+").includes(FLOOD_SIGNAL) ?? false;
}
