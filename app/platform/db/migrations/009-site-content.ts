import { sql, type Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * The company's own site (issue 15, docs/decisions/027): every publish is a
 * version, kept with who published it and when; the one draft being edited
 * carries a revision, so a save based on an older draft is refused. The live
 * site is the newest version (none yet: the specification's texts).
 * Publishing writes site_versions, so it moves the public data version like
 * any write to a public table (migration 005), in the same transaction.
 * site_schedule holds a publish set for a date and time.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  await db.schema
    .createTable("site_versions")
    .addColumn("number", "integer", (col) => col.primaryKey())
    // The whole content as JSON text (app/website/content.ts SiteContent).
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("published_at", timestamp, (col) => col.notNull())
    .addColumn("published_by", "text", (col) => col.notNull())
    // Null for a publish of the draft; the version it brought back for a restore.
    .addColumn("restored_from", "integer")
    .execute();

  await db.schema
    .createTable("site_draft")
    .addColumn("id", "integer", (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn("content", "text", (col) => col.notNull())
    // Goes up with every save; a save names the revision it was based on.
    .addColumn("revision", "integer", (col) => col.notNull())
    .addColumn("updated_at", timestamp, (col) => col.notNull())
    .addColumn("updated_by", "text", (col) => col.notNull())
    .execute();

  // A publish set for a date and time: the draft as it was when scheduled. done_at marks it taken.
  await db.schema
    .createTable("site_schedule")
    .addColumn("id", dialect === "postgres" ? "serial" : "integer", (col) => (dialect === "postgres" ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("revision", "integer", (col) => col.notNull())
    .addColumn("publish_at", timestamp, (col) => col.notNull())
    .addColumn("scheduled_by", "text", (col) => col.notNull())
    .addColumn("created_at", timestamp, (col) => col.notNull())
    .addColumn("done_at", timestamp)
    .execute();

  if (dialect === "postgres") {
    await sql`
      create trigger site_versions_public_data_version
      after insert or update or delete or truncate on site_versions
      for each statement execute function bump_public_data_version()`.execute(db);
    return;
  }
  for (const event of ["insert", "update", "delete"]) {
    await sql`
      create trigger ${sql.id(`site_versions_${event}_public_data_version`)}
      after ${sql.raw(event)} on site_versions
      begin
        update public_data_version set version = version + 1 where id = 1;
      end`.execute(db);
  }
}
