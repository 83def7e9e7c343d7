import { sql, type Kysely } from "kysely";
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
  await widenOutboxKinds(db, dialect);
}

const KIND_CHECK = `kind in (${OUTBOX_KINDS.map((kind) => `'${kind}'`).join(", ")})`;

async function widenOutboxKinds(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`alter table email_outbox drop constraint email_outbox_kind_check`.execute(db);
    await sql`alter table email_outbox add constraint email_outbox_kind_check check (${sql.raw(KIND_CHECK)})`.execute(db);
    return;
  }
  const rebuild = async (trx: Kysely<unknown>) => {
    const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
      select type, name, sql from sqlite_master where tbl_name = 'email_outbox' order by type desc`.execute(trx);
    const table = rows.find((row) => row.type === "table");
    if (!table?.sql) throw new Error("email_outbox has no stored definition");
    const widened = table.sql.replace(/kind in \([^)]*\)/, KIND_CHECK);
    if (widened === table.sql) throw new Error("email_outbox's kind check was not found");
    await sql.raw(widened.replace(/^CREATE TABLE\s+"?email_outbox"?/i, 'CREATE TABLE "email_outbox_new"')).execute(trx);
    await sql`insert into email_outbox_new select * from email_outbox`.execute(trx);
    // Nothing refers to the outbox by foreign key, so dropping it deletes nothing else.
    await sql`drop table email_outbox`.execute(trx);
    await sql`alter table email_outbox_new rename to email_outbox`.execute(trx);
    for (const index of rows.filter((row) => row.type === "index" && row.sql)) await sql.raw(index.sql!).execute(trx);
  };
  if (db.isTransaction) await rebuild(db);
  else await db.transaction().execute(rebuild);
}
