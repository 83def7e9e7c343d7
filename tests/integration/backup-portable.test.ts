/**
 * One backup format for both databases (decision 040): a backup of a site on
 * SQLite restores into a site on PostgreSQL, and a backup of that back into
 * SQLite, every row the same (timestamps, booleans and numbers as each
 * database keeps them), and the ids a counter handed out are not handed out
 * again. Runs where PostgreSQL is set up.
 */
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "~/auth/admins.server";
import { createSession } from "~/auth/sessions.server";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import type { Database } from "~/platform/db.server";
import { MIGRATION_TABLES, TABLES } from "~/platform/schema";
import { createSecrets } from "~/platform/secrets.server";
import { siteDefaults } from "~/website/content";
import { publishContent } from "~/website/website.server";
import { runAdmin } from "../support/admin-cli";
import { backends } from "../support/backends";
import { ENQUIRY, PASSWORD, SLOW, allImages, sitesOf } from "../support/backup-sites";
import { assertBuilt } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";

/** Every row of every table but the sessions and the data version, as both databases would show it. */
async function portableRows(database: Database): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  for (const table of [...TABLES, MIGRATION_TABLES[0]]) {
    if (table === "admin_sessions" || table === "public_data_version") continue;
    const { rows: found } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    rows[table] = found
      .map((row) => JSON.stringify(Object.values(row).map((value) => (value instanceof Date ? value.toISOString() : typeof value === "boolean" ? Number(value) : value))))
      .sort();
  }
  return rows;
}

async function schedule(database: Database, by: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    insert into site_schedule (content, revision, publish_at, scheduled_by, created_at)
    values ('{}', 1, ${new Date("2027-01-01T09:00:00.000Z").toISOString()}, ${by}, ${new Date().toISOString()}) returning id`.execute(database.db);
  return rows[0]!.id;
}

describe.each(backends.filter((backend) => backend.name === "postgres"))("a backup moves between SQLite and $name", (postgres) => {
  const onSqlite = sitesOf(backends.find((backend) => backend.name === "sqlite")!);
  const onPostgres = sitesOf(postgres);
  let backups: string;

  beforeAll(async () => {
    assertBuilt();
    backups = await makeTempDir("portable");
  });
  afterAll(async () => {
    await onSqlite.cleanup();
    await onPostgres.cleanup();
    await removeTempDir(backups);
  }, SLOW);

  it("restores a SQLite site's backup into PostgreSQL, and that site's backup into SQLite, every row the same", async () => {
    const source = await onSqlite.newSite();
    const { db } = source.database;
    expect((await runAdmin(source.testDb.env, ["seed-demo"])).code).toBe(0);
    const admin = await createAdmin(db, "owner@example.com", PASSWORD);
    await createSession(db, admin.id);
    const mail = { mail: { from: "Website <website@example.com>", notifyTo: ["office@example.com"], acknowledge: true }, company: PLACEHOLDER_COMPANY };
    await saveEnquiry(db, ENQUIRY, mail);
    await saveEnquiry(db, { ...ENQUIRY, message: "Cheap links" }, { ...mail, verdict: { kind: "spam", signals: ["links"] } });
    await createSecrets(db).key("form-token");
    await publishContent(db, { content: JSON.stringify(siteDefaults()), by: "owner@example.com", now: new Date() });
    // Two publishes scheduled, the second taken back: its id is not handed out again.
    await schedule(source.database, "owner@example.com");
    const taken = await schedule(source.database, "owner@example.com");
    await sql`delete from site_schedule where id = ${taken}`.execute(db);

    const fromSqlite = path.join(backups, "from-sqlite");
    const made = await runAdmin(source.testDb.env, ["backup", fromSqlite]);
    expect(made.code, made.stderr).toBe(0);
    const onPg = await onPostgres.newSite();
    const restored = await runAdmin(onPg.testDb.env, ["restore", fromSqlite]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await portableRows(onPg.database)).toEqual(await portableRows(source.database));
    expect(await allImages(onPg.storage)).toEqual(await allImages(source.storage));
    expect(await schedule(onPg.database, "after the move")).toBe(taken + 1);

    const fromPostgres = path.join(backups, "from-postgres");
    expect((await runAdmin(onPg.testDb.env, ["backup", fromPostgres])).code).toBe(0);
    const back = await onSqlite.newSite();
    const restoredBack = await runAdmin(back.testDb.env, ["restore", fromPostgres]);
    expect(restoredBack.code, restoredBack.stderr).toBe(0);
    expect(await portableRows(back.database)).toEqual(await portableRows(onPg.database));
    expect(await schedule(back.database, "back again")).toBe(taken + 2);
  }, SLOW);
});
