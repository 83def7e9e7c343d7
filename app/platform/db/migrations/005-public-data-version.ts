import { sql, type Kysely } from "kysely";
import type { MigrationDialect } from "./types";

/**
 * The tables the public pages show (renovation_projects, and images for their
 * srcset). A table a public page starts to read must get the same triggers.
 */
export const PUBLIC_TABLES = ["renovation_projects", "images"] as const;

/**
 * One number that changes with every write to the public tables, whoever
 * makes it (this server, another instance, `npm run admin`, hand-written SQL):
 * triggers bump it in the writing transaction, so it is committed with the
 * change itself. Cached public responses check it instead of querying the
 * projects again (docs/decisions/016-public-pages-served-ahead-of-react-router.md).
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .createTable("public_data_version")
    .addColumn("id", "integer", (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn("version", "bigint", (col) => col.notNull())
    .execute();
  await sql`insert into public_data_version (id, version) values (1, 0)`.execute(db);

  if (dialect === "postgres") {
    await sql`
      create function bump_public_data_version() returns trigger language plpgsql as $$
      begin
        update public_data_version set version = version + 1 where id = 1;
        return null;
      end
      $$`.execute(db);
    // Once per statement, after it. The version row stays locked until the
    // writing transaction ends, so writes to public tables commit one at a
    // time; a transaction that writes several public rows locks them before
    // its first write (as moveProject does), or two could deadlock.
    for (const table of PUBLIC_TABLES) {
      await sql`
        create trigger ${sql.id(`${table}_public_data_version`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function bump_public_data_version()`.execute(db);
    }
    return;
  }
  // SQLite has row triggers only; one write transaction runs at a time anyway.
  for (const table of PUBLIC_TABLES) {
    for (const event of ["insert", "update", "delete"]) {
      await sql`
        create trigger ${sql.id(`${table}_${event}_public_data_version`)}
        after ${sql.raw(event)} on ${sql.table(table)}
        begin
          update public_data_version set version = version + 1 where id = 1;
        end`.execute(db);
    }
  }
}
