import type { Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * What an admin is told at sign-in: when they last signed in, and how many
 * failed attempts were made on their account since (docs/decisions/018).
 * Each session keeps what was true when it began, so the dashboard says the
 * same thing on every page of that session.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const timestamp = timestampType(dialect);
  await db.schema.alterTable("admin_users").addColumn("last_sign_in_at", timestamp).execute();
  await db.schema
    .alterTable("admin_users")
    .addColumn("failed_sign_ins", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("admin_sessions").addColumn("previous_sign_in_at", timestamp).execute();
  await db.schema
    .alterTable("admin_sessions")
    .addColumn("failed_sign_ins_before", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
}
