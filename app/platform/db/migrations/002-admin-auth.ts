import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/** Admin accounts, their server-side sessions, and the events that rate limits count. */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  const now = dialect === "postgres" ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

  await db.schema
    .createTable("admin_users")
    .addColumn("id", "text", (col) => col.primaryKey())
    // Stored trimmed and lower-cased, so the unique index is case-insensitive on both backends.
    .addColumn("email", "text", (col) => col.notNull().unique())
    .addColumn("password_hash", "text", (col) => col.notNull())
    .addColumn("created_at", timestamp, (col) => col.notNull().defaultTo(now))
    .addColumn("updated_at", timestamp, (col) => col.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable("admin_sessions")
    // SHA-256 of the cookie's token: a copy of the database does not hand out sessions.
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("admin_id", "text", (col) => col.notNull().references("admin_users.id").onDelete("cascade"))
    .addColumn("created_at", timestamp, (col) => col.notNull())
    .addColumn("last_seen_at", timestamp, (col) => col.notNull())
    .addColumn("expires_at", timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("admin_sessions_admin_idx").on("admin_sessions").column("admin_id").execute();
  await db.schema.createIndex("admin_sessions_expires_idx").on("admin_sessions").column("expires_at").execute();

  await db.schema
    .createTable("rate_limit_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    // What is limited ("login-failure", "login-lockout", …) and for whom (an e-mail, an IP and e-mail, …).
    .addColumn("bucket", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("created_at", timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_events_lookup_idx").on("rate_limit_events").columns(["bucket", "subject", "created_at"]).execute();
  await db.schema.createIndex("rate_limit_events_created_idx").on("rate_limit_events").column("created_at").execute();
}
