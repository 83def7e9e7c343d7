import type { Kysely } from "kysely";
import { widenOutboxKinds } from "./outbox-kinds";
import { timestampType, type MigrationDialect } from "./types";

/**
 * Replies from the dashboard and the owner's settings for them (issue 22,
 * decision 059): each reply a member sends (who, when, what) with its outbox
 * job, gone with the enquiry (ON DELETE CASCADE); one row of settings (the
 * reply templates, the Not proceeding reasons, the acknowledgement's text and
 * switch), absent until an owner saves them (the code's defaults apply); and
 * the outbox allows the kind "reply". SQLite cannot change a CHECK
 * constraint, so there the outbox is rebuilt, in one transaction (outbox-kinds.ts).
 */
const OUTBOX_KINDS = ["notification", "acknowledgement", "invitation", "password-reset", "reply"] as const;

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  await widenOutboxKinds(db, dialect, OUTBOX_KINDS);
  await db.schema
    .createTable("enquiry_replies")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("submission_id", "text", (col) => col.notNull().references("contact_submissions.id").onDelete("cascade"))
    .addColumn("author_id", "text", (col) => col.references("admin_users.id").onDelete("set null"))
    .addColumn("author_label", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("created_at", timestamp, (col) => col.notNull())
    // The e-mail's job (no foreign key: a sent job may be pruned, the reply stays on record).
    .addColumn("outbox_job_id", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("enquiry_replies_submission_idx").on("enquiry_replies").columns(["submission_id", "created_at"]).execute();
  await db.schema
    .createTable("enquiry_settings")
    .addColumn("id", "integer", (col) => col.primaryKey())
    // JSON: [{ id, name, subject, body }].
    .addColumn("templates", "text", (col) => col.notNull())
    // JSON: ["Chose another agent", …].
    .addColumn("reasons", "text", (col) => col.notNull())
    .addColumn("acknowledgement_on", "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("acknowledgement_text", "text", (col) => col.notNull())
    .addColumn("updated_at", timestamp, (col) => col.notNull())
    .addColumn("updated_by", "text", (col) => col.notNull())
    .execute();
}
