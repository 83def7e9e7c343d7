/**
 * Dates as the company reads them, in the admin and in its e-mails: en-GB
 * with a short month, in UK time whatever the server's or the browser's own
 * zone and locale. Formatted on the server only and sent as text, so the
 * browser's ICU version cannot make hydration differ.
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
