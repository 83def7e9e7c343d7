import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * The pipeline's Status of each enquiry (issue 22, decision 055): New until a
 * member changes it, with the reason of Not proceeding, and who changed it
 * last and when. Every existing enquiry starts as New. Adding columns
 * rebuilds nothing, so this runs as it is inside a restore's one transaction
 * (decision 040). An index serves the inbox's filter by status, newest first.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  await db.schema
    .alterTable("contact_submissions")
    .addColumn("status", "text", (col) =>
      col.notNull().defaultTo("new").check(sql`status in ('new', 'contacted', 'valuation-booked', 'instructed', 'not-proceeding')`),
    )
    .execute();
  await db.schema.alterTable("contact_submissions").addColumn("status_reason", "text").execute();
  await db.schema.alterTable("contact_submissions").addColumn("status_changed_at", timestamp).execute();
  // Who changed it, as the audit log names a member ("Jo Smith <jo@example.com>"): kept with the enquiry, erased with it.
  await db.schema.alterTable("contact_submissions").addColumn("status_changed_by", "text").execute();
  await db.schema.createIndex("contact_submissions_status_created_idx").on("contact_submissions").columns(["status", "created_at"]).execute();
}
