import { copyFile } from "node:fs/promises";
import path from "node:path";
import { inject } from "vitest";
import { openDatabase, type Database, type DatabaseOptions } from "~/platform/db/db.server";
import { createPostgresDatabase, postgresAdminUrl } from "./postgres";
import { makeTempDir, removeTempDir } from "./temp";

/** One database of a backend, for one test or one spawned server. */
export type TestDatabase = {
  /** What openDatabase takes. */
  options: DatabaseOptions;
  /** What the server's environment needs to use this database. */
  env: { DATA_DIR: string; DATABASE_URL?: string };
  /** The SQLite file, when the backend is SQLite. */
  sqliteFile?: string;
  /** Opens a connection of its own (close it, or let cleanup close it). */
  open(): Database;
  /** Closes what open() opened and deletes the database and its temp dir. */
  cleanup(): Promise<void>;
  /** PostgreSQL only: drops the database while the app may still be using it. */
  dropNow?: () => Promise<void>;
};

export type CreateDatabaseOptions = {
  /**
   * A copy of the database global-setup.ts migrated once for the whole run
   * (a file copy on SQLite, CREATE DATABASE … TEMPLATE on PostgreSQL), so the
   * schema is the latest without running every migration again. Without it,
   * an empty database: for tests of the migrations themselves.
   */
  migrated?: boolean;
};

export type Backend = {
  name: "sqlite" | "postgres";
  createDatabase(options?: CreateDatabaseOptions): Promise<TestDatabase>;
};

/** The migrated databases of this run (tests/support/global-setup.ts). */
export type MigratedTemplates = { sqliteFile: string; postgresDatabase: string | undefined };

declare module "vitest" {
  export interface ProvidedContext {
    migratedTemplates: MigratedTemplates;
  }
}

function templates(): MigratedTemplates {
  const provided = inject("migratedTemplates");
  if (!provided) throw new Error("No migrated template: run the tests through vitest.config.ts (its global setup makes one)");
  return provided;
}

function tracked(options: DatabaseOptions, extra: () => Promise<void>) {
  const opened: Database[] = [];
  return {
    open() {
      const database = openDatabase(options);
      opened.push(database);
      return database;
    },
    async cleanup() {
      // Closing twice is harmless; a test may have closed one already.
      await Promise.allSettled(opened.map((database) => database.close()));
      await extra();
    },
  };
}

const sqlite: Backend = {
  name: "sqlite",
  async createDatabase({ migrated = false } = {}) {
    const dir = await makeTempDir("sqlite");
    const options = { dataDir: dir, databaseUrl: undefined };
    const sqliteFile = path.join(dir, "app.sqlite");
    // The template was closed cleanly (its write-ahead log checkpointed and gone): the file is the whole database.
    if (migrated) await copyFile(templates().sqliteFile, sqliteFile);
    return {
      options,
      env: { DATA_DIR: dir },
      sqliteFile,
      ...tracked(options, () => removeTempDir(dir)),
    };
  },
};

const postgres: Backend = {
  name: "postgres",
  async createDatabase({ migrated = false } = {}) {
    const dir = await makeTempDir("pg");
    const database = await createPostgresDatabase({ template: migrated ? templates().postgresDatabase : undefined });
    const options = { dataDir: dir, databaseUrl: database.url };
    return {
      options,
      env: { DATA_DIR: dir, DATABASE_URL: database.url },
      dropNow: database.drop,
      ...tracked(options, async () => {
        await database.drop();
        await removeTempDir(dir);
      }),
    };
  },
};

/**
 * The backends the integration tests run against: SQLite always, PostgreSQL
 * when DATABASE_URL is set (the global setup says which, once).
 */
export const backends: Backend[] = postgresAdminUrl ? [sqlite, postgres] : [sqlite];
