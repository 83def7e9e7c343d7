import type { Kysely } from "kysely";
import { Migrator, type Migration } from "kysely/migration";
import type { Database } from "~/platform/db/db.server";
import { migrations } from "~/platform/db/migrations";

/**
 * Migrates a new database as a site that ran every migration before
 * `first` (a name's prefix, "013") and none from it: where a migration's own
 * test starts, to write rows as the code before it did.
 */
export async function migrateBefore(database: Database, first: string): Promise<void> {
  const before = Object.fromEntries(
    Object.entries(migrations)
      .filter(([name]) => name < first)
      .map(([name, migration]): [string, Migration] => [name, { up: (db: Kysely<unknown>) => migration.up(db, database.dialect) }]),
  );
  const { error } = await new Migrator({ db: database.db, provider: { getMigrations: async () => before } }).migrateToLatest();
  if (error) throw error;
}
