import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * The gallery's images: what the upload stored for each file (its size and
 * resized copies, which the landing page's `srcset` needs), and alt text per
 * project image (null: "Before: <title>" / "After: <title>").
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  const now = dialect === "postgres" ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

  await db.schema
    .createTable("images")
    // The file name in the bucket, `<timestamp>-<random>.<ext>`; the URL is /images/<name>.
    .addColumn("name", "text", (col) => col.primaryKey())
    .addColumn("content_type", "text", (col) => col.notNull())
    .addColumn("width", "integer", (col) => col.notNull())
    .addColumn("height", "integer", (col) => col.notNull())
    .addColumn("bytes", "integer", (col) => col.notNull())
    // JSON: [{ name, width, height, format }] of the WebP and AVIF copies.
    .addColumn("variants", "text", (col) => col.notNull())
    .addColumn("created_at", timestamp, (col) => col.notNull().defaultTo(now))
    .execute();

  await db.schema.alterTable("renovation_projects").addColumn("before_image_alt", "text").execute();
  await db.schema.alterTable("renovation_projects").addColumn("after_image_alt", "text").execute();
  // "Is this image still used?" before a file is removed.
  await db.schema.createIndex("renovation_projects_before_image_idx").on("renovation_projects").column("before_image_url").execute();
  await db.schema.createIndex("renovation_projects_after_image_idx").on("renovation_projects").column("after_image_url").execute();
}
