import type { TestProject } from "vitest/node";
import { migrateToLatest, openDatabase } from "~/platform/db/db.server";
import { createPostgresDatabase } from "./postgres";
import { makeTempDir, removeTempDir } from "./temp";

/**
 * Runs once per `vitest run`: says which database and image storage backends
 * the integration tests cover, and migrates one database of each backend, so a
 * test's database is a copy of it (backends.ts, `createDatabase({ migrated: true })`)
 * rather than a new one migrated again. Removed when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.S3_BUCKET && process.env.S3_ENDPOINT) {
    console.log("Image storage tests: local disk and S3 (S3_BUCKET and S3_ENDPOINT are set).");
  } else {
    console.log('Image storage tests: local disk only. `eval "$(scripts/test-s3.sh start)"` starts an S3 server and sets S3_* to run them on S3 too.');
  }
  if (process.env.DATABASE_URL) {
    console.log("Integration tests: SQLite and PostgreSQL (DATABASE_URL is set).");
  } else {
    console.log(
      "Integration tests: SQLite only. Set DATABASE_URL=postgres://… (a role that may CREATE DATABASE) to run them against PostgreSQL too, and the fleet tests (several instances on one database); scripts/test-postgres.sh start prints one.",
    );
  }

  const dir = await makeTempDir("template");
  const sqlite = openDatabase({ dataDir: dir, databaseUrl: undefined });
  // Closed, the write-ahead log is checkpointed into the file and removed: copying the file copies the database.
  await migrateToLatest(sqlite).finally(() => sqlite.close());
  // Nobody may be connected to a template while it is copied: this connection closes before any test starts.
  const postgres = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;
  if (postgres) {
    const connection = openDatabase({ dataDir: dir, databaseUrl: postgres.url });
    await migrateToLatest(connection).finally(() => connection.close());
  }
  project.provide("migratedTemplates", { sqliteFile: `${dir}/app.sqlite`, postgresDatabase: postgres?.name });

  return async () => {
    await postgres?.drop();
    await removeTempDir(dir);
  };
}
