import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * Ways to sign in besides the password, and what a member sees of their
 * sessions (issue 21, docs/decisions/043): password resets by e-mail, TOTP
 * with recovery codes, passkeys, the pending state between the password and
 * the code, and where each session was signed in from.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  const now = dialect === "postgres" ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const member = "admin_users.id";

  // "Chrome 131" on "Windows 10", from the User-Agent at sign-in, and the client address it came from.
  for (const column of ["browser", "system", "client_ip"]) {
    await db.schema.alterTable("admin_sessions").addColumn(column, "text").execute();
  }

  await allowEveryOutboxKind(db, dialect);
  // A job not sent by then is not sent, and is deleted (a password-reset request is worth 30 minutes).
  await db.schema.alterTable("email_outbox").addColumn("expires_at", timestamp).execute();

  await db.schema
    .createTable("password_resets")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("admin_id", "text", (col) => col.notNull().references(member).onDelete("cascade"))
    // SHA-256 of the link's token; the token itself is only ever in the e-mail.
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn("requested_ip", "text")
    .addColumn("created_at", timestamp, (col) => col.notNull())
    .addColumn("expires_at", timestamp, (col) => col.notNull())
    .addColumn("used_at", timestamp)
    .execute();
  await db.schema.createIndex("password_resets_admin_idx").on("password_resets").column("admin_id").execute();

  await db.schema
    .createTable("totp_factors")
    .addColumn("admin_id", "text", (col) => col.primaryKey().references(member).onDelete("cascade"))
    // AES-256-GCM of the base32 secret (app/auth/totp.server.ts): the one in use, and one being set up.
    .addColumn("secret", "text")
    .addColumn("confirmed_at", timestamp)
    .addColumn("pending_secret", "text")
    .addColumn("pending_created_at", timestamp)
    // The last time step a code was accepted for: no code of it, or before it, is taken again.
    .addColumn("last_used_step", "bigint")
    .execute();

  await db.schema
    .createTable("recovery_codes")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("admin_id", "text", (col) => col.notNull().references(member).onDelete("cascade"))
    .addColumn("code_hash", "text", (col) => col.notNull().unique())
    .addColumn("created_at", timestamp, (col) => col.notNull())
    .addColumn("used_at", timestamp)
    .execute();
  await db.schema.createIndex("recovery_codes_admin_idx").on("recovery_codes").column("admin_id").execute();

  await db.schema
    .createTable("passkeys")
    // The credential id, base64url, as the authenticator gave it.
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("admin_id", "text", (col) => col.notNull().references(member).onDelete("cascade"))
    // COSE public key, base64url.
    .addColumn("public_key", "text", (col) => col.notNull())
    .addColumn("counter", "bigint", (col) => col.notNull().defaultTo(0))
    // JSON array of transports ("internal", "hybrid", "usb", …).
    .addColumn("transports", "text", (col) => col.notNull().defaultTo("[]"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("backed_up", "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("created_at", timestamp, (col) => col.notNull().defaultTo(now))
    .addColumn("last_used_at", timestamp)
    .execute();
  await db.schema.createIndex("passkeys_admin_idx").on("passkeys").column("admin_id").execute();

  await db.schema
    .createTable("webauthn_challenges")
    .addColumn("challenge", "text", (col) => col.primaryKey())
    .addColumn("purpose", "text", (col) => col.notNull().check(sql`purpose in ('registration', 'authentication')`))
    // Registration: the member adding a passkey. Authentication: null (the passkey names its member).
    .addColumn("admin_id", "text", (col) => col.references(member).onDelete("cascade"))
    .addColumn("rp_id", "text", (col) => col.notNull())
    .addColumn("origin", "text", (col) => col.notNull())
    .addColumn("expires_at", timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("pending_sign_ins")
    // SHA-256 of the token in the pending cookie: the password was right, the code is still to come.
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("admin_id", "text", (col) => col.notNull().references(member).onDelete("cascade"))
    .addColumn("created_at", timestamp, (col) => col.notNull())
    .addColumn("expires_at", timestamp, (col) => col.notNull())
    .addColumn("failed_codes", "integer", (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("sign_in_policy")
    .addColumn("id", "integer", (col) => col.primaryKey())
    // An owner's choice: every member signs in with a second step (TOTP) or a passkey.
    .addColumn("second_factor_required", "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("updated_at", timestamp)
    .addColumn("updated_by", "text")
    .execute();
  await sql`insert into sign_in_policy (id, second_factor_required) values (1, ${dialect === "postgres" ? sql`false` : sql`0`})`.execute(db);
}

/**
 * email_outbox.kind was checked against the two enquiry e-mails; the outbox
 * now carries other kinds too (password resets here, invitations on another
 * branch), so the check goes and OutboxKind in schema.ts is the list.
 * PostgreSQL drops the constraint by what it checks, whatever its name; SQLite
 * cannot drop a constraint, so the table is made again from its own stored
 * definition less the check (every column kept, whichever migration added it).
 */
async function allowEveryOutboxKind(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect === "postgres") {
    const { rows } = await sql<{ name: string }>`
      select conname as name from pg_constraint
      where conrelid = 'email_outbox'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%kind%'`.execute(db);
    for (const { name } of rows) await sql`alter table email_outbox drop constraint ${sql.id(name)}`.execute(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ type: string; sql: string | null }>`
      select type, sql from sqlite_master where tbl_name = 'email_outbox' and sql is not null`.execute(trx);
    const table = rows.find((row) => row.type === "table")?.sql;
    if (!table) throw new Error("email_outbox is missing");
    const withoutCheck = table.replace(/\s+check\s*\(\s*"?kind"?\s+in\s*\([^)]*\)\s*\)/i, "");
    if (withoutCheck === table) return;
    const created = withoutCheck.replace(/^create table\s+("?email_outbox"?)/i, 'create table "email_outbox_rebuilt"');
    await sql.raw(created).execute(trx);
    await sql`insert into email_outbox_rebuilt select * from email_outbox`.execute(trx);
    await sql`drop table email_outbox`.execute(trx);
    await sql`alter table email_outbox_rebuilt rename to email_outbox`.execute(trx);
    for (const other of rows.filter((row) => row.type !== "table")) await sql.raw(other.sql!).execute(trx);
  });
}
