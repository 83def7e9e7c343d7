import type { Kysely } from "kysely";

export type MigrationDialect = "sqlite" | "postgres";

export type AppMigration = {
  up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void>;
};

/** Real timestamps in PostgreSQL; ISO 8601 text (which sorts correctly) in SQLite. */
export function timestampType(dialect: MigrationDialect) {
  return dialect === "postgres" ? "timestamptz" : "text";
}
