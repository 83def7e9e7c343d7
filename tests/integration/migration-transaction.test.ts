/**
 * All pending migrations run in one transaction, on SQLite as on PostgreSQL
 * (decision 080): a migration that fails leaves the database as it was, never
 * half-migrated, and the next start migrates it whole.
 */
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrateToLatest, type Database } from "~/platform/db/db.server";
import { migrations } from "~/platform/db/migrations";
import type { AppMigration } from "~/platform/db/migrations/types";
import { createProject, listActiveProjects } from "~/projects/projects.server";
import { TEST_ACTOR } from "../support/actors";
import { backends, type TestDatabase } from "../support/backends";

const ALL_MIGRATIONS = Object.keys(migrations);

/** Our migrations, then one that makes a table and one that alters a table and fails. */
const FAILING: Record<string, AppMigration> = {
  ...migrations,
  "998-makes-a-table": { up: (db) => db.schema.createTable("made_before_the_failure").addColumn("id", "text").execute() },
  "999-fails-half-way": {
    async up(db) {
      await db.schema.alterTable("contact_submissions").addColumn("half_done", "text").execute();
      throw new Error("failed on purpose");
    },
  },
};

const tableNames = async (database: Database) => (await database.db.introspection.getTables()).map((table) => table.name).sort();
const columnsOf = async (database: Database, name: string) =>
  (await database.db.introspection.getTables()).find((table) => table.name === name)?.columns.map((column) => column.name);

async function appliedMigrations(database: Database): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
  return rows.map((row) => row.name);
}

describe.each(backends)("migrations on $name", (backend) => {
  const created: TestDatabase[] = [];
  afterEach(async () => {
    await Promise.all(created.splice(0).map((database) => database.cleanup()));
  });

  async function database(options: { migrated: boolean }): Promise<Database> {
    const testDatabase = await backend.createDatabase(options);
    created.push(testDatabase);
    return testDatabase.open();
  }

  it("leave a database as it was when one of them fails: all pending ones are applied, or none", async () => {
    const migrated = await database({ migrated: true });
    const tables = await tableNames(migrated);
    const columns = await columnsOf(migrated, "contact_submissions");
    await expect(migrateToLatest(migrated, { list: FAILING })).rejects.toThrow("Database migration 999-fails-half-way failed: failed on purpose");
    expect(await tableNames(migrated)).toEqual(tables);
    expect(await columnsOf(migrated, "contact_submissions")).toEqual(columns);
    expect(await appliedMigrations(migrated)).toEqual(ALL_MIGRATIONS);
    // And the database works as before.
    await createProject(
      migrated.db,
      {
        title: "After The Failure",
        category: "Kitchen Renovation",
        description: "Still saved after a failed migration.",
        duration: "3 weeks",
        budget: "£15,000",
        before_image_url: "/samples/kitchen-before.svg",
        after_image_url: "/samples/kitchen-after.svg",
      },
      TEST_ACTOR,
    );
    expect((await listActiveProjects(migrated.db)).map((project) => project.title)).toEqual(["After The Failure"]);
  });

  it("leave a new database without any of our tables when one of them fails, and migrate it whole next time", async () => {
    const fresh = await database({ migrated: false });
    await expect(migrateToLatest(fresh, { list: FAILING })).rejects.toThrow("999-fails-half-way");
    // Only the migrator's own bookkeeping (made before its transaction, not listed here), and no migration recorded.
    expect(await tableNames(fresh)).toEqual([]);
    expect(await appliedMigrations(fresh)).toEqual([]);
    expect(await migrateToLatest(fresh)).toEqual(ALL_MIGRATIONS);
  });
});
