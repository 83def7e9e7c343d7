import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import type { OpeningDay } from "~/company/office-hours";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { inTransaction } from "~/platform/db/transactions.server";
import { monthlyFigures, periodFigures, periodView, weeksOf, within, type FigureRow, type Period, type PeriodView } from "./figures";
import { submissionsQuery } from "./inbox.server";

/**
 * The figures of how the team is doing, read from the database (decision
 * 060): the inbox's own definition of a real enquiry (submissionsQuery's
 * "all": not spam, not held), so the panel counts what the inbox lists.
 */

/** The real enquiries received from `since` (all of them without it), oldest first. */
export async function figureRows(db: Db, since?: Date): Promise<FigureRow[]> {
  let query = submissionsQuery(db, { filter: "all" }).clearSelect().clearOrderBy().select(["created_at", "status", "first_response_at", "kind"]);
  if (since) query = query.where("created_at", ">=", since.toISOString());
  const rows = await query.orderBy("created_at").execute();
  return rows.map((row) => ({
    createdAt: toIsoString(row.created_at),
    kind: row.kind,
    status: row.status,
    firstResponseAt: row.first_response_at === null ? null : toIsoString(row.first_response_at),
  }));
}

export type TeamFigures = { weeks: PeriodView[] };

/** This week's and last week's figures (Monday to Sunday, UK time), as the panel shows them. */
export async function teamFigures(db: Db, week: readonly OpeningDay[], now = new Date()): Promise<TeamFigures> {
  const { thisWeek, lastWeek } = weeksOf(now);
  const rows = await figureRows(db, lastWeek.start);
  const view = (heading: string, period: Period) => periodView(heading, period, periodFigures(within(rows, period), week));
  return { weeks: [view("This week", thisWeek), view("Last week", lastWeek)] };
}

/**
 * Every month's figures for the CSV, with the export's audit entry (how many
 * months) in the same transaction, as the inbox's CSV has.
 */
export async function figuresToExport(db: Db, week: readonly OpeningDay[], actor: Actor, now = new Date()) {
  return inTransaction(db, async (trx) => {
    const months = monthlyFigures(await figureRows(trx), week, now);
    await audit(trx, { actor, action: "enquiry-figures-exported", target: "months", details: { count: months.length } });
    return months;
  });
}
