import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { imageNameFromUrl } from "~/images/image-files";
import type { ImageVariant } from "~/images/images.server";
import { snapshotDatabase, type SnapshotQuery } from "~/platform/backup/database-backup.server";
import type { Database } from "~/platform/db/db.server";
import { createBackupFile, sealText, writeBackupFile, type Digest, type SealingKey } from "~/platform/backup/sealed-files.server";
import type { ImageStorage } from "~/platform/storage/storage.server";
import {
  BACKUP_FORMAT,
  CIPHER,
  DATABASE_FILE,
  FORMAT_VERSION,
  IMAGES_FOLDER,
  MANIFEST_FILE,
  fileSeal,
  manifestSeal,
  manifestText,
  type Envelope,
  type Manifest,
} from "./manifest.server";

/**
 * `npm run admin -- backup DIR` while the site runs: the database's snapshot
 * first, then every object of the bucket, then the manifest. An image is
 * never deleted while a project the snapshot holds still shows it (the row
 * goes first), but a project deleted during the backup may take its images
 * with it: the bucket is read twice around the snapshot, and the backup
 * fails, asking to run again, if an image the snapshot's projects show is
 * still missing (decision 033). With BACKUP_KEY (`key`), every file is
 * sealed as it is written (decision 040).
 */
export class BackupError extends Error {
  override name = "BackupError";
}

/** Sessions are not kept: a restore ends them all, and a token's hash has no other use. */
const WITHOUT_DATA_OF = ["admin_sessions"] as const;

export type BackupServices = { database: Database; storage: ImageStorage; key: SealingKey | undefined };

export type BackupReport = {
  manifest: Manifest;
  directory: string;
  /** Files the projects show that the bucket did not hold before the backup either: the backup is as the site is. */
  absent: string[];
};

export async function writeBackup(services: BackupServices, directory: string, now = new Date()): Promise<BackupReport> {
  const created = await prepareDirectory(directory);
  try {
    const { key } = services;
    const backupId = randomBytes(16).toString("hex");
    const sealFor = (file: string) => (key ? fileSeal(key, backupId, file) : undefined);
    await fs.mkdir(path.join(directory, IMAGES_FOLDER), { mode: 0o700 });
    const copied = new Map<string, Digest>();
    const vanished = new Set<string>();
    const copy = () => copyBucket(services.storage, directory, sealFor, copied, vanished);
    await copy();

    const rows = await createBackupFile(path.join(directory, DATABASE_FILE), sealFor(DATABASE_FILE));
    let snapshot;
    try {
      snapshot = await snapshotDatabase(services.database, { withoutDataOf: WITHOUT_DATA_OF, read: filesShownByProjects, write: rows.write });
    } catch (error) {
      await rows.abort();
      throw error;
    }
    const { facts, read: shown } = snapshot;
    const rowsDigest = await rows.finish();
    // Uploaded while the first pass ran, or after it and before the snapshot.
    await copy();
    const missing = shown.filter((name) => !copied.has(name));
    const removedMeanwhile = missing.filter((name) => vanished.has(name));
    if (removedMeanwhile.length > 0) {
      throw new BackupError(
        `${removedMeanwhile.length} image file${removedMeanwhile.length === 1 ? " was" : "s were"} removed from the bucket while the backup ran (a project was deleted or its images replaced); nothing of this backup was kept: run it again.`,
      );
    }

    const files = [...copied].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, digest]) => ({ name, ...digest }));
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: FORMAT_VERSION,
      backupId,
      createdAt: now.toISOString(),
      sealed: key !== undefined,
      schemaVersion: facts.migrations.at(-1)!,
      database: {
        dialect: services.database.dialect,
        file: DATABASE_FILE,
        ...rowsDigest,
        migrations: facts.migrations,
        counts: facts.counts,
        publicDataVersion: facts.publicDataVersion ?? null,
        withoutDataOf: [...WITHOUT_DATA_OF],
        sequences: facts.sequences,
      },
      images: { count: files.length, bytes: files.reduce((sum, file) => sum + file.bytes, 0), files },
    };
    const text = manifestText(manifest);
    const written: Manifest | Envelope = key
      ? {
          format: BACKUP_FORMAT,
          formatVersion: FORMAT_VERSION,
          sealed: { with: "BACKUP_KEY", cipher: CIPHER, keyId: key.id },
          manifest: Buffer.from(await sealText(text, manifestSeal(key))).toString("base64"),
        }
      : manifest;
    // Written last, whole or not at all: a folder without it is not a backup.
    await writeBackupFile(path.join(directory, `${MANIFEST_FILE}.partial`), new TextEncoder().encode(manifestText(written)), undefined);
    await fs.rename(path.join(directory, `${MANIFEST_FILE}.partial`), path.join(directory, MANIFEST_FILE));
    await syncDirectory(directory);
    return { manifest, directory, absent: missing };
  } catch (error) {
    // Nothing half-made is left to be mistaken for a backup.
    if (created) await fs.rm(directory, { recursive: true, force: true });
    else await emptyDirectory(directory);
    throw error;
  }
}

/** Creates the folder (0700), or takes an empty one; anything in it is refused. True when it was created here. */
async function prepareDirectory(directory: string): Promise<boolean> {
  let entries: string[];
  try {
    entries = await fs.readdir(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR") throw new BackupError(`${directory} is a file: give a new folder for the backup.`);
    if (code !== "ENOENT") throw error;
    await fs.mkdir(directory, { recursive: true, mode: 0o700 });
    return true;
  }
  if (entries.length > 0) {
    throw new BackupError(
      entries.includes(MANIFEST_FILE)
        ? `${directory} already holds a backup: a backup never overwrites one. Give a new folder.`
        : `${directory} is not empty: give a new folder (or an empty one) for the backup.`,
    );
  }
  return false;
}

async function emptyDirectory(directory: string): Promise<void> {
  for (const entry of await fs.readdir(directory).catch(() => [])) await fs.rm(path.join(directory, entry), { recursive: true, force: true });
}

/** Copies every object of the bucket not copied yet, through the bucket's own interface (disk or S3 alike). */
async function copyBucket(
  storage: ImageStorage,
  directory: string,
  sealFor: (file: string) => ReturnType<typeof fileSeal> | undefined,
  copied: Map<string, Digest>,
  vanished: Set<string>,
): Promise<void> {
  const names: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await storage.list({ limit: 100, offset, sortBy: { column: "name", order: "asc" } });
    names.push(...page.map((object) => object.name));
    if (page.length < 100) break;
  }
  for (const name of names) {
    if (copied.has(name)) continue;
    const data = await storage.read(name);
    if (!data) {
      vanished.add(name); // removed since it was listed: the check after the snapshot says whether it mattered
      continue;
    }
    const file = `${IMAGES_FOLDER}/${name}`;
    copied.set(name, await writeBackupFile(path.join(directory, file), data, sealFor(file)));
  }
}

/** Every file (image and its resized copies) a project in the snapshot shows. */
async function filesShownByProjects(query: SnapshotQuery): Promise<string[]> {
  const projects = await query("select before_image_url, after_image_url from renovation_projects");
  const shown = new Set(
    projects
      .flatMap((row) => [String(row.before_image_url), String(row.after_image_url)])
      .map(imageNameFromUrl)
      .filter((name) => name !== undefined),
  );
  const files: string[] = [];
  for (const row of await query("select name, variants from images")) {
    if (!shown.has(String(row.name))) continue;
    files.push(String(row.name), ...(JSON.parse(String(row.variants)) as ImageVariant[]).map((variant) => variant.name));
  }
  return files;
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await fs.open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
