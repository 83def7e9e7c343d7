import { fromLondonTime } from "~/platform/dates";

/**
 * Time counted in office hours (issue 22, decision 060): how long the team
 * took to answer, counting only the business hours the company set in the
 * Website tab, in UK time (GMT or BST, whichever the day has). A night, a
 * weekend or a closed day costs nothing; an enquiry that came in at 17:30 on a
 * Friday and was answered at 9:30 on Monday took 1 hour (half an hour each
 * side) with Monday – Friday 9:00 – 18:00 and a closed weekend. Pure, no
 * library: the runtime's time zone data (Intl, through app/platform/dates.ts).
 */

/** One day of the week, Monday first, as the Website tab's Business hours store it ("09:00", or closed). */
export type OpeningDay = { open: boolean; opens: string; closes: string };

const DAY_MS = 86_400_000;
const TIME = /^(\d{2}):(\d{2})$/;

/**
 * Milliseconds of office hours between two instants: the parts of
 * [from, to) that fall within an open day's hours in London. Zero when `to`
 * is not after `from`. `week` is Monday to Sunday; a day missing from it, or
 * with a time that is not one, counts as closed.
 */
export function officeTimeBetween(from: Date, to: Date, week: readonly OpeningDay[]): number {
  const [start, end] = [from.getTime(), to.getTime()];
  if (!(end > start)) return 0;
  if (!week.some((day) => day.open)) return 0;
  let total = 0;
  // Calendar days in London, as the UTC midnights of their dates (pure date arithmetic, no zone).
  for (let day = londonDay(start), last = londonDay(end); day <= last; day += DAY_MS) {
    const hours = week[(new Date(day).getUTCDay() + 6) % 7];
    if (!hours?.open) continue;
    const [opens, closes] = [wallTime(day, hours.opens), wallTime(day, hours.closes)];
    if (opens === undefined || closes === undefined) continue;
    const [inFrom, inTo] = [Math.max(opens, start), Math.min(closes, end)];
    if (inTo > inFrom) total += inTo - inFrom;
  }
  return total;
}

/**
 * London midnight of each date (keyed by the date's UTC midnight), as
 * worked out once through Intl: a figure of 100,000 enquiries asks for the
 * same few hundred days again and again, and Intl is slow. Bounded: emptied
 * when it grows past a lifetime of days.
 */
const MIDNIGHTS = new Map<number, number>();
const MAX_MIDNIGHTS = 50_000;

function londonMidnight(day: number): number {
  const known = MIDNIGHTS.get(day);
  if (known !== undefined) return known;
  if (MIDNIGHTS.size >= MAX_MIDNIGHTS) MIDNIGHTS.clear();
  const midnight = fromLondonTime(`${new Date(day).toISOString().slice(0, 10)}T00:00`)!.getTime();
  MIDNIGHTS.set(day, midnight);
  return midnight;
}

/** The London calendar day of an instant, as the UTC midnight of that date (London is never behind UTC). */
function londonDay(instant: number): number {
  const day = Math.floor(instant / DAY_MS) * DAY_MS;
  if (instant >= londonMidnight(day + DAY_MS)) return day + DAY_MS;
  return instant < londonMidnight(day) ? day - DAY_MS : day;
}

/** "2026-07-05": the London calendar date of an instant (cached as office time is: cheap for many). */
export function londonDate(instant: Date): string {
  return new Date(londonDay(instant.getTime())).toISOString().slice(0, 10);
}

/**
 * "09:00" in London on a day, as an instant: midnight plus the time on a day
 * of 24 hours; through Intl on a day the clocks change (the hour that does
 * not exist is taken as the one after it). Undefined when it is not a time.
 */
function wallTime(day: number, time: string): number | undefined {
  const match = TIME.exec(time);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59) return undefined;
  const midnight = londonMidnight(day);
  if (londonMidnight(day + DAY_MS) - midnight === DAY_MS) return midnight + (Number(match[1]) * 60 + Number(match[2])) * 60_000;
  return fromLondonTime(`${new Date(day).toISOString().slice(0, 10)}T${time}`)?.getTime();
}

/**
 * A length of office time in words a screen reader reads as they are:
 * "45 minutes", "1 hour", "2 hours 5 minutes"; under a minute is
 * "under a minute". Rounded to the nearest minute.
 */
export function officeTimeLabel(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "under a minute";
  const [hours, rest] = [Math.floor(minutes / 60), minutes % 60];
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  if (hours === 0) return unit(rest, "minute");
  return rest === 0 ? unit(hours, "hour") : `${unit(hours, "hour")} ${unit(rest, "minute")}`;
}
