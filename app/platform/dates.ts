/**
 * Dates as the company reads them, in the admin and in its e-mails: en-GB
 * with a short month, in UK time whatever the server's or the browser's own
 * zone and locale. Formatted on the server only and sent as text, so the
 * browser's ICU version cannot make hydration differ.
 */

/**
 * A formatter made on its first use, then kept (making one costs far more than using one).
 * Not at import: the first formatter a process makes maps ICU's locale and zone data, ~8 MB
 * of memory, and the public site (the page, the contact form) never formats a date
 * (decision 085).
 */
export function dateFormatter(locale: string, options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let made: Intl.DateTimeFormat | undefined;
  return () => {
    made ??= new Intl.DateTimeFormat(locale, options);
    return made;
  };
}

const SUBMITTED_AT = dateFormatter("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/London",
});

/** "2026-11-22T14:05:00.000Z" → "22 Nov 2026, 14:05" (14:05 GMT; 15:05 in British Summer Time). */
export function formatSubmittedAt(iso: string): string {
  return SUBMITTED_AT().format(new Date(iso));
}

const TIME_OF_DAY = dateFormatter("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/London" });
const DAY = dateFormatter("en-GB", { day: "numeric", month: "short", timeZone: "Europe/London" });
const LONDON_DATE = dateFormatter("en-CA", { timeZone: "Europe/London" });

/**
 * When something happens next, as a clock in UK time: "14:05" on the same UK
 * day as `now`, "09:00 on 23 Nov" on another.
 */
export function formatUpcomingTime(iso: string, now: Date): string {
  const at = new Date(iso);
  const time = TIME_OF_DAY().format(at);
  return LONDON_DATE().format(at) === LONDON_DATE().format(now) ? time : `${time} on ${DAY().format(at)}`;
}

/*
 * London wall-clock time (GMT or BST) to and from instants, for scheduled
 * publishing (the admin types "2026-12-01T09:00" meaning nine in London) and
 * the audit log's days. Browser-safe; uses the runtime's time zone data
 * (Intl), no library.
 */
const LONDON = "Europe/London";

/** Made once: building a formatter costs far more than using one, and office hours convert many times per enquiry. */
const LONDON_PARTS = dateFormatter("en-GB", {
  timeZone: LONDON,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

function londonParts(instant: Date): Record<string, number> {
  const parts = LONDON_PARTS().formatToParts(instant);
  const value: Record<string, number> = {};
  for (const part of parts) if (part.type !== "literal") value[part.type] = Number(part.value);
  return value;
}

/** Minutes London is ahead of UTC at `instant` (0 in winter, 60 in summer). */
function londonOffsetMinutes(instant: Date): number {
  const p = londonParts(instant);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * "2026-12-01T09:00" (an <input type="datetime-local">) as London time → the
 * instant; undefined when it is not such a value. In the hour that does not
 * exist when the clocks go forward, the time after the change is taken.
 */
export function fromLondonTime(local: string): Date | undefined {
  const match = LOCAL.exec(local);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return undefined;
  // The offset at the guess, then at the corrected guess (they differ only around a change).
  let instant = wall - londonOffsetMinutes(new Date(wall)) * 60_000;
  instant = wall - londonOffsetMinutes(new Date(instant)) * 60_000;
  return new Date(instant);
}

/** An instant as London wall-clock time for a datetime-local field: "2026-12-01T09:00". */
export function toLondonTime(instant: Date): string {
  const p = londonParts(instant);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, "0");
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

const LONDON_LABEL = dateFormatter("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: LONDON });

/** "1 Dec 2026, 09:00" in London. */
export function londonLabel(instant: Date): string {
  return LONDON_LABEL().format(instant);
}

/** The calendar day in London of an instant: "2026-12-01". */
export function londonDate(instant: Date): string {
  return toLondonTime(instant).slice(0, 10);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written "YYYY-MM-DD" (an <input type="date">'s value). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day));
  return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day;
}

const CALENDAR_DATE = dateFormatter("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** "Tuesday 1 December 2026" for a calendar day "2026-12-01". */
export function calendarDateLabel(value: string): string {
  const parts = CALENDAR_DATE().formatToParts(new Date(`${value}T12:00:00Z`));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  // Without the comma ICU puts after the weekday, as British writing has it.
  return `${part("weekday")} ${part("day")} ${part("month")} ${part("year")}`;
}
