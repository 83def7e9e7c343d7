import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * When the team first answered an enquiry (issue 22, decision 060): its first
 * status change or reply, kept on the row (so it goes with the enquiry) and
 * never moved once set. Enquiries already stored take the earliest status
 * change the audit log holds for them (one indexed look-up each, on
 * audit_log_target_idx); one never changed stays unanswered. Adding a column
 * and filling it rebuilds nothing: this runs as it is inside a restore's one
 * transaction (decision 040).
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  await db.schema.alterTable("contact_submissions").addColumn("first_response_at", timestampType(dialect)).execute();
  await sql`
    update contact_submissions
    set first_response_at = (
      select min(audit_log.at) from audit_log
      where audit_log.action = 'enquiry-status-changed' and audit_log.target_id = contact_submissions.id
    )
    where first_response_at is null
  `.execute(db);
}
