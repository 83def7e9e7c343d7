import { createHash } from "node:crypto";
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import { createAdmin } from "~/auth/admins.server";
import { createSession } from "~/auth/sessions.server";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import type { Enquiry } from "~/enquiries/schema";
import { IMAGE_NAMING } from "~/images/image-files";
import { migrateToLatest, type Database } from "~/platform/db/db.server";
import { MIGRATION_TABLES, TABLES } from "~/platform/db/schema";
import { LocalDiskStorage } from "~/platform/storage/storage.server";
import type { Backend, TestDatabase } from "./backends";
import { validEnquiry } from "./enquiries";
import { TEST_ACTOR } from "./actors";

/** Sites for the backup tests (tests/integration/backup*.test.ts), and what they compare. */
export type Site = { testDb: TestDatabase; database: Database; storage: LocalDiskStorage };

export const PASSWORD = "a long admin password";
export const ENQUIRY: Enquiry = { ...validEnquiry, userType: "landlord" };
/** A case runs the built CLI several times (a few seconds each on a busy machine), and may start a server. */
export const SLOW = 300_000;

/** Every row of every table (Kysely's own included), each table's rows in a stable order. */
export async function allRows(database: Database, except: readonly string[] = []): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  for (const table of [...TABLES, MIGRATION_TABLES[0]]) {
    if (except.includes(table)) continue;
    const { rows: found } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    rows[table] = found.map((row) => JSON.stringify(row)).sort();
  }
  return rows;
}

/**
 * The audit log's entries but those of the backup and restore commands: each
 * is written after its own work, so the backup holds neither.
 */
export async function auditBesidesCommands(database: Database): Promise<string[]> {
  const rows = await database.db.selectFrom("audit_log").selectAll().where("action", "not in", ["backup-made", "backup-restored"]).execute();
  return rows.map((row) => JSON.stringify(row)).sort();
}

export async function commandEntries(database: Database): Promise<string[]> {
  const rows = await database.db.selectFrom("audit_log").select("action").where("action", "in", ["backup-made", "backup-restored"]).orderBy("id").execute();
  return rows.map((row) => row.action);
}

/** Every object of the bucket: name → SHA-256 of its bytes, read through the bucket's interface. */
export async function allImages(storage: LocalDiskStorage): Promise<Map<string, string>> {
  const images = new Map<string, string>();
  for (let offset = 0; ; offset += 100) {
    const page = await storage.list({ limit: 100, offset });
    for (const object of page)
      images.set(
        object.name,
        createHash("sha256")
          .update((await storage.read(object.name))!)
          .digest("hex"),
      );
    if (page.length < 100) break;
  }
  return images;
}

/** What a refused restore must leave as it was. */
export async function siteState(site: Site) {
  return { rows: await allRows(site.database), images: await allImages(site.storage) };
}

/** Every table, view, index, trigger (and on PostgreSQL function) of the database, by kind and name. */
export async function schemaObjects(database: Database): Promise<string[]> {
  const query =
    database.dialect === "sqlite"
      ? sql<{ object: string }>`select type || ' ' || name as object from sqlite_master`
      : sql<{ object: string }>`
          select 'table ' || table_name as object from information_schema.tables where table_schema = current_schema()
          union all select 'index ' || indexname from pg_indexes where schemaname = current_schema()
          union all select 'trigger ' || tgname from pg_trigger where not tgisinternal
          union all select 'function ' || proname from pg_proc where pronamespace = current_schema()::regnamespace`;
  return (await query.execute(database.db)).rows.map((row) => row.object).sort();
}

/** New sites of one backend, all removed by `cleanup`. */
export function sitesOf(backend: Backend) {
  const sites: Site[] = [];
  /**
   * `migratedHere`: migrated now rather than copied from the run's migrated
   * database, so its migration history (kysely_migration's times) is its own
   * and a restore into a copied site has to carry it over to compare equal.
   */
  async function newSite({ migratedHere = false } = {}): Promise<Site> {
    const testDb = await backend.createDatabase({ migrated: !migratedHere });
    const database = testDb.open();
    if (migratedHere) await migrateToLatest(database);
    const site = { testDb, database, storage: new LocalDiskStorage(path.join(testDb.env.DATA_DIR, "images"), IMAGE_NAMING) };
    sites.push(site);
    return site;
  }
  return {
    newSite,
    /** A site in use: an admin signed in, an enquiry and an upload. */
    async siteInUse(): Promise<Site> {
      const site = await newSite();
      const admin = await createAdmin(site.database.db, "other@example.com", PASSWORD, TEST_ACTOR);
      await createSession(site.database.db, admin.id);
      await saveEnquiry(site.database.db, { ...ENQUIRY, message: "Already here before the restore." }, { mail: undefined, company: PLACEHOLDER_COMPANY });
      // An upload no project uses yet: what a refused restore must leave in the bucket.
      await site.storage.put("1700000000000-alreadyhere1.jpg", new TextEncoder().encode("an upload"), { contentType: "image/jpeg" });
      return site;
    },
    async cleanup(): Promise<void> {
      for (const site of sites) await site.testDb.cleanup();
    },
  };
}

/**
 * A copy of an unsealed backup at `to`, its rows (database.jsonl, line by
 * line) changed by `edit`, and its manifest rewritten to match, as someone
 * who can write where backups are kept would: the rows' counts, each table's
 * end line, the file's size and SHA-256.
 */
export async function rewriteBackup(from: string, to: string, edit: (lines: string[]) => string[]): Promise<void> {
  await cp(from, to, { recursive: true });
  const rowsFile = path.join(to, "database.jsonl");
  const lines = edit((await readFile(rowsFile, "utf8")).split("\n").filter((line) => line !== ""));
  const counts: Record<string, number> = {};
  let table: string | undefined;
  const recounted = lines.map((line) => {
    const value = JSON.parse(line);
    if (Array.isArray(value)) counts[table!] = (counts[table!] ?? 0) + 1;
    else if ("table" in value) {
      table = value.table as string;
      counts[table] = 0;
    } else if ("end" in value) return JSON.stringify({ end: value.end, rows: counts[value.end] });
    return line;
  });
  const text = `${recounted.join("\n")}\n`;
  await writeFile(rowsFile, text);
  const manifest = JSON.parse(await readFile(path.join(to, "manifest.json"), "utf8"));
  delete counts.kysely_migration;
  manifest.database.counts = counts;
  manifest.database.bytes = Buffer.byteLength(text);
  manifest.database.sha256 = createHash("sha256").update(text).digest("hex");
  await writeFile(path.join(to, "manifest.json"), JSON.stringify(manifest, null, 2));
}

/** Lines of a table section, as the backup writes them. */
export function tableSection(table: string, columns: Array<[string, string]>, rows: unknown[][]): string[] {
  return [
    JSON.stringify({ table, columns: columns.map(([name, type]) => ({ name, type })) }),
    ...rows.map((row) => JSON.stringify(row)),
    JSON.stringify({ end: table, rows: rows.length }),
  ];
}
