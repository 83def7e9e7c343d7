import { openDatabase, type Database, type DatabaseOptions } from "~/platform/db/db.server";
import { createPostgresDatabase, postgresAdminUrl } from "./postgres";
import { makeTempDir, removeTempDir } from "./temp";

/** One empty database of a backend, for one test or one spawned server. */
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

export type Backend = {
  name: "sqlite" | "postgres";
  createDatabase(): Promise<TestDatabase>;
};

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
  async createDatabase() {
    const dir = await makeTempDir("sqlite");
    const options = { dataDir: dir, databaseUrl: undefined };
    return {
      options,
      env: { DATA_DIR: dir },
      sqliteFile: `${dir}/app.sqlite`,
      ...tracked(options, () => removeTempDir(dir)),
    };
  },
};

const postgres: Backend = {
  name: "postgres",
  async createDatabase() {
    const dir = await makeTempDir("pg");
    const database = await createPostgresDatabase();
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
