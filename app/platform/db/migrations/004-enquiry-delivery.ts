import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * Every enquiry reaches the company: the e-mail outbox (jobs written in the
 * same transaction as the enquiry, sent by a worker), spam kept apart with its
 * reason, and server secrets shared by every instance on the database.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  const now = dialect === "postgres" ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

  // Null: a real enquiry. Otherwise why it was caught ("honeypot", "too-fast", "links", …).
  await db.schema.alterTable("contact_submissions").addColumn("spam_reason", "text").execute();
  // The inbox filters: spam or not, then read state, newest first.
  await db.schema
    .createIndex("contact_submissions_spam_read_created_idx")
    .on("contact_submissions")
    .columns(["spam_reason", "is_read", "created_at"])
    .execute();
  // GDPR requests and search by e-mail: addresses are compared lower-cased.
  await db.schema.createIndex("contact_submissions_email_idx").on("contact_submissions").expression(sql`lower(email)`).execute();

  await db.schema
    .createTable("email_outbox")
    .addColumn("id", "text", (col) => col.primaryKey())
    // The enquiry the e-mail is about; its jobs are deleted with it.
    .addColumn("submission_id", "text")
    // "notification" (to the company) or "acknowledgement" (to the visitor).
    .addColumn("kind", "text", (col) => col.notNull().check(sql`kind in ('notification', 'acknowledgement')`))
    // JSON: the rendered message { to, replyTo?, subject, text, html }.
    .addColumn("message", "text", (col) => col.notNull())
    // queued → sending → sent, or → failed (with last_error; retried while next_attempt_at is set).
    .addColumn("status", "text", (col) => col.notNull().defaultTo("queued").check(sql`status in ('queued', 'sending', 'sent', 'failed')`))
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    // When the worker may (next) try; null once sent or given up.
    .addColumn("next_attempt_at", timestamp)
    // A worker's claim: only the holder of lease_token may finish the job, until lease_until.
    .addColumn("lease_token", "text")
    .addColumn("lease_until", timestamp)
    .addColumn("last_error", "text")
    .addColumn("sent_at", timestamp)
    .addColumn("created_at", timestamp, (col) => col.notNull().defaultTo(now))
    .addColumn("updated_at", timestamp, (col) => col.notNull().defaultTo(now))
    .execute();
  // The worker's question: what is due?
  await db.schema.createIndex("email_outbox_due_idx").on("email_outbox").columns(["next_attempt_at"]).execute();
  await db.schema.createIndex("email_outbox_submission_idx").on("email_outbox").column("submission_id").execute();
  await db.schema.createIndex("email_outbox_status_idx").on("email_outbox").column("status").execute();

  await db.schema
    .createTable("app_secrets")
    // e.g. "form-token": the key that signs the contact form's time-trap token.
    .addColumn("name", "text", (col) => col.primaryKey())
    .addColumn("value", "text", (col) => col.notNull())
    .addColumn("created_at", timestamp, (col) => col.notNull().defaultTo(now))
    .execute();
}
