import type { Kysely } from "kysely";
import { widenOutboxKinds } from "./outbox-kinds";
import { timestampType, type MigrationDialect } from "./types";

/**
 * Who deals with an enquiry, and when to follow it up (issue 22, decision
 * 061): `assigned_to` is a member (set to null when the member leaves the
 * team), `follow_up_on` a calendar date in the UK ("YYYY-MM-DD", which sorts
 * as text on both databases). Indexes serve the inbox's Mine, Unassigned and
 * Due views, newest first.
 *
 * The outbox also sends the e-mail telling a member an enquiry is theirs
 * (kind "assignment"). SQLite cannot change a CHECK constraint, so there the
 * outbox is rebuilt from its own stored definition with the wider list (in
 * the migration's transaction, or a restore's: decision 040).
 */
export const OUTBOX_KINDS = ["notification", "acknowledgement", "invitation", "password-reset", "reply", "assignment"] as const;

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  await db.schema
    .alterTable("contact_submissions")
    .addColumn("assigned_to", "text", (col) => col.references("admin_users.id").onDelete("set null"))
    .execute();
  await db.schema.alterTable("contact_submissions").addColumn("assigned_at", timestamp).execute();
  await db.schema.alterTable("contact_submissions").addColumn("follow_up_on", "text").execute();
  await db.schema.createIndex("contact_submissions_assignee_created_idx").on("contact_submissions").columns(["assigned_to", "created_at"]).execute();
  await db.schema.createIndex("contact_submissions_follow_up_idx").on("contact_submissions").columns(["follow_up_on", "created_at"]).execute();
  await widenOutboxKinds(db, dialect, OUTBOX_KINDS);
}
