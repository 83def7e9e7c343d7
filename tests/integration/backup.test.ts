/**
 * `npm run admin -- backup | verify-backup | restore` (issue 16), on each
 * backend, through the built CLI as an operator runs it: a site with
 * projects, images, enquiries (and their e-mails), an admin with two-step
 * sign-in, a passkey and a reset link, a session, a secret and published
 * content is backed up while its server runs, restored
 * into an empty site, and compared row by row and byte by byte. A newer
 * schema, a changed byte, a running site and rows the schema refuses are each
 * refused with nothing changed. Where PostgreSQL is set up, a SQLite site's
 * backup restores into PostgreSQL and back, every row the same (one format
 * for both, decision 040). What an attacker can do to a backup, and sealed
 * backups: backup-tampering.test.ts.
 */
import { cp, readFile, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "~/auth/admins.server";
import { createSession } from "~/auth/sessions.server";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { countSubmissions, listSubmissions } from "~/enquiries/inbox.server";
import { publicDataVersion } from "~/platform/db/data-version.server";
import type { Database } from "~/platform/db/db.server";
import { migrations } from "~/platform/db/migrations";
import { MIGRATION_TABLES, TABLES } from "~/platform/db/schema";
import { createSecrets } from "~/platform/db/secrets.server";
import { siteDefaults } from "~/website/content";
import { publishContent } from "~/website/website.server";
import { runAdmin } from "../support/admin-cli";
import { backends } from "../support/backends";
import { freshCounts, keptCounts } from "../support/enquiry-counts";
import {
  ENQUIRY,
  PASSWORD,
  SLOW,
  allImages,
  allRows,
  auditBesidesCommands,
  commandEntries,
  rewriteBackup,
  siteState,
  sitesOf,
  type Site,
} from "../support/backup-sites";
import { assertBuilt, spawnServer, startServer } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";
import { sql } from "kysely";
import { TEST_ACTOR } from "../support/actors";
import { seedSignInFactors } from "../support/auth-domain";

/** The code's schema version: its last migration. */
const LATEST_MIGRATION = Object.keys(migrations).at(-1)!;

const MAIL = {
  mail: { from: "Website <website@example.com>", notifyTo: ["office@example.com"] },
  company: PLACEHOLDER_COMPANY,
};

async function sessionCount(database: Site["database"]): Promise<number> {
  return Number((await sql<{ n: number | string }>`select count(*) as n from admin_sessions`.execute(database.db)).rows[0]!.n);
}

describe.each(backends)("backup and restore on $name", (backend) => {
  const { newSite, siteInUse, cleanup } = sitesOf(backend);
  let backups: string;
  let source: Site;
  let backup: string;

  beforeAll(async () => {
    assertBuilt();
    backups = await makeTempDir("backups");
    source = await newSite({ migratedHere: true });
    const { db } = source.database;
    expect((await runAdmin(source.testDb.env, ["seed-demo"])).code).toBe(0);
    const admin = await createAdmin(db, "owner@example.com", PASSWORD, TEST_ACTOR);
    await seedSignInFactors(db, admin);
    await createSession(db, admin.id);
    await saveEnquiry(db, ENQUIRY, MAIL);
    await saveEnquiry(db, { ...ENQUIRY, name: "Ada Lovelace", email: "ada@example.com", phone: undefined, userType: "tenant" }, MAIL);
    await saveEnquiry(db, { ...ENQUIRY, message: "Cheap links" }, { ...MAIL, verdict: { kind: "spam", signals: ["links"] } });
    await createSecrets(db).key("form-token");
    await publishContent(db, { content: JSON.stringify(siteDefaults()), by: "owner@example.com", actor: TEST_ACTOR, now: new Date() });

    // Made while the site runs, as an operator would.
    backup = path.join(backups, "full");
    const server = await startServer(source.testDb.env);
    try {
      const made = await runAdmin(source.testDb.env, ["backup", backup]);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain("Backed up");
    } finally {
      await server.stop();
    }
  }, SLOW);

  afterAll(async () => {
    await cleanup();
    await removeTempDir(backups);
  }, SLOW);

  it(
    "writes the backup for the server's user only, and never over another backup",
    async () => {
      expect((await stat(backup)).mode & 0o777).toBe(0o700);
      expect((await stat(path.join(backup, "images"))).mode & 0o777).toBe(0o700);
      const files = [
        ...(await readdir(backup)).filter((name) => name !== "images"),
        ...(await readdir(path.join(backup, "images"))).map((name) => `images/${name}`),
      ];
      expect(files.length).toBeGreaterThan(3);
      for (const file of files) expect([file, (await stat(path.join(backup, file))).mode & 0o777]).toEqual([file, 0o600]);

      const manifestBefore = await readFile(path.join(backup, "manifest.json"), "utf8");
      const again = await runAdmin(source.testDb.env, ["backup", backup]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("already holds a backup");
      expect(await readFile(path.join(backup, "manifest.json"), "utf8")).toBe(manifestBefore);

      const manifest = JSON.parse(manifestBefore);
      expect(manifest.schemaVersion).toBe(LATEST_MIGRATION);
      expect(manifest.database.counts).toMatchObject({ renovation_projects: 3, contact_submissions: 3, admin_users: 1, admin_sessions: 0 });
      expect(manifest.images.count).toBe((await allImages(source.storage)).size);

      const verified = await runAdmin({}, ["verify-backup", backup]);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain("is a sound backup");
    },
    SLOW,
  );

  it(
    "restores into an empty site every row of every table and every image byte, ends the sessions and moves the data version on",
    async () => {
      const target = await newSite();
      const admin = await createAdmin(target.database.db, "someone@example.com", PASSWORD, TEST_ACTOR);
      await createSession(target.database.db, admin.id);
      const versionBefore = await publicDataVersion(target.database.db);
      // Replaced by the restore: its words must leave the inbox's search index too (decision 058).
      await saveEnquiry(target.database.db, { ...ENQUIRY, name: "Stale Before Restore" }, MAIL);

      const restored = await runAdmin(target.testDb.env, ["restore", backup]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain("renovation_projects 3, contact_submissions 3");
      expect(restored.stdout).toContain("admin sessions: ended 1");
      const found = async (search: string) => (await listSubmissions(target.database.db, { filter: "all", search })).submissions.map((s) => s.name);
      expect(await found("lovelace")).toEqual(["Ada Lovelace"]);
      expect(await found("stale before")).toEqual([]);
      // The inbox's counts (derived, never in a backup) are the restored rows', not the stale enquiry's (decision 063).
      expect(await countSubmissions(target.database.db)).toEqual({ all: 2, unread: 2, read: 0, held: 0, spam: 1 });
      expect(await keptCounts(target.database.db)).toEqual(await freshCounts(target.database.db));

      const changing = ["admin_sessions", "public_data_version", "audit_log"];
      expect(await allRows(target.database, changing)).toEqual(await allRows(source.database, changing));
      expect(await auditBesidesCommands(target.database)).toEqual(await auditBesidesCommands(source.database));
      expect(await commandEntries(source.database)).toEqual(["backup-made"]);
      expect(await commandEntries(target.database), "the restored log, and the restore").toEqual(["backup-restored"]);
      const images = await allImages(target.storage);
      expect(images.size).toBeGreaterThan(6);
      expect(images).toEqual(await allImages(source.storage));

      expect(await sessionCount(target.database)).toBe(0);
      expect(await sessionCount(source.database)).toBe(1);
      const moved = await publicDataVersion(target.database.db);
      expect(moved).toBeGreaterThan(Math.max(versionBefore, await publicDataVersion(source.database.db)));
    },
    SLOW,
  );

  it(
    "refuses a backup whose schema is newer than the code, in verify-backup and restore, changing nothing",
    async () => {
      const newer = path.join(backups, "newer");
      await cp(backup, newer, { recursive: true });
      const manifest = JSON.parse(await readFile(path.join(newer, "manifest.json"), "utf8"));
      manifest.database.migrations.push("999-from-the-future");
      manifest.schemaVersion = "999-from-the-future";
      await writeFile(path.join(newer, "manifest.json"), JSON.stringify(manifest));

      const verified = await runAdmin({}, ["verify-backup", newer]);
      expect(verified.code).toBe(1);
      expect(verified.stderr).toContain(`schema (999-from-the-future) is newer than this code's (${LATEST_MIGRATION})`);

      const target = await siteInUse();
      const before = await siteState(target);
      const restored = await runAdmin(target.testDb.env, ["restore", newer]);
      expect(restored.code).toBe(1);
      expect(restored.stderr).toContain("nothing was changed");
      expect(restored.stderr).toContain("is newer than this code's");
      expect(await siteState(target)).toEqual(before);
    },
    SLOW,
  );

  it(
    "refuses a backup with a changed byte, in verify-backup and restore, changing nothing",
    async () => {
      const target = await siteInUse();
      const before = await siteState(target);
      const manifest = JSON.parse(await readFile(path.join(backup, "manifest.json"), "utf8"));
      const corrupt = async (name: string, file: string) => {
        const copy = path.join(backups, name);
        await cp(backup, copy, { recursive: true });
        const bytes = await readFile(path.join(copy, file));
        bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
        await writeFile(path.join(copy, file), bytes);
        return copy;
      };
      for (const [copy, file] of [
        [await corrupt("bad-image", `images/${manifest.images.files[0].name}`), `images/${manifest.images.files[0].name}`],
        [await corrupt("bad-database", manifest.database.file), manifest.database.file],
      ]) {
        const verified = await runAdmin({}, ["verify-backup", copy]);
        expect(verified.code).toBe(1);
        expect(verified.stderr).toContain(`${file} does not match its checksum`);
        const restored = await runAdmin(target.testDb.env, ["restore", copy]);
        expect(restored.code).toBe(1);
        expect(restored.stderr).toContain("nothing was changed");
        expect(restored.stderr).toContain(`${file} does not match its checksum`);
        expect(await siteState(target)).toEqual(before);
      }
    },
    SLOW,
  );

  it(
    "refuses to restore while the site runs, changing nothing; and a server does not start while a restore runs",
    async () => {
      const target = await siteInUse();
      const before = await siteState(target);
      const server = await startServer(target.testDb.env);
      try {
        const refused = await runAdmin(target.testDb.env, ["restore", backup]);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("The site is running");
        expect(refused.stderr).toContain("Nothing was changed.");
      } finally {
        await server.stop();
      }
      expect(await siteState(target)).toEqual(before);

      // Stopped, the same restore goes through.
      const restored = await runAdmin(target.testDb.env, ["restore", backup]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(await allRows(target.database, ["admin_sessions", "public_data_version", "audit_log"])).toEqual(
        await allRows(source.database, ["admin_sessions", "public_data_version", "audit_log"]),
      );
      expect(await auditBesidesCommands(target.database)).toEqual(await auditBesidesCommands(source.database));

      // While a restore holds the site, a server refuses to start (and to migrate).
      const restoring = await target.database.lockSite("restoring");
      try {
        const blocked = spawnServer(target.testDb.env);
        expect((await blocked.exited).code).toBe(1);
        expect(blocked.stderr()).toContain("A restore (npm run admin -- restore) is replacing this database");
      } finally {
        await restoring.release();
      }
    },
    SLOW,
  );

  it(
    "keeps the site's database as it was when the restore fails inside its transaction, and says what was added",
    async () => {
      // A backup that is sound as a file, but whose rows the schema refuses
      // (an enquiry twice, under one id): found only inside the transaction.
      const refusing = await newSite();
      await saveEnquiry(refusing.database.db, { ...ENQUIRY, message: "From the refusing site." }, { mail: undefined, company: PLACEHOLDER_COMPANY });
      await refusing.storage.put("1700000000001-fromrefusing.jpg", new TextEncoder().encode("its upload"), { contentType: "image/jpeg" });
      const made = await runAdmin(refusing.testDb.env, ["backup", path.join(backups, "refusing-made")]);
      expect(made.code, made.stderr).toBe(0);
      const refusingBackup = path.join(backups, "refusing");
      await rewriteBackup(path.join(backups, "refusing-made"), refusingBackup, (lines) =>
        lines.flatMap((line) => (line.includes("From the refusing site.") ? [line, line] : [line])),
      );
      expect((await runAdmin({}, ["verify-backup", refusingBackup])).code).toBe(0);

      const target = await siteInUse();
      const before = await siteState(target);
      const restored = await runAdmin(target.testDb.env, ["restore", refusingBackup]);
      expect(restored.code).toBe(1);
      expect(restored.stderr).toMatch(
        /UNIQUE constraint failed: contact_submissions\.id|duplicate key value violates unique constraint "contact_submissions_pkey"/,
      );
      expect(restored.stderr).toContain("Nothing was restored: the database is as it was.");
      expect(restored.stderr).toContain("1 image was copied into the bucket; no project uses them, and gc-images removes them");
      const after = await siteState(target);
      expect(after.rows).toEqual(before.rows);
      expect([...after.images.keys()].sort()).toEqual([...before.images.keys(), "1700000000001-fromrefusing.jpg"].sort());
    },
    SLOW,
  );
});

/** Every row of every table but the sessions and the data version, as both databases would show it. */
/** The bigint columns of our tables (the data version's is left out of the comparison). */
const BIGINT_COLUMNS = new Set(["counter", "last_used_step"]);

async function portableRows(database: Database): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  for (const table of [...TABLES, MIGRATION_TABLES[0]]) {
    if (table === "admin_sessions" || table === "public_data_version") continue;
    const { rows: found } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    rows[table] = found
      // Each site's own backup and restore commands write their entry after their work (commandEntries).
      .filter((row) => table !== "audit_log" || !["backup-made", "backup-restored"].includes(String(row.action)))
      .map((row) =>
        JSON.stringify(
          Object.entries(row).map(([column, value]) =>
            value instanceof Date
              ? value.toISOString()
              : typeof value === "boolean"
                ? Number(value)
                : // PostgreSQL hands a bigint back as text.
                  BIGINT_COLUMNS.has(column) && typeof value === "string"
                  ? Number(value)
                  : value,
          ),
        ),
      )
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

  it(
    "restores a SQLite site's backup into PostgreSQL, and that site's backup into SQLite, every row the same",
    async () => {
      const source = await onSqlite.newSite({ migratedHere: true });
      const { db } = source.database;
      expect((await runAdmin(source.testDb.env, ["seed-demo"])).code).toBe(0);
      const admin = await createAdmin(db, "owner@example.com", PASSWORD, TEST_ACTOR);
      await seedSignInFactors(db, admin);
      await createSession(db, admin.id);
      await saveEnquiry(db, ENQUIRY, MAIL);
      await saveEnquiry(db, { ...ENQUIRY, message: "Cheap links" }, { ...MAIL, verdict: { kind: "spam", signals: ["links"] } });
      await createSecrets(db).key("form-token");
      await publishContent(db, { content: JSON.stringify(siteDefaults()), by: "owner@example.com", actor: TEST_ACTOR, now: new Date() });
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
      expect(await commandEntries(onPg.database), "the restore, into the restored log").toEqual(["backup-restored"]);
      expect(await allImages(onPg.storage)).toEqual(await allImages(source.storage));
      expect(await schedule(onPg.database, "after the move")).toBe(taken + 1);
      expect(await countSubmissions(onPg.database.db)).toEqual({ all: 1, unread: 1, read: 0, held: 0, spam: 1 });

      const fromPostgres = path.join(backups, "from-postgres");
      expect((await runAdmin(onPg.testDb.env, ["backup", fromPostgres])).code).toBe(0);
      const back = await onSqlite.newSite();
      const restoredBack = await runAdmin(back.testDb.env, ["restore", fromPostgres]);
      expect(restoredBack.code, restoredBack.stderr).toBe(0);
      expect(await portableRows(back.database)).toEqual(await portableRows(onPg.database));
      expect(await schedule(back.database, "back again")).toBe(taken + 2);
      expect(await keptCounts(back.database.db)).toEqual(await freshCounts(back.database.db));
      expect(await countSubmissions(back.database.db)).toEqual({ all: 1, unread: 1, read: 0, held: 0, spam: 1 });
    },
    SLOW,
  );
});
