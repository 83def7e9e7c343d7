import type { Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * What a limit held or refused, counted per bucket and 15-minute period
 * instead of one row per request (decision 037): a flood of refusals updates
 * one row per period, and the dashboard sums the last day's.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  await db.schema
    .createTable("limit_counts")
    // "contact-held", "contact-refused-ceiling", "sign-in-refused-busy", … (platform/limits/tally.server.ts).
    .addColumn("bucket", "text", (col) => col.notNull())
    // The start of the 15-minute period counted.
    .addColumn("period_start", timestamp, (col) => col.notNull())
    .addColumn("count", "integer", (col) => col.notNull())
    // The latest event counted in the period.
    .addColumn("last_at", timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint("limit_counts_pkey", ["bucket", "period_start"])
    .execute();
}
