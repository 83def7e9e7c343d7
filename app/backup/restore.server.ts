import fs from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import { IMAGE_NAMING } from "~/images/image-files";
import { publicDataVersion } from "~/platform/data-version.server";
import { DatabaseBackupError, restoreDatabase } from "~/platform/database-backup.server";
import { migrateToLatest, type Database } from "~/platform/db.server";
import { PgToolError } from "~/platform/pg-tools.server";
import { SiteLockBusy } from "~/platform/site-lock.server";
import type { ImageStorage } from "~/platform/storage.server";
import { IMAGES_FOLDER, digestOf, type Manifest } from "./manifest.server";
import { verifyBackup } from "./verify.server";

/**
 * `npm run admin -- restore DIR`, into a stopped site:
 * 1. the whole backup is verified (verify.server.ts) and must be of this
 *    site's kind of database and not newer than the code;
 * 2. the site lock is taken alone, so no server runs meanwhile, nor starts;
 * 3. images the bucket lacks are copied in (an image already there must be
 *    byte for byte the backup's) — only ever added, so a failure later
 *    leaves unused files that gc-images removes, and nothing else;
 * 4. the database is replaced in one transaction, which also ends every
 *    admin session and moves the public data version past both the site's
 *    and the backup's, so no cached page or ETag of either is served again;
 * 5. a backup older than the code is migrated.
 * Any refusal or failure before step 4 commits leaves the database as it was
 * (decision 033).
 */
export class RestoreError extends Error {
  override name = "RestoreError";
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
  }
}

export type RestoreServices = { database: Database; storage: ImageStorage };

export type RestoreReport = {
  manifest: Manifest;
  /** Rows per table in the site's database now. */
  counts: Record<string, number>;
  images: { added: number; alreadyThere: number };
  dataVersion: { before: number; after: number };
  endedSessions: number;
  /** Migrations run after the restore, for a backup older than the code. */
  migrated: string[];
};

export async function restoreBackup(services: RestoreServices, directory: string): Promise<RestoreReport> {
  const { database, storage } = services;
  const { manifest, problems } = await verifyBackup(directory);
  if (!manifest || problems.length > 0) throw new RestoreError("The backup cannot be restored; nothing was changed:", problems);
  if (manifest.database.dialect !== database.dialect) {
    throw new RestoreError(
      `This backup is of a site on ${dialectName(manifest.database.dialect)}, and this site uses ${dialectName(database.dialect)}: nothing was changed. (export-site and import-site move the website's content between the two.)`,
    );
  }

  let lock;
  try {
    lock = await database.lockSite("restoring");
  } catch (error) {
    if (error instanceof SiteLockBusy) throw new RestoreError(`${error.message} Nothing was changed.`);
    throw error;
  }
  try {
    const db = database.db;
    const before = await publicDataVersion(db);
    const endedSessions = Number((await db.selectFrom("admin_sessions").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);

    const missing: Manifest["images"]["files"] = [];
    const different: string[] = [];
    for (const image of manifest.images.files) {
      const existing = await storage.read(image.name);
      if (!existing) missing.push(image);
      else if (digestOf(existing) !== image.sha256) different.push(image.name);
    }
    if (different.length > 0) {
      throw new RestoreError(`The bucket already holds ${different.length} image${different.length === 1 ? "" : "s"} of the same name with other bytes; nothing was changed:`, different.slice(0, 10));
    }
    let added = 0;
    try {
      for (const image of missing) {
        const data = await fs.readFile(path.join(directory, IMAGES_FOLDER, image.name));
        if (digestOf(data) !== image.sha256) throw new RestoreError(`${IMAGES_FOLDER}/${image.name} changed since the backup was checked.`);
        await storage.put(image.name, data, { contentType: IMAGE_NAMING.contentTypeOf(image.name) });
        added++;
      }
    } catch (error) {
      throw new RestoreError(
        `Copying the images failed (${(error as Error).message}); the database was not changed.` +
          (added > 0 ? ` ${added} image${added === 1 ? " was" : "s were"} copied into the bucket; no project uses them, and gc-images removes them.` : ""),
      );
    }

    const after = Math.max(before, manifest.database.publicDataVersion ?? 0) + 1;
    const present = new Set(Object.keys(manifest.database.counts));
    const finish = [
      ...(present.has("admin_sessions") ? ["delete from admin_sessions"] : []),
      ...(present.has("public_data_version") ? [`update public_data_version set version = ${after} where id = 1`] : []),
    ];
    try {
      await restoreDatabase(database, path.join(directory, manifest.database.file), { sha256: manifest.database.sha256, finish });
    } catch (error) {
      if (error instanceof DatabaseBackupError || error instanceof PgToolError) {
        throw new RestoreError(
          `${error.message}${error.message.includes("nothing was restored") ? "" : " The database was not changed."}` +
            (added > 0 ? ` ${added} image${added === 1 ? " was" : "s were"} copied into the bucket; no project uses them, and gc-images removes them.` : ""),
        );
      }
      throw error;
    }
    // A backup older than the code: its tables are brought up to date, then
    // the two finishing steps are made again for tables the migrations made.
    const migrated = await migrateToLatest(database);
    if (migrated.length > 0) {
      await db.deleteFrom("admin_sessions").execute();
      await db.updateTable("public_data_version").set({ version: after }).where("id", "=", 1).execute();
    }

    const counts: Record<string, number> = {};
    for (const table of Object.keys(manifest.database.counts)) {
      counts[table] = Number((await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
    }
    return { manifest, counts, images: { added, alreadyThere: manifest.images.files.length - missing.length }, dataVersion: { before, after }, endedSessions, migrated };
  } finally {
    await lock.release();
  }
}

function dialectName(dialect: Database["dialect"]): string {
  return dialect === "sqlite" ? "SQLite" : "PostgreSQL";
}
