/**
 * Dates in the admin: en-GB with a short month, in UK time whatever the
 * server's or the browser's own zone and locale. Formatted on the server only
 * and sent as text, so the browser's ICU version cannot make hydration differ.
 */
const SUBMITTED_AT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/London",
});

/** "2026-11-22T14:05:00.000Z" → "22 Nov 2026, 14:05" (14:05 GMT; 15:05 in British Summer Time). */
export function formatSubmittedAt(iso: string): string {
  return SUBMITTED_AT.format(new Date(iso));
}

const TIME_OF_DAY = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/London" });
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "Europe/London" });
const LONDON_DATE = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" });

/**
 * When something happens next, as a clock in UK time: "14:05" on the same UK
 * day as `now`, "09:00 on 23 Nov" on another.
 */
export function formatUpcomingTime(iso: string, now: Date): string {
  const at = new Date(iso);
  const time = TIME_OF_DAY.format(at);
  return LONDON_DATE.format(at) === LONDON_DATE.format(now) ? time : `${time} on ${DAY.format(at)}`;
}

/** An address for a mailto: link. Only the characters that mean something in a URL are escaped; "@" stays. */
function mailtoAddress(email: string): string {
  return encodeURIComponent(email).replace(/%40/g, "@");
}

export function mailtoHref(email: string): string {
  return `mailto:${mailtoAddress(email)}`;
}

/**
 * "Reply via Email": a new message to the sender with a subject about the
 * inquiry and a greeting. encodeURIComponent, not URLSearchParams: mail
 * clients show a "+" literally, and line breaks must be CRLF (RFC 6068).
 */
export function replyHref(submission: { name: string; email: string }, companyName: string): string {
  const subject = `Re: Your inquiry to ${companyName}`;
  const body = `Dear ${submission.name},\r\n\r\nThank you for getting in touch.\r\n\r\n`;
  return `${mailtoHref(submission.email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
