import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * Ways to sign in besides the password, and what a member sees of their
 * sessions (issue 21, docs/decisions/043): password resets by e-mail, TOTP
 * with recovery codes, passkeys, the pending state between the password and
 * the code, where each session was signed in from, and the owners' policy.
 * Comes after 012 (roles, invitations, the audit log), whose outbox it uses.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  const now = dialect === "postgres" ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const member = "admin_users.id";

  // "Chrome 131" on "Windows 10", from the User-Agent at sign-in, and the client address it came from.
  for (const column of ["browser", "system", "client_ip"]) {
    await db.schema.alterTable("admin_sessions").addColumn(column, "text").execute();
  }

  // Migration 012 made the outbox take "password-reset" jobs (and rebuilt it on SQLite to do so): only
  // this column is new. A job not sent by then is not sent, and is deleted (a reset request is worth
  // 30 minutes). Adding a column rebuilds nothing, so 012's columns and indexes stay as they are, and
  // this runs as it is inside a restore's one transaction (decision 040).
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
