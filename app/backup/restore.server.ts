import { createHash } from "node:crypto";
import path from "node:path";
import { sql } from "kysely";
import { IMAGE_NAMING } from "~/images/image-files";
import { publicDataVersion } from "~/platform/db/data-version.server";
import { DatabaseBackupError, restoreDatabase } from "~/platform/backup/database-backup.server";
import type { Database } from "~/platform/db/db.server";
import { readBackupFile, readWholeBackupFile, SealedFileError, type SealingKey } from "~/platform/backup/sealed-files.server";
import { SiteLockBusy } from "~/platform/db/site-lock.server";
import type { ImageStorage } from "~/platform/storage/storage.server";
import { DATABASE_FILE, IMAGES_FOLDER, fileSeal, type Manifest } from "./manifest.server";
import { verifyBackup } from "./verify.server";

/**
 * `npm run admin -- restore DIR`, into a stopped site:
 * 1. the whole backup is verified (verify.server.ts): sealed with BACKUP_KEY
 *    when the key is set, only this code's tables and columns, not newer
 *    than the code;
 * 2. the site lock is taken alone, so no server runs meanwhile, nor starts;
 * 3. images the bucket lacks are copied in (an image already there must be
 *    byte for byte the backup's) — only ever added, so a failure later
 *    leaves unused files that gc-images removes, and nothing else;
 * 4. the database is replaced in one transaction: this code's migrations
 *    build the backup's schema, its rows are copied in, the newer
 *    migrations run, every admin session ends and the public data version
 *    moves past both the site's and the backup's, so no cached page or ETag
 *    of either is served again. Nothing of the backup is ever executed.
 * Any refusal or failure before step 4 commits leaves the database as it was
 * (decisions 033 and 040). A backup of SQLite restores into PostgreSQL, and
 * the other way round: the rows are the same.
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

export type RestoreServices = { database: Database; storage: ImageStorage; key: SealingKey | undefined };

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
  const { database, storage, key } = services;
  const { manifest, problems } = await verifyBackup(directory, key);
  if (!manifest || problems.length > 0) throw new RestoreError("The backup cannot be restored; nothing was changed:", problems);
  const sealFor = (file: string) => (manifest.sealed && key ? fileSeal(key, manifest.backupId, file) : undefined);

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
      else if (createHash("sha256").update(existing).digest("hex") !== image.sha256) different.push(image.name);
    }
    if (different.length > 0) {
      throw new RestoreError(
        `The bucket already holds ${different.length} image${different.length === 1 ? "" : "s"} of the same name with other bytes; nothing was changed:`,
        different.slice(0, 10),
      );
    }
    let added = 0;
    try {
      for (const image of missing) {
        // Checked again as it is read: what is copied is what was verified.
        const file = `${IMAGES_FOLDER}/${image.name}`;
        const data = await readWholeBackupFile(path.join(directory, file), file, image, sealFor(file));
        await storage.put(image.name, data, { contentType: IMAGE_NAMING.contentTypeOf(image.name) });
        added++;
      }
    } catch (error) {
      const reason = error instanceof SealedFileError ? error.message : (error as Error).message;
      throw new RestoreError(`Copying the images failed (${reason}); the database was not changed.${imagesAdded(added)}`);
    }

    const after = Math.max(before, manifest.database.publicDataVersion ?? 0) + 1;
    let migrated: string[];
    try {
      migrated = await restoreDatabase(database, {
        migrations: manifest.database.migrations,
        rows: () => readBackupFile(path.join(directory, DATABASE_FILE), DATABASE_FILE, manifest.database, sealFor(DATABASE_FILE)),
        sequences: manifest.database.sequences,
        finish: async (trx) => {
          await trx.deleteFrom("admin_sessions").execute();
          await trx.updateTable("public_data_version").set({ version: after }).where("id", "=", 1).execute();
        },
      });
    } catch (error) {
      if (error instanceof DatabaseBackupError) throw new RestoreError(error.message + imagesAdded(added));
      throw error;
    }

    const counts: Record<string, number> = {};
    for (const table of Object.keys(manifest.database.counts)) {
      counts[table] = Number((await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
    }
    return {
      manifest,
      counts,
      images: { added, alreadyThere: manifest.images.files.length - missing.length },
      dataVersion: { before, after },
      endedSessions,
      migrated,
    };
  } finally {
    await lock.release();
  }
}

function imagesAdded(added: number): string {
  return added > 0 ? ` ${added} image${added === 1 ? " was" : "s were"} copied into the bucket; no project uses them, and gc-images removes them.` : "";
}
