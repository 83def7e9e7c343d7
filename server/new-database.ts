import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateToLatest, openDatabase } from "~/platform/db/db.server";
import { NEW_SQLITE_DATABASE } from "~/platform/db/new-database.server";

/**
 * `npm run build`'s last step (scripts/finish-build.js): migrates a new SQLite
 * database and leaves it, closed (its write-ahead log checkpointed and gone),
 * in `dir` as NEW_SQLITE_DATABASE, the copy a new DATA_DIR starts from (decision 080).
 */
export async function writeNewSqliteDatabase(dir: string): Promise<string> {
  const work = mkdtempSync(path.join(os.tmpdir(), "new-database-"));
  try {
    const database = openDatabase({ dataDir: work, databaseUrl: undefined });
    try {
      await migrateToLatest(database);
    } finally {
      await database.close();
    }
    const target = path.join(dir, NEW_SQLITE_DATABASE);
    copyFileSync(path.join(work, "app.sqlite"), target);
    // Readable by whichever user runs the server: it holds the schema only, no data; each copy is made 0600.
    chmodSync(target, 0o644);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
