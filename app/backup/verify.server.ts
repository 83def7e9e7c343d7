import fs from "node:fs/promises";
import path from "node:path";
import { BackupRowsError, readRows } from "~/platform/backup/backup-rows.server";
import { DatabaseBackupError, knownSchema } from "~/platform/backup/database-backup.server";
import { SealedFileError, openText, readBackupFile, type Seal, type SealingKey } from "~/platform/backup/sealed-files.server";
import {
  BACKUP_FORMAT,
  DATABASE_FILE,
  IMAGES_FOLDER,
  MANIFEST_FILE,
  MANIFEST_LIMIT,
  envelopeSchema,
  fileSeal,
  manifestSchema,
  manifestSeal,
  manifestText,
  schemaProblem,
  type Manifest,
} from "./manifest.server";

/**
 * `npm run admin -- verify-backup DIR`, and the first step of every restore:
 * the manifest is read and checked (opened with BACKUP_KEY when the backup is
 * sealed), then every file against it (size and SHA-256 of its content, each
 * sealed chunk authenticated), then the rows themselves: only this code's
 * tables and columns, of the schema version the manifest gives, every value
 * of its column's type, as many rows as the manifest says. Nothing of the
 * site is touched, or even opened (decisions 033 and 040).
 */
export type Verified = { manifest: Manifest; problems: string[] } | { manifest: undefined; problems: string[] };

/** Problems past this many are counted, not listed. */
const LISTED = 10;

export async function verifyBackup(directory: string, key: SealingKey | undefined): Promise<Verified> {
  const read = await readManifest(directory, key);
  if (!read.manifest) return read;
  const { manifest } = read;
  const problems: string[] = [];
  const schema = schemaProblem(manifest.database.migrations);
  if (schema) problems.push(schema);
  if (manifest.schemaVersion !== manifest.database.migrations.at(-1)) problems.push(`${MANIFEST_FILE}: schemaVersion is not the last migration.`);
  const sealFor = (file: string) => (manifest.sealed && key ? fileSeal(key, manifest.backupId, file) : undefined);

  const fileProblems: string[] = [];
  const names = new Set<string>();
  for (const image of manifest.images.files) {
    if (names.has(image.name)) fileProblems.push(`${MANIFEST_FILE} names ${image.name} twice.`);
    names.add(image.name);
    const file = `${IMAGES_FOLDER}/${image.name}`;
    const problem = await fileProblem(directory, file, image, sealFor(file));
    if (problem) fileProblems.push(problem);
  }
  if (manifest.images.count !== manifest.images.files.length) fileProblems.push(`${MANIFEST_FILE}: the image count is not the number of images listed.`);
  problems.push(...fileProblems.slice(0, LISTED));
  if (fileProblems.length > LISTED) problems.push(`… and ${fileProblems.length - LISTED} more files that do not match.`);

  // The rows are read only for a schema this code knows.
  if (!schema) problems.push(...(await rowsProblems(directory, manifest, sealFor(DATABASE_FILE))));
  return { manifest, problems };
}

async function readManifest(directory: string, key: SealingKey | undefined): Promise<Verified> {
  const manifestFile = path.join(directory, MANIFEST_FILE);
  const refuse = (problem: string): Verified => ({ manifest: undefined, problems: [problem] });
  let text: string;
  try {
    const stats = await fs.lstat(manifestFile);
    if (!stats.isFile()) return refuse(`${manifestFile} is not a file.`);
    if (stats.size > MANIFEST_LIMIT) return refuse(`${manifestFile} is larger than a manifest can be.`);
    text = await fs.readFile(manifestFile, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return refuse(`${directory} holds no ${MANIFEST_FILE}: it is not a backup, or one that did not finish.`);
    return refuse(`Could not read ${manifestFile}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refuse(`${MANIFEST_FILE} is not JSON.`);
  }
  const { format, formatVersion, sealed } = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (format === BACKUP_FORMAT && formatVersion === 1) {
    return refuse(
      "This backup was made by an earlier version of the site, whose restore ran the schema found in the backup's own database file; this version restores only rows it reads itself, and cannot restore it. Make a new backup with this version.",
    );
  }

  if (typeof sealed === "object" && sealed !== null) {
    const envelope = envelopeSchema().safeParse(parsed);
    if (!envelope.success || manifestText(envelope.data) !== text) {
      return refuse(`${MANIFEST_FILE} is not the envelope of a sealed backup as this site writes it: it was changed or damaged.`);
    }
    const { keyId } = envelope.data.sealed;
    if (!key) {
      return refuse(
        `This backup is encrypted and signed with a BACKUP_KEY (key id ${keyId}): set BACKUP_KEY to that key to check or restore it. Without the key nothing of it can be read.`,
      );
    }
    if (key.id !== keyId)
      return refuse(`This backup was sealed with another BACKUP_KEY (key id ${keyId}; the one set is ${key.id}): set the key it was made with.`);
    const opened = await openText(Buffer.from(envelope.data.manifest, "base64"), manifestSeal(key));
    if (opened === undefined) return refuse(`${MANIFEST_FILE} does not authenticate with BACKUP_KEY: it was changed or damaged since it was written.`);
    return checkedManifest(opened, true);
  }
  if (key) {
    return refuse(
      "This backup is not sealed, and BACKUP_KEY is set: nothing shows who wrote it. To check or restore it anyway, run the command without BACKUP_KEY.",
    );
  }
  return checkedManifest(text, false);
}

function checkedManifest(text: string, sealed: boolean): Verified {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { manifest: undefined, problems: [`The sealed ${MANIFEST_FILE} is not JSON.`] };
  }
  const checked = manifestSchema().safeParse(parsed);
  if (!checked.success) {
    return {
      manifest: undefined,
      problems: checked.error.issues.slice(0, LISTED).map((issue) => `${MANIFEST_FILE}: ${issue.path.join(".") || "(top)"} ${issue.message}`),
    };
  }
  if (checked.data.sealed !== sealed)
    return {
      manifest: undefined,
      problems: [`${MANIFEST_FILE} says the backup is ${checked.data.sealed ? "" : "not "}sealed, and it is${sealed ? "" : " not"}.`],
    };
  return { manifest: checked.data, problems: [] };
}

async function fileProblem(directory: string, file: string, expected: { bytes: number; sha256: string }, seal: Seal | undefined): Promise<string | undefined> {
  const full = path.join(directory, file);
  try {
    // lstat: a symbolic link in a backup is not followed out of it.
    if (!(await fs.lstat(full)).isFile()) return `${file} is not a file.`;
    for await (const chunk of readBackupFile(full, file, expected, seal)) void chunk;
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return `${file} is missing.`;
    if (error instanceof SealedFileError) return error.message;
    return `${file} cannot be read: ${(error as Error).message}`;
  }
}

/** The rows against this code's schema of the backup's version, and against the manifest's counts. */
async function rowsProblems(directory: string, manifest: Manifest, seal: Seal | undefined): Promise<string[]> {
  const file = path.join(directory, DATABASE_FILE);
  const { database } = manifest;
  const counts: Record<string, number> = {};
  const applied: string[] = [];
  try {
    if (!(await fs.lstat(file)).isFile()) return [`${DATABASE_FILE} is not a file.`];
    const schema = await knownSchema(database.migrations);
    for await (const event of readRows(readBackupFile(file, DATABASE_FILE, database, seal), schema)) {
      if (event.kind === "end") counts[event.table.name] = event.rows;
      if (event.kind === "rows" && event.table.name === "kysely_migration") {
        const name = event.columns.findIndex((column) => column.name === "name");
        applied.push(...event.rows.map((row) => String(row[name])));
      }
    }
  } catch (error) {
    // Rows that are not this site's: said as such, unless the file is not the one the manifest describes.
    if (error instanceof BackupRowsError) return [(await fileProblem(directory, DATABASE_FILE, database, seal)) ?? error.message];
    if (error instanceof SealedFileError || error instanceof DatabaseBackupError) return [error.message];
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [`${DATABASE_FILE} is missing.`];
    return [`${DATABASE_FILE} cannot be read: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  if (applied.join("\n") !== database.migrations.join("\n")) problems.push("The rows' migrations are not the manifest's.");
  const { kysely_migration: _, ...tables } = counts;
  for (const table of new Set([...Object.keys(database.counts), ...Object.keys(tables)])) {
    if (tables[table] !== database.counts[table]) {
      problems.push(`The rows of the backup hold ${tables[table] ?? "no"} rows of ${table}; the manifest says ${database.counts[table] ?? "none"}.`);
    }
  }
  for (const table of Object.keys(database.sequences)) {
    if (!(table in tables)) problems.push(`${MANIFEST_FILE} gives a counter of ${table}, a table the backup does not have.`);
  }
  return problems;
}
