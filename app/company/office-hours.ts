import { fromLondonTime, toLondonTime } from "~/platform/dates";

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

/**
 * Milliseconds of office hours between two instants: the parts of
 * [from, to) that fall within an open day's hours in London. Zero when `to`
 * is not after `from`. `week` is Monday to Sunday; a day missing from it, or
 * with a time that is not one, counts as closed.
 */
export function officeTimeBetween(from: Date, to: Date, week: readonly OpeningDay[]): number {
  if (!(to.getTime() > from.getTime())) return 0;
  if (!week.some((day) => day.open)) return 0;
  const [first, last] = [londonDay(from), londonDay(to)];
  let total = 0;
  // Calendar days in London, as UTC midnights (pure date arithmetic, no zone).
  for (let day = first; day <= last; day += DAY_MS) {
    const hours = week[(new Date(day).getUTCDay() + 6) % 7];
    if (!hours?.open) continue;
    const date = new Date(day).toISOString().slice(0, 10);
    const [opens, closes] = [fromLondonTime(`${date}T${hours.opens}`), fromLondonTime(`${date}T${hours.closes}`)];
    if (opens === undefined || closes === undefined) continue;
    const start = Math.max(opens.getTime(), from.getTime());
    const end = Math.min(closes.getTime(), to.getTime());
    if (end > start) total += end - start;
  }
  return total;
}

/** The London calendar day of an instant, as the UTC midnight of that date. */
function londonDay(instant: Date): number {
  const [year, month, day] = toLondonTime(instant).slice(0, 10).split("-").map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day);
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
