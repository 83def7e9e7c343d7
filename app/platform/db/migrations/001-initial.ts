import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  const now = dialect === "postgres" ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

  await db.schema
    .createTable("renovation_projects")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("category", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("duration", "text", (col) => col.notNull())
    .addColumn("budget", "text", (col) => col.notNull())
    .addColumn("before_image_url", "text", (col) => col.notNull())
    .addColumn("after_image_url", "text", (col) => col.notNull())
    .addColumn("is_active", "boolean", (col) => col.notNull().defaultTo(true))
    .addColumn("display_order", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (col) => col.notNull().defaultTo(now))
    .addColumn("updated_at", timestamp, (col) => col.notNull().defaultTo(now))
    .execute();
  // The public gallery: active projects in display order.
  await db.schema.createIndex("renovation_projects_active_order_idx").on("renovation_projects").columns(["is_active", "display_order"]).execute();
  // The admin list: every project in display order.
  await db.schema.createIndex("renovation_projects_order_idx").on("renovation_projects").column("display_order").execute();

  await db.schema
    .createTable("contact_submissions")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("phone", "text")
    .addColumn("user_type", "text", (col) => col.notNull().check(sql`user_type in ('landlord', 'tenant', 'investor', 'other')`))
    .addColumn("message", "text", (col) => col.notNull())
    .addColumn("is_read", "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("created_at", timestamp, (col) => col.notNull().defaultTo(now))
    .execute();
  // The inbox: newest first, optionally filtered by read state.
  await db.schema.createIndex("contact_submissions_created_idx").on("contact_submissions").column("created_at").execute();
  await db.schema.createIndex("contact_submissions_read_created_idx").on("contact_submissions").columns(["is_read", "created_at"]).execute();
}
