import { NOT_PROCEEDING_REASONS } from "./pipeline";

/**
 * Replies from the dashboard (issue 22, decision 059): the owner's reply
 * templates and their placeholders, the Not proceeding reasons the owner
 * keeps, and the acknowledgement's text; what a member's reply may hold.
 * Shared by server and browser: words and checks only.
 */

export type ReplyTemplate = { id: string; name: string; subject: string; body: string };

/** What an owner keeps under Contact Submissions, Settings (enquiry-settings.server.ts). */
export type EnquirySettings = {
  templates: ReplyTemplate[];
  reasons: string[];
  acknowledgement: { on: boolean; text: string };
};

/**
 * A reply's state, from its outbox job: queued (or being sent), sent, failing
 * (the worker will try again, or gave up), or not sent (its job was dropped:
 * the enquiry went to Spam before it left).
 */
export type ReplyDelivery = "queued" | "sent" | "failing" | "not-sent";

/** A reply as the card and the lead's timeline show it (repliesOf in replies.server.ts). */
export type EnquiryReply = {
  id: string;
  author: string;
  subject: string;
  body: string;
  createdAt: string;
  delivery: ReplyDelivery;
  sentAt: string | null;
};

/** The placeholders a template (or the acknowledgement) may use, and what each becomes. */
export const PLACEHOLDERS = [
  { token: "{first name}", means: "the visitor's first name (or “there” when their name cannot be used)" },
  { token: "{company}", means: "the company's name" },
  { token: "{phone}", means: "the company's phone number" },
  { token: "{my name}", means: "your name, as your account gives it (only in replies)" },
] as const;

export type PlaceholderValues = { firstName: string; company: string; phone: string; myName: string };

/** Fills the placeholders, each wherever it appears; anything else in braces stays as written. */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text
    .replaceAll("{first name}", values.firstName)
    .replaceAll("{company}", values.company)
    .replaceAll("{phone}", values.phone)
    .replaceAll("{my name}", values.myName);
}

/**
 * A name that reads like a web address ("Cheap pills at example.com") would
 * turn an e-mail to the visitor into an advertisement sent to any address a
 * stranger types: such a name is never repeated.
 */
export const LINK_LIKE = /:\/\/|www\.|[a-z0-9-]\.[a-z]{2,}/i;

/** The first word of the visitor's name, or "there" ("Dear there" reads badly, so templates say "Hello {first name}"). */
export function firstNameOf(name: string): string {
  if (LINK_LIKE.test(name)) return "there";
  const first = name.trim().split(/\s+/)[0] ?? "";
  return first === "" ? "there" : first;
}

export const LIMITS = { templates: 10, reasons: 12, name: 60, subject: 200, body: 5000, reason: 200 } as const;

export const DEFAULT_TEMPLATES: ReplyTemplate[] = [
  {
    id: "thanks-call",
    name: "Thank you, we will call",
    subject: "Your enquiry to {company}",
    body: "Hello {first name},\n\nThank you for getting in touch with {company}. I will call you shortly to talk it through; if another time suits you better, just reply to this e-mail.\n\nKind regards,\n{my name}\n{company} · {phone}",
  },
  {
    id: "valuation",
    name: "Offer a valuation visit",
    subject: "A free rental valuation from {company}",
    body: "Hello {first name},\n\nThank you for your enquiry. We would be glad to visit the property and give you a free rental valuation. Which days and times suit you over the next week?\n\nKind regards,\n{my name}\n{company} · {phone}",
  },
  {
    id: "more-details",
    name: "Ask for more details",
    subject: "Your enquiry to {company}",
    body: "Hello {first name},\n\nThank you for contacting {company}. So that we can help, could you tell us a little more: the property's address, and when you would like it let?\n\nKind regards,\n{my name}\n{company} · {phone}",
  },
];

export const DEFAULT_ACKNOWLEDGEMENT =
  "Hello {first name},\n\nThank you for contacting {company}. We have received your message and will get back to you within 24 hours.\n\nIf it is urgent, please call us on {phone}.\n\nKind regards,\n{company}";

export const DEFAULT_SETTINGS: EnquirySettings = {
  templates: DEFAULT_TEMPLATES,
  reasons: [...NOT_PROCEEDING_REASONS],
  acknowledgement: { on: false, text: DEFAULT_ACKNOWLEDGEMENT },
};

/** Line ends made \n, control characters but tab and line ends removed, ends trimmed. */
export function cleanText(value: string | undefined): string {
  return (
    (value ?? "")
      .replace(/\r\n?/g, "\n")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters (but tab and line ends) are taken out.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
      .trim()
  );
}

/** One line: every control or format character and run of spaces made one space, trimmed. */
export function cleanLine(value: string | undefined): string {
  return (value ?? "")
    .replace(/[\p{Cc}\p{Cf}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const length = (text: string) => [...text].length;

export const REPLY_PROBLEMS = {
  subject: `Give the reply a subject (at most ${LIMITS.subject} characters).`,
  body: `Write the reply (at most ${LIMITS.body} characters).`,
} as const;

/** A member's reply as sent: a one-line subject and a body; or what is wrong. */
export function parseReply(subject: string | undefined, body: string | undefined): { subject: string; body: string } | { problem: string } {
  const cleanSubject = cleanLine(subject);
  const cleanBody = cleanText(body);
  if (cleanSubject === "" || length(cleanSubject) > LIMITS.subject) return { problem: REPLY_PROBLEMS.subject };
  if (cleanBody === "" || length(cleanBody) > LIMITS.body) return { problem: REPLY_PROBLEMS.body };
  return { subject: cleanSubject, body: cleanBody };
}

export const SETTINGS_PROBLEMS = {
  template: (n: number) =>
    `Template ${n}: give it a name (at most ${LIMITS.name} characters), a subject (at most ${LIMITS.subject}) and a text (at most ${LIMITS.body}), or leave all three empty to remove it.`,
  tooManyTemplates: `At most ${LIMITS.templates} templates.`,
  noReasons: "Keep at least one reason for Not proceeding (one a line).",
  reason: `A reason can be at most ${LIMITS.reason} characters.`,
  tooManyReasons: `At most ${LIMITS.reasons} reasons.`,
  acknowledgement: `Write the acknowledgement's text before turning it on (at most ${LIMITS.body} characters).`,
} as const;

/**
 * The settings form as saved: template n is `templateName-n`, `templateSubject-n`,
 * `templateBody-n` (an empty one is dropped; `TEMPLATE_SLOTS` of them on the page),
 * the reasons one a line, the acknowledgement's text and `acknowledgementOn=on`.
 */
export function parseSettings(fields: Record<string, string | undefined>, slots: number): EnquirySettings | { problem: string } {
  const templates: ReplyTemplate[] = [];
  for (let n = 1; n <= slots; n++) {
    const name = cleanLine(fields[`templateName-${n}`]);
    const subject = cleanLine(fields[`templateSubject-${n}`]);
    const body = cleanText(fields[`templateBody-${n}`]);
    if (name === "" && subject === "" && body === "") continue;
    if (name === "" || subject === "" || body === "" || length(name) > LIMITS.name || length(subject) > LIMITS.subject || length(body) > LIMITS.body) {
      return { problem: SETTINGS_PROBLEMS.template(n) };
    }
    templates.push({ id: `t${n}`, name, subject, body });
  }
  if (templates.length > LIMITS.templates) return { problem: SETTINGS_PROBLEMS.tooManyTemplates };
  const reasons = [...new Set(cleanText(fields.reasons).split("\n").map(cleanLine).filter(Boolean))];
  if (reasons.length === 0) return { problem: SETTINGS_PROBLEMS.noReasons };
  if (reasons.length > LIMITS.reasons) return { problem: SETTINGS_PROBLEMS.tooManyReasons };
  if (reasons.some((reason) => length(reason) > LIMITS.reason)) return { problem: SETTINGS_PROBLEMS.reason };
  const text = cleanText(fields.acknowledgementText);
  const on = fields.acknowledgementOn === "on";
  if (length(text) > LIMITS.body || (on && text === "")) return { problem: SETTINGS_PROBLEMS.acknowledgement };
  return { templates, reasons, acknowledgement: { on, text } };
}

/** "Re: …" of a subject, once. */
export function replySubject(subject: string): string {
  return /^re:/i.test(subject) ? subject : `Re: ${subject}`;
}
