import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * A team in the back office (issue 21, docs/decisions/042): each admin has a
 * role (every existing admin becomes an owner) and a name; owners invite new
 * members by e-mail (only the link's hash is kept); and the audit log records
 * every change, in the change's own transaction.
 *
 * The e-mail outbox sends more than enquiry e-mails now: a job may be an
 * invitation (or, for the password reset of issue 21, a reset link), and the
 * single-use link such an e-mail carries is kept apart from the message
 * (`link`) so it can be forgotten once sent. SQLite cannot change a CHECK
 * constraint, so there the table is rebuilt, in one transaction.
 */
const ROLE_CHECK = sql`role in ('owner', 'editor', 'enquiries')`;
const OUTBOX_KINDS = sql`kind in ('notification', 'acknowledgement', 'invitation', 'password-reset')`;

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);

  await db.schema
    .alterTable("admin_users")
    .addColumn("role", "text", (col) => col.notNull().defaultTo("owner").check(ROLE_CHECK))
    .execute();
  // Null until the member says (an admin made by the CLI, or before issue 21).
  await db.schema.alterTable("admin_users").addColumn("name", "text").execute();

  await db.schema
    .createTable("admin_invitations")
    .addColumn("id", "text", (col) => col.primaryKey())
    // Trimmed and lower-cased, as admin_users.email.
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("role", "text", (col) => col.notNull().check(ROLE_CHECK))
    // SHA-256 of the link's token: a copy of the database does not let anyone in.
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn("invited_by", "text", (col) => col.references("admin_users.id").onDelete("set null"))
    // Who invited, as they were then (the member may be gone by the time anyone asks).
    .addColumn("invited_by_email", "text", (col) => col.notNull())
    .addColumn("created_at", timestamp, (col) => col.notNull())
    .addColumn("expires_at", timestamp, (col) => col.notNull())
    .addColumn("accepted_at", timestamp)
    .addColumn("accepted_by", "text", (col) => col.references("admin_users.id").onDelete("set null"))
    .addColumn("revoked_at", timestamp)
    .execute();
  // One open invitation per address: inviting again replaces the earlier one.
  await db.schema
    .createIndex("admin_invitations_open_email_idx")
    .unique()
    .on("admin_invitations")
    .column("email")
    .where(sql.ref("accepted_at"), "is", null)
    .where(sql.ref("revoked_at"), "is", null)
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", dialect === "postgres" ? "serial" : "integer", (col) => (dialect === "postgres" ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn("at", timestamp, (col) => col.notNull())
    .addColumn("actor_type", "text", (col) => col.notNull().check(sql`actor_type in ('member', 'cli', 'system', 'visitor')`))
    // The member (no foreign key: the entry outlives them), with their e-mail as it was; or the command or job.
    .addColumn("actor_id", "text")
    .addColumn("actor_label", "text", (col) => col.notNull())
    .addColumn("ip", "text")
    // A kind of app/audit/kinds.ts; the record it is about; a few checked details (JSON), never free text.
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("target_type", "text", (col) => col.notNull())
    .addColumn("target_id", "text")
    .addColumn("details", "text")
    .execute();
  // The view pages newest first, by date, person and kind; retention deletes by date.
  await db.schema.createIndex("audit_log_at_idx").on("audit_log").columns(["at", "id"]).execute();
  await db.schema.createIndex("audit_log_actor_idx").on("audit_log").columns(["actor_id", "at"]).execute();
  await db.schema.createIndex("audit_log_target_idx").on("audit_log").columns(["target_id", "at"]).execute();
  await db.schema.createIndex("audit_log_action_idx").on("audit_log").columns(["action", "at"]).execute();

  await widenOutbox(db, dialect);
}

async function widenOutbox(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`alter table email_outbox drop constraint email_outbox_kind_check`.execute(db);
    await sql`alter table email_outbox add constraint email_outbox_kind_check check (${OUTBOX_KINDS})`.execute(db);
    await db.schema.alterTable("email_outbox").addColumn("invitation_id", "text").execute();
    await db.schema.alterTable("email_outbox").addColumn("link", "text").execute();
    await db.schema.createIndex("email_outbox_invitation_idx").on("email_outbox").column("invitation_id").execute();
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
      // The invitation an e-mail carries; its job goes when the invitation is revoked or accepted.
      .addColumn("invitation_id", "text")
      // The single-use link, put into the message only when it is sent, and forgotten then.
      .addColumn("link", "text")
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
