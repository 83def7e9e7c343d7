import { londonDate, officeTimeBetween, officeTimeLabel, type OpeningDay } from "~/company/office-hours";
import { dateFormatter, fromLondonTime, toLondonTime } from "~/platform/dates";
import { csvRecord, CSV_BOM } from "./csv";
import type { EnquiryKind } from "~/platform/db/schema";
import { ENQUIRY_STATUSES, STATUS_LABELS, type EnquiryStatus } from "./pipeline";
import { KIND_LABELS } from "./valuation";

/**
 * How the team is doing (issue 22, decision 060): the real enquiries (not
 * spam, not held) received in a period, by kind and by the status they stand
 * at now, the share that became Instructed, and the median time to the
 * first response (first status change or reply) counted in office hours.
 * Weeks run Monday to Sunday and months by the calendar, both in UK time.
 * Pure: the rows come from figures.server.ts.
 */

/** The kinds of enquiry (the contact form's, a valuation request: decision 057), in the order the figures list them. */
export const ENQUIRY_KINDS = ["contact", "valuation"] as const satisfies readonly EnquiryKind[];
export { KIND_LABELS };

/** One enquiry as the figures need it. */
export type FigureRow = { createdAt: string; kind: EnquiryKind; status: EnquiryStatus; firstResponseAt: string | null };

export type PeriodFigures = {
  total: number;
  byKind: Record<EnquiryKind, number>;
  byStatus: Record<EnquiryStatus, number>;
  /** Answered: with a first response. */
  answered: number;
  /** Median office time to the first response of those answered, in milliseconds; undefined when none was. */
  medianResponseMs: number | undefined;
};

const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;

/** The figures of these enquiries, the response times counted in `week`'s business hours. */
export function periodFigures(rows: readonly FigureRow[], week: readonly OpeningDay[]): PeriodFigures {
  const byKind = zeros(ENQUIRY_KINDS);
  const byStatus = zeros(ENQUIRY_STATUSES);
  const times: number[] = [];
  for (const row of rows) {
    byKind[row.kind] += 1;
    byStatus[row.status] += 1;
    if (row.firstResponseAt !== null) times.push(officeTimeBetween(new Date(row.createdAt), new Date(row.firstResponseAt), week));
  }
  return { total: rows.length, byKind, byStatus, answered: times.length, medianResponseMs: median(times) };
}

/** The middle value (the mean of the two middle ones for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The share that became Instructed, as a whole percentage; undefined when there were none. */
export function instructedPercent(figures: PeriodFigures): number | undefined {
  return figures.total === 0 ? undefined : Math.round((figures.byStatus.instructed / figures.total) * 100);
}

export type Period = { start: Date; end: Date };

const DAY_MS = 86_400_000;

/** A London calendar date moved by whole days: "2026-11-30", -7 → "2026-11-23". */
function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Midnight starting a London calendar date ("2026-11-23"), as an instant. */
const londonMidnight = (date: string) => fromLondonTime(`${date}T00:00`)!;

/** This week and last week, Monday 00:00 to Monday 00:00 in UK time. */
export function weeksOf(now: Date): { thisWeek: Period; lastWeek: Period } {
  const today = toLondonTime(now).slice(0, 10);
  const monday = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
  const [start, end, lastStart] = [monday, addDays(monday, 7), addDays(monday, -7)].map(londonMidnight) as [Date, Date, Date];
  return { thisWeek: { start, end }, lastWeek: { start: lastStart, end: start } };
}

/** The rows received within a period. */
export function within(rows: readonly FigureRow[], period: Period): FigureRow[] {
  const [start, end] = [period.start.getTime(), period.end.getTime()];
  return rows.filter((row) => {
    const at = Date.parse(row.createdAt);
    return at >= start && at < end;
  });
}

/** "2026-11": the UK calendar month an instant falls in. */
export function londonMonth(iso: string): string {
  return londonDate(new Date(iso)).slice(0, 7);
}

/** Every month from the first enquiry's to `now`'s, oldest first, each with its figures (months without enquiries too). */
export function monthlyFigures(rows: readonly FigureRow[], week: readonly OpeningDay[], now: Date): Array<{ month: string; figures: PeriodFigures }> {
  const byMonth = new Map<string, FigureRow[]>();
  for (const row of rows) {
    const month = londonMonth(row.createdAt);
    const list = byMonth.get(month);
    if (list) list.push(row);
    else byMonth.set(month, [row]);
  }
  if (byMonth.size === 0) return [];
  const last = londonMonth(now.toISOString());
  const months: string[] = [];
  for (let month = [...byMonth.keys()].sort()[0]!; month <= last; month = nextMonth(month)) months.push(month);
  return months.map((month) => ({ month, figures: periodFigures(byMonth.get(month) ?? [], week) }));
}

function nextMonth(month: string): string {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, "0")}`;
}

/** The CSV's columns: the month, the counts, the share as a percentage and the median in whole minutes (blank when none). */
export function figuresCsvHeader(): string[] {
  return [
    "Month",
    "Enquiries",
    ...ENQUIRY_KINDS.map((kind) => KIND_LABELS[kind]),
    ...ENQUIRY_STATUSES.map((status) => STATUS_LABELS[status]),
    "Instructed (%)",
    "Answered",
    "Median time to first response (office hours, minutes)",
  ];
}

function figuresCsvValues(month: string, figures: PeriodFigures): string[] {
  const percent = instructedPercent(figures);
  return [
    month,
    String(figures.total),
    ...ENQUIRY_KINDS.map((kind) => String(figures.byKind[kind])),
    ...ENQUIRY_STATUSES.map((status) => String(figures.byStatus[status])),
    percent === undefined ? "" : String(percent),
    String(figures.answered),
    figures.medianResponseMs === undefined ? "" : String(Math.round(figures.medianResponseMs / 60_000)),
  ];
}

/** The month-by-month table as a CSV file (the inbox CSV's encoding: BOM, every field quoted, formulas neutralised, CRLF). */
export function figuresCsv(months: ReadonlyArray<{ month: string; figures: PeriodFigures }>): string {
  return CSV_BOM + [figuresCsvHeader(), ...months.map(({ month, figures }) => figuresCsvValues(month, figures))].map(csvRecord).join("");
}

/** One period as the panel shows it: every figure as words. */
export type PeriodView = {
  heading: string;
  /** "23 Nov – 29 Nov". */
  dates: string;
  total: number;
  byKind: Array<{ label: string; count: number }>;
  byStatus: Array<{ label: string; count: number }>;
  /** "25% (1 of 4)", or "No enquiries". */
  instructed: string;
  /** "3 of 4". */
  answered: string;
  /** "2 hours 5 minutes", or "No responses yet". */
  medianResponse: string;
};

const SHORT_DAY = dateFormatter("en-GB", { day: "numeric", month: "short", timeZone: "Europe/London" });

export function periodView(heading: string, period: Period, figures: PeriodFigures): PeriodView {
  const percent = instructedPercent(figures);
  return {
    heading,
    dates: `${SHORT_DAY().format(period.start)} – ${SHORT_DAY().format(new Date(period.end.getTime() - 1))}`,
    total: figures.total,
    byKind: ENQUIRY_KINDS.map((kind) => ({ label: KIND_LABELS[kind], count: figures.byKind[kind] })),
    byStatus: ENQUIRY_STATUSES.map((status) => ({ label: STATUS_LABELS[status], count: figures.byStatus[status] })),
    instructed: percent === undefined ? "No enquiries" : `${percent}% (${figures.byStatus.instructed} of ${figures.total})`,
    answered: `${figures.answered} of ${figures.total}`,
    medianResponse: figures.medianResponseMs === undefined ? "No responses yet" : officeTimeLabel(figures.medianResponseMs),
  };
}
