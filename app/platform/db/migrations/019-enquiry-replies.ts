import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * Replies from the dashboard and the owner's settings for them (issue 22,
 * decision 059): each reply a member sends (who, when, what) with its outbox
 * job, gone with the enquiry (ON DELETE CASCADE); one row of settings (the
 * reply templates, the Not proceeding reasons, the acknowledgement's text and
 * switch), absent until an owner saves them (the code's defaults apply); and
 * the outbox allows the kind "reply". SQLite cannot change a CHECK
 * constraint, so there the outbox is rebuilt, in one transaction (as 012 did).
 */
const OUTBOX_KINDS = sql`kind in ('notification', 'acknowledgement', 'invitation', 'password-reset', 'reply')`;

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  await widenOutbox(db, dialect);
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

async function widenOutbox(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`alter table email_outbox drop constraint email_outbox_kind_check`.execute(db);
    await sql`alter table email_outbox add constraint email_outbox_kind_check check (${OUTBOX_KINDS})`.execute(db);
    return;
  }
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const columns = [
    "id",
    "submission_id",
    "kind",
    "message",
    "status",
    "attempts",
    "next_attempt_at",
    "lease_token",
    "lease_until",
    "last_error",
    "sent_at",
    "created_at",
    "updated_at",
    "invitation_id",
    "link",
    "expires_at",
  ].map((name) => sql.ref(name));
  const rebuild = async (trx: Kysely<unknown>) => {
    await trx.schema
      .createTable("email_outbox_new")
      .addColumn("id", "text", (col) => col.primaryKey())
      .addColumn("submission_id", "text")
      .addColumn("kind", "text", (col) => col.notNull().check(OUTBOX_KINDS))
      .addColumn("message", "text", (col) => col.notNull())
      .addColumn("status", "text", (col) => col.notNull().defaultTo("queued").check(sql`status in ('queued', 'sending', 'sent', 'failed')`))
      .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("next_attempt_at", "text")
      .addColumn("lease_token", "text")
      .addColumn("lease_until", "text")
      .addColumn("last_error", "text")
      .addColumn("sent_at", "text")
      .addColumn("created_at", "text", (col) => col.notNull().defaultTo(now))
      .addColumn("updated_at", "text", (col) => col.notNull().defaultTo(now))
      .addColumn("invitation_id", "text")
      .addColumn("link", "text")
      .addColumn("expires_at", "text")
      .execute();
    await sql`insert into email_outbox_new (${sql.join(columns)}) select ${sql.join(columns)} from email_outbox`.execute(trx);
    await trx.schema.dropTable("email_outbox").execute();
    await trx.schema.alterTable("email_outbox_new").renameTo("email_outbox").execute();
    await trx.schema.createIndex("email_outbox_due_idx").on("email_outbox").columns(["next_attempt_at"]).execute();
    await trx.schema.createIndex("email_outbox_submission_idx").on("email_outbox").column("submission_id").execute();
    await trx.schema.createIndex("email_outbox_status_idx").on("email_outbox").column("status").execute();
    await trx.schema.createIndex("email_outbox_invitation_idx").on("email_outbox").column("invitation_id").execute();
  };
  // In a transaction already when a restore builds the schema in one (decision 040); else in one of its own.
  if (db.isTransaction) await rebuild(db);
  else await db.transaction().execute(rebuild);
}
