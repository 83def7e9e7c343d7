import { sql } from "kysely";
import type { Db } from "./db.server";

/**
 * The version of the data public pages show: it changes in the same
 * transaction as every write to those tables (migration 005's triggers). A
 * response built after reading version n shows data at least as new as n, so
 * it may be reused for as long as the version still reads n.
 */
export async function publicDataVersion(db: Db): Promise<number> {
  const { rows } = await sql<{ version: number | string }>`select version from public_data_version where id = 1`.execute(db);
  const version = rows[0]?.version;
  if (version === undefined) throw new Error("public_data_version has no row: the database is not migrated");
  return Number(version);
}
