import { isUuid } from "~/platform/ids";
import { fromLondonTime } from "~/platform/dates";
import { isAuditKind, type AuditKind } from "~/audit/kinds";

/**
 * What the Audit log view asks for: a person, kinds, and a range of days (UK
 * calendar days, as people mean them), from its URL. Anything that is not one
 * of these is left out, never an error: the view says what it shows.
 */
export type AuditQuery = {
  /** A member's id: the entries they made, and those about their account (a failed sign-in, a new role). */
  personId?: string | undefined;
  /** Any of these kinds; all when absent or empty. */
  kinds?: AuditKind[] | undefined;
  /** From this instant (the start of the first day asked for). */
  from?: Date | undefined;
  /** Before this instant (the start of the day after the last day asked for). */
  until?: Date | undefined;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** "2026-11-26" (an <input type="date">) → the start of that day in London; undefined when it is not a date. */
export function startOfLondonDay(day: string): Date | undefined {
  return DAY.test(day) ? fromLondonTime(`${day}T00:00`) : undefined;
}

/** The day after "2026-11-26", as a date string. */
function nextDay(day: string): string {
  const date = new Date(`${day}T12:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** ?person=<id>&kind=<kind>(repeated)&from=<YYYY-MM-DD>&to=<YYYY-MM-DD> (both days included). */
export function parseAuditQuery(params: URLSearchParams): AuditQuery {
  const person = params.get("person");
  const kinds = [...new Set(params.getAll("kind").filter(isAuditKind))];
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  return {
    personId: isUuid(person) ? person.toLowerCase() : undefined,
    kinds: kinds.length > 0 ? kinds : undefined,
    from: startOfLondonDay(from),
    until: startOfLondonDay(to) && startOfLondonDay(nextDay(to)),
  };
}
