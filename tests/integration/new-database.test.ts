/**
 * A new SQLite database starts as a copy of the one `npm run build` migrated
 * (decision 080): the copy must be exactly what the migrations make, be the
 * server's user's alone, never replace a database, and a missing copy must
 * leave the migrations to do the work, as before.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { countAdmins, findAdminByEmail } from "~/auth/admins.server";
import { signIn } from "~/auth/sign-in.server";
import { boot } from "~/boot.server";
import { parseEnv } from "~/platform/config/env.server";
import type { Db } from "~/platform/db/db.server";
import { plainLog } from "~/platform/observe/log.server";
import { backends, type TestDatabase } from "../support/backends";
import { migrateToLatest, openDatabase } from "~/platform/db/db.server";
import { migrations } from "~/platform/db/migrations";
import { NEW_SQLITE_DATABASE, startFromTemplate } from "~/platform/db/new-database.server";
import { assertBuilt, logLines, repoRoot, startServer, type SpawnedServer } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";

const BUILT = path.join(repoRoot, "build", "server", NEW_SQLITE_DATABASE);
const ADMIN = { email: "owner@example.com", password: "a long enough passphrase" };

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await makeTempDir("new-database-");
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => removeTempDir(dir)));
});

/** Everything SQLite holds: the schema's text, and every row of every table (the search index's own tables too), but when each migration ran. */
function contents(file: string): unknown {
  const database = new DatabaseSync(file, { readOnly: true });
  try {
    const schema = database.prepare("select type, name, tbl_name, sql from sqlite_master order by type, name").all();
    const rows = Object.fromEntries(
      schema
        .filter((entry) => entry.type === "table" && !String(entry.sql).startsWith("CREATE VIRTUAL TABLE"))
        .map((entry) => {
          const table = String(entry.name);
          const columns = table === "kysely_migration" ? "name" : "*";
          return [table, database.prepare(`select ${columns} from "${table}" order by 1`).all()];
        }),
    );
    return { schema, rows };
  } finally {
    database.close();
  }
}

describe("the build's new SQLite database", () => {
  beforeAll(() => assertBuilt());

  it("holds exactly what the migrations make on a new database", async () => {
    const dir = await tempDir();
    const migrated = openDatabase({ dataDir: dir, databaseUrl: undefined });
    expect(await migrateToLatest(migrated)).toEqual(Object.keys(migrations));
    await migrated.close();
    expect(contents(BUILT)).toEqual(contents(path.join(dir, "app.sqlite")));
  });

  it("is copied where there is no database, 0600, and needs no migration", async () => {
    const dir = await tempDir();
    const database = openDatabase({ dataDir: dir, databaseUrl: undefined, newSqliteDatabase: BUILT });
    try {
      expect(database.copiedFromBuild).toBe(true);
      expect(statSync(path.join(dir, "app.sqlite")).mode & 0o777).toBe(0o600);
      expect(await migrateToLatest(database)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("never replaces a database that is there", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "app.sqlite");
    const first = openDatabase({ dataDir: dir, databaseUrl: undefined });
    await migrateToLatest(first);
    await first.db.updateTable("public_data_version").set({ version: 7 }).execute();
    await first.close();
    expect(startFromTemplate(file, BUILT)).toBe(false);
    const again = openDatabase({ dataDir: dir, databaseUrl: undefined, newSqliteDatabase: BUILT });
    try {
      expect(again.copiedFromBuild).toBe(false);
      expect(await again.db.selectFrom("public_data_version").select("version").executeTakeFirst()).toEqual({ version: 7 });
    } finally {
      await again.close();
    }
  });

  it("when missing or unreadable, leaves the migrations to make the database", async () => {
    const dir = await tempDir();
    // A file that is not there, and a folder where a file should be.
    for (const template of [path.join(dir, "missing.sqlite"), dir]) {
      expect(startFromTemplate(path.join(dir, "app.sqlite"), template)).toBe(false);
    }
    const database = openDatabase({ dataDir: dir, databaseUrl: undefined, newSqliteDatabase: path.join(dir, "missing.sqlite") });
    try {
      expect(database.copiedFromBuild).toBe(false);
      expect(await migrateToLatest(database)).toEqual(Object.keys(migrations));
    } finally {
      await database.close();
    }
  });
});

describe("a server started on a new DATA_DIR", () => {
  let server: SpawnedServer | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    assertBuilt();
    dataDir = await makeTempDir("new-database-server-");
    server = await startServer({ DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  });
  afterAll(async () => {
    await server?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  it("starts from the build's copy, says so, and makes ADMIN_EMAIL's admin in it", async () => {
    const messages = logLines(server!.stdout()).map((line) => line.msg);
    expect(messages).toContain(`Database: SQLite at ${path.join(dataDir!, "app.sqlite")} (new: a copy of the build's migrated database)`);
    expect(messages).toContain(`Created the admin ${ADMIN.email} (ADMIN_EMAIL)`);
    const database = openDatabase({ dataDir: dataDir!, databaseUrl: undefined });
    try {
      expect((await findAdminByEmail(database.db, ADMIN.email))?.role).toBe("owner");
    } finally {
      await database.close();
    }
  });
});

describe.each(backends)("a server's start on a new $name database", (backend) => {
  const created: TestDatabase[] = [];
  afterEach(async () => {
    await Promise.all(created.splice(0).map((database) => database.cleanup()));
  });

  const OTHER_PASSWORD = "a different long passphrase";
  const signsIn = async (db: Db, password: string) =>
    (await signIn(db, { email: ADMIN.email, password, clientIp: "192.0.2.1", limit: 5, log: plainLog(() => {}) })).ok;

  it("makes ADMIN_EMAIL's owner, its password hashed while the start goes on, and a restart keeps it", async () => {
    const testDatabase = await backend.createDatabase();
    created.push(testDatabase);
    const log = plainLog(() => {});
    const start = (password: string) =>
      boot(parseEnv({ ...testDatabase.env, ADMIN_EMAIL: "Owner@Example.com", ADMIN_PASSWORD: password }), { role: "server", log });
    const first = await start(ADMIN.password);
    expect((await findAdminByEmail(first.database.db, ADMIN.email))?.role).toBe("owner");
    expect(await signsIn(first.database.db, ADMIN.password)).toBe(true);
    await first.close();
    const second = await start(OTHER_PASSWORD);
    expect(await countAdmins(second.database.db)).toBe(1);
    expect(await signsIn(second.database.db, ADMIN.password)).toBe(true);
    expect(await signsIn(second.database.db, OTHER_PASSWORD)).toBe(false);
    await second.close();
  });
});
