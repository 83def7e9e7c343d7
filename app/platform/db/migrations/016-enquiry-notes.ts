import type { Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * Internal notes on an enquiry (issue 22, decision 056): who wrote it (the
 * member, kept by name when they leave the team) and when, never sent to
 * the visitor, and gone with the enquiry (ON DELETE CASCADE: a delete, an
 * erasure or the retention rule takes its notes in the same statement). A
 * new table rebuilds nothing: this runs as it is inside a restore's one
 * transaction (decision 040).
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  await db.schema
    .createTable("enquiry_notes")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("submission_id", "text", (col) => col.notNull().references("contact_submissions.id").onDelete("cascade"))
    .addColumn("author_id", "text", (col) => col.references("admin_users.id").onDelete("set null"))
    .addColumn("author_label", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("created_at", timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("enquiry_notes_submission_idx").on("enquiry_notes").columns(["submission_id", "created_at"]).execute();
}
