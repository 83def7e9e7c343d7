/**
 * A backup restores data, never code (issue 19, decision 040), on each
 * backend: someone who can write where backups are kept rewrites the rows and
 * the manifest to match, adding a table, a trigger, a column, an admin, or
 * hands over a backup of the earlier format whose database file carries its
 * own schema (a trigger, a table, an extra admin, a statement that creates a
 * file outside DATA_DIR). Each is refused by verify-backup and restore, and
 * nothing of the site changes: no row, no image, no schema object, no file.
 * With BACKUP_KEY, a backup is encrypted and signed: one byte changed
 * anywhere is refused, and a restore without the key says so.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, cp, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "~/auth/admins.server";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { RestoreError, restoreBackup } from "~/backup/restore.server";
import { verifyBackup } from "~/backup/verify.server";
import { sealingKey } from "~/platform/backup/sealed-files.server";
import { migrations } from "~/platform/db/migrations";
import { TABLES } from "~/platform/db/schema";
import { runAdmin } from "../support/admin-cli";
import { backends } from "../support/backends";
import {
  ENQUIRY,
  PASSWORD,
  SLOW,
  allRows,
  auditBesidesCommands,
  rewriteBackup,
  schemaObjects,
  siteState,
  sitesOf,
  tableSection,
  type Site,
} from "../support/backup-sites";
import { assertBuilt } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";
import { TEST_ACTOR } from "../support/actors";

const BACKUP_KEY = randomBytes(32).toString("base64");
const OTHER_KEY = randomBytes(32).toString("base64");

describe.each(backends)("a backup restores data, never code, on $name", (backend) => {
  const { newSite, siteInUse, cleanup } = sitesOf(backend);
  let backups: string;
  let source: Site;
  let plain: string;
  let sealed: string;

  beforeAll(async () => {
    assertBuilt();
    backups = await makeTempDir("tampered");
    source = await newSite({ migratedHere: true });
    await createAdmin(source.database.db, "owner@example.com", PASSWORD, TEST_ACTOR);
    await saveEnquiry(source.database.db, ENQUIRY, { mail: undefined, company: PLACEHOLDER_COMPANY });
    await source.storage.put("1700000000002-sourceimage1.jpg", new TextEncoder().encode("the source's upload"), { contentType: "image/jpeg" });
    await source.storage.put("1700000000003-sourceimage2.webp", randomBytes(70_000), { contentType: "image/webp" });
    plain = path.join(backups, "plain");
    sealed = path.join(backups, "sealed");
    for (const [directory, env] of [
      [plain, source.testDb.env],
      [sealed, { ...source.testDb.env, BACKUP_KEY }],
    ] as const) {
      const made = await runAdmin(env, ["backup", directory]);
      expect(made.code, made.stderr).toBe(0);
    }
  }, SLOW);

  afterAll(async () => {
    await cleanup();
    await removeTempDir(backups);
  }, SLOW);

  /** A restore refused with nothing of the target changed: rows, images, schema objects, and no file where `outside` points. */
  async function expectRefused(target: Site, directory: string, said: string | RegExp, outside?: string) {
    const before = { state: await siteState(target), objects: await schemaObjects(target.database) };
    const verified = await runAdmin({}, ["verify-backup", directory]);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toMatch(said);
    const restored = await runAdmin(target.testDb.env, ["restore", directory]);
    expect(restored.code).toBe(1);
    expect(restored.stderr).toContain("nothing was changed");
    expect(restored.stderr).toMatch(said);
    expect(await siteState(target)).toEqual(before.state);
    expect(await schemaObjects(target.database)).toEqual(before.objects);
    if (outside) expect(existsSync(outside)).toBe(false);
  }

  it(
    "refuses rows that add a table, a trigger, a column or a table named in SQL, with an admin, the manifest rewritten to match; nothing changes",
    async () => {
      const target = await siteInUse();
      const outside = path.join(backups, "outside-data-dir.sqlite");
      const adminLine = (lines: string[]) => lines.findIndex((line) => line.startsWith('{"table":"admin_users"'));
      const intruder = async (lines: string[]) => {
        // Another admin, as data: on its own a row like any other.
        const at = adminLine(lines);
        const row = JSON.parse(lines[at + 1]!) as unknown[];
        const columns = (JSON.parse(lines[at]!) as { columns: Array<{ name: string }> }).columns.map((column) => column.name);
        row[columns.indexOf("id")] = "intruder-admin-id";
        row[columns.indexOf("email")] = "intruder@example.com";
        return [...lines.slice(0, at + 1), JSON.stringify(row), ...lines.slice(at + 1)];
      };
      const shadow = tableSection(
        "enquiry_copies",
        [
          ["id", "text"],
          ["message", "text"],
        ],
        [["copy-1", "a copied enquiry"]],
      );
      const trigger = tableSection(
        backend.name === "sqlite" ? "sqlite_master" : "pg_trigger",
        [
          ["type", "text"],
          ["name", "text"],
          ["tbl_name", "text"],
          ["rootpage", "integer"],
          ["sql", "text"],
        ],
        [
          [
            "trigger",
            "copy_enquiries",
            "contact_submissions",
            0,
            `CREATE TRIGGER copy_enquiries AFTER INSERT ON contact_submissions BEGIN INSERT INTO enquiry_copies SELECT new.id, new.message; END; ATTACH DATABASE '${outside}' AS outside; CREATE TABLE outside.t(a)`,
          ],
        ],
      );
      const cases: Array<[string, (lines: string[]) => string[] | Promise<string[]>, RegExp]> = [
        ["extra-table", async (lines) => [...(await intruder(lines)), ...shadow], /a table this site does not have \("enquiry_copies"\)/],
        ["trigger", async (lines) => [...(await intruder(lines)), ...trigger, ...shadow], /a table this site does not have \("(sqlite_master|pg_trigger)"\)/],
        [
          "extra-column",
          (lines) =>
            lines.map((line) => {
              if (line.startsWith('{"table":"contact_submissions"')) {
                const header = JSON.parse(line);
                header.columns.push({ name: "forward_to", type: "text" });
                return JSON.stringify(header);
              }
              return line;
            }),
          /a column contact_submissions does not have \("forward_to"\)/,
        ],
        [
          "injected-name",
          (lines) => [...lines, ...tableSection('admin_users"; drop table admin_users; --', [["id", "text"]], [])],
          /a table this site does not have/,
        ],
      ];
      for (const [name, edit, said] of cases) {
        const copy = path.join(backups, name);
        const lines = await edit((await readFile(path.join(plain, "database.jsonl"), "utf8")).split("\n").filter(Boolean));
        await rewriteBackup(plain, copy, () => lines);
        await expectRefused(target, copy, said, outside);
      }
      expect(await schemaObjects(target.database)).not.toContain("table enquiry_copies");
      expect((await allRows(target.database)).admin_users!.join()).not.toContain("intruder@example.com");
    },
    SLOW,
  );

  it(
    "refuses a backup of the earlier format, whose database file carries its own schema, trigger and admin; nothing runs",
    async () => {
      // What the earlier restore ran: its manifest rewritten to match the database file.
      const evil = await newSite();
      const { db } = evil.database;
      await createAdmin(db, "intruder@example.com", PASSWORD, TEST_ACTOR);
      await sql`create table enquiry_copies (id text, message text)`.execute(db);
      if (backend.name === "sqlite") {
        await sql`create trigger copy_enquiries after insert on contact_submissions begin insert into enquiry_copies values (new.id, new.message); end`.execute(
          db,
        );
      } else {
        await sql`create function copy_enquiry() returns trigger language plpgsql as $$ begin insert into enquiry_copies values (new.id, new.message); return new; end $$`.execute(
          db,
        );
        await sql`create trigger copy_enquiries after insert on contact_submissions for each row execute function copy_enquiry()`.execute(db);
      }
      const earlier = path.join(backups, "earlier-format");
      await mkdir(earlier);
      const outside = path.join(backups, "outside-from-earlier.sqlite");
      const file = backend.name === "sqlite" ? "database.sqlite" : "database.dump";
      if (backend.name === "sqlite") {
        await sql`vacuum into ${path.join(earlier, file)}`.execute(db);
        // A table whose definition in the file also attaches, so creates, a database outside DATA_DIR.
        const copy = new DatabaseSync(path.join(earlier, file), { defensive: false });
        copy.exec("PRAGMA writable_schema = ON");
        copy
          .prepare("update sqlite_master set sql = ? where name = 'enquiry_copies'")
          .run(`CREATE TABLE enquiry_copies (id text, message text); ATTACH DATABASE '${outside}' AS outside; CREATE TABLE outside.t(a)`);
        copy.close();
      } else {
        await pgDump(evil.testDb.env.DATABASE_URL!, path.join(earlier, file));
      }
      const counts = Object.fromEntries(
        await Promise.all(
          TABLES.map(
            async (table) => [table, Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n)] as const,
          ),
        ),
      );
      const bytes = await readFile(path.join(earlier, file));
      const names = Object.keys(migrations);
      const manifest = {
        format: "property-site-backup",
        formatVersion: 1,
        createdAt: new Date().toISOString(),
        schemaVersion: names.at(-1),
        database: {
          dialect: backend.name,
          file,
          bytes: bytes.length,
          sha256: createHash("sha256").update(bytes).digest("hex"),
          migrations: names,
          counts,
          publicDataVersion: 0,
          withoutDataOf: ["admin_sessions"],
        },
        images: { count: 0, bytes: 0, files: [] },
      };
      await writeFile(path.join(earlier, "manifest.json"), JSON.stringify(manifest, null, 2));

      const target = await siteInUse();
      await expectRefused(target, earlier, /made by an earlier version of the site/, outside);
      expect(await schemaObjects(target.database)).not.toContain("trigger copy_enquiries");
      expect((await allRows(target.database)).admin_users!.join()).not.toContain("intruder@example.com");
    },
    SLOW,
  );

  it(
    "seals a backup with BACKUP_KEY: nothing readable without it, and it restores everything with it",
    async () => {
      for (const file of ["manifest.json", "database.jsonl", "images/1700000000002-sourceimage1.jpg"]) {
        const bytes = await readFile(path.join(sealed, file));
        for (const plainText of ["owner@example.com", "admin_users", "the source's upload", ENQUIRY.message]) expect(bytes.includes(plainText)).toBe(false);
      }
      const verified = await runAdmin({ BACKUP_KEY }, ["verify-backup", sealed]);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain("sealed with BACKUP_KEY (key id");

      const target = await siteInUse();
      const before = await siteState(target);
      const withoutKey = await runAdmin(target.testDb.env, ["restore", sealed]);
      expect(withoutKey.code).toBe(1);
      expect(withoutKey.stderr).toContain("This backup is encrypted and signed with a BACKUP_KEY (key id");
      expect(withoutKey.stderr).toContain("set BACKUP_KEY to that key");
      const otherKey = await runAdmin({ ...target.testDb.env, BACKUP_KEY: OTHER_KEY }, ["restore", sealed]);
      expect(otherKey.code).toBe(1);
      expect(otherKey.stderr).toContain("sealed with another BACKUP_KEY");
      // A backup that is not sealed proves nothing once a key is set: refused, unless the key is left out on purpose.
      const unsealed = await runAdmin({ BACKUP_KEY }, ["verify-backup", plain]);
      expect(unsealed.code).toBe(1);
      expect(unsealed.stderr).toContain("This backup is not sealed, and BACKUP_KEY is set");
      expect(await siteState(target)).toEqual(before);

      const restored = await runAdmin({ ...target.testDb.env, BACKUP_KEY }, ["restore", sealed]);
      expect(restored.code, restored.stderr).toBe(0);
      const changing = ["admin_sessions", "public_data_version", "audit_log"];
      expect(await allRows(target.database, changing)).toEqual(await allRows(source.database, changing));
      expect(await auditBesidesCommands(target.database)).toEqual(await auditBesidesCommands(source.database));
      const images = await siteState(target);
      expect(images.images.get("1700000000003-sourceimage2.webp")).toBe((await siteState(source)).images.get("1700000000003-sourceimage2.webp"));
    },
    SLOW,
  );

  it(
    "refuses a sealed backup with one byte changed anywhere, in verify-backup and restore, changing nothing",
    async () => {
      const key = sealingKey(Buffer.from(BACKUP_KEY, "base64"));
      const target = await siteInUse();
      const before = { state: await siteState(target), objects: await schemaObjects(target.database) };
      const files = ["manifest.json", "database.jsonl", ...(await readdir(path.join(sealed, "images"))).map((name) => `images/${name}`)];
      let tried = 0;
      for (const file of files) {
        const size = (await readFile(path.join(sealed, file))).length;
        // The header, the first chunk, the middle, the last chunk's tag and the last byte.
        for (const offset of new Set([0, 23, 30, Math.floor(size / 2), size - 17, size - 1])) {
          const copy = path.join(backups, `changed-${tried++}`);
          await cp(sealed, copy, { recursive: true });
          const bytes = await readFile(path.join(copy, file));
          bytes[offset]! ^= 0x01;
          await writeFile(path.join(copy, file), bytes);
          const { problems } = await verifyBackup(copy, key);
          expect(problems.length, `${file} at ${offset}`).toBeGreaterThan(0);
          await expect(restoreBackup({ database: target.database, storage: target.storage, key }, copy), `${file} at ${offset}`).rejects.toThrow(RestoreError);
        }
      }
      expect(tried).toBeGreaterThan(20);
      // A file swapped for another of the same backup, or cut short: refused too.
      const swapped = path.join(backups, "swapped");
      await cp(sealed, swapped, { recursive: true });
      await copyFile(path.join(sealed, "images/1700000000002-sourceimage1.jpg"), path.join(swapped, "images/1700000000003-sourceimage2.webp"));
      // Its first chunk whole, its final chunk gone.
      const cut = path.join(backups, "cut");
      await cp(sealed, cut, { recursive: true });
      const twoChunks = await readFile(path.join(cut, "images/1700000000003-sourceimage2.webp"));
      expect(twoChunks.length).toBeGreaterThan(24 + 65_536 + 17);
      await writeFile(path.join(cut, "images/1700000000003-sourceimage2.webp"), twoChunks.subarray(0, 24 + 65_536 + 17));
      for (const copy of [swapped, cut]) expect((await verifyBackup(copy, key)).problems.length).toBeGreaterThan(0);

      // Through the CLI, as an operator sees it.
      const changed = path.join(backups, "changed-0");
      const restored = await runAdmin({ ...target.testDb.env, BACKUP_KEY }, ["restore", changed]);
      expect(restored.code).toBe(1);
      expect(restored.stderr).toContain("nothing was changed");
      expect({ state: await siteState(target), objects: await schemaObjects(target.database) }).toEqual(before);
    },
    SLOW,
  );
});

/** pg_dump -Fc of a database, as the earlier backup made it: the newest client programs installed. */
async function pgDump(url: string, file: string): Promise<void> {
  const versions = existsSync("/usr/lib/postgresql") ? (await readdir("/usr/lib/postgresql")).sort((a, b) => Number(b) - Number(a)) : [];
  const program = versions.map((version) => `/usr/lib/postgresql/${version}/bin/pg_dump`).find((candidate) => existsSync(candidate)) ?? "pg_dump";
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(program, ["--format=custom", "--no-owner", "--no-privileges", `--file=${file}`, `--dbname=${parsed}`], {
      env: { ...process.env, PGPASSWORD: password },
      stdio: "inherit",
    });
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`pg_dump failed (${code})`);
}
