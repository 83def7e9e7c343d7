import fs from "node:fs/promises";
import path from "node:path";
import { DatabaseBackupError, inspectSnapshot } from "~/platform/database-backup.server";
import { PgToolError } from "~/platform/pg-tools.server";
import { IMAGES_FOLDER, MANIFEST_FILE, MANIFEST_LIMIT, fileDigest, manifestSchema, schemaProblem, type Manifest } from "./manifest.server";

/**
 * `npm run admin -- verify-backup DIR`, and the first step of every restore:
 * the manifest is read and checked, then every file against it (size and
 * SHA-256), then the database file itself (SQLite: its integrity and rows per
 * table; PostgreSQL: pg_restore reads the dump's table of contents). Nothing
 * of the site is touched, or even opened.
 */
export type Verified = { manifest: Manifest; problems: string[] } | { manifest: undefined; problems: string[] };

/** Problems past this many are counted, not listed. */
const LISTED = 10;

export async function verifyBackup(directory: string): Promise<Verified> {
  const manifestFile = path.join(directory, MANIFEST_FILE);
  let text: string;
  try {
    const stats = await fs.lstat(manifestFile);
    if (!stats.isFile()) return { manifest: undefined, problems: [`${manifestFile} is not a file.`] };
    if (stats.size > MANIFEST_LIMIT) return { manifest: undefined, problems: [`${manifestFile} is larger than a manifest can be.`] };
    text = await fs.readFile(manifestFile, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { manifest: undefined, problems: [`${directory} holds no ${MANIFEST_FILE}: it is not a backup, or one that did not finish.`] };
    }
    return { manifest: undefined, problems: [`Could not read ${manifestFile}: ${(error as Error).message}`] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { manifest: undefined, problems: [`${MANIFEST_FILE} is not JSON.`] };
  }
  const checked = manifestSchema.safeParse(parsed);
  if (!checked.success) {
    return {
      manifest: undefined,
      problems: checked.error.issues.slice(0, LISTED).map((issue) => `${MANIFEST_FILE}: ${issue.path.join(".") || "(top)"} ${issue.message}`),
    };
  }
  const manifest = checked.data;
  const problems: string[] = [];
  const schema = schemaProblem(manifest.database.migrations);
  if (schema) problems.push(schema);
  if (manifest.schemaVersion !== manifest.database.migrations.at(-1)) problems.push(`${MANIFEST_FILE}: schemaVersion is not the last migration.`);

  const fileProblems: string[] = [];
  const databaseFile = path.join(directory, manifest.database.file);
  const databaseProblem = await fileProblem(databaseFile, manifest.database.file, manifest.database);
  if (databaseProblem) fileProblems.push(databaseProblem);

  const names = new Set<string>();
  for (const image of manifest.images.files) {
    if (names.has(image.name)) fileProblems.push(`${MANIFEST_FILE} names ${image.name} twice.`);
    names.add(image.name);
    const problem = await fileProblem(path.join(directory, IMAGES_FOLDER, image.name), `${IMAGES_FOLDER}/${image.name}`, image);
    if (problem) fileProblems.push(problem);
  }
  if (manifest.images.count !== manifest.images.files.length) fileProblems.push(`${MANIFEST_FILE}: the image count is not the number of images listed.`);
  problems.push(...fileProblems.slice(0, LISTED));
  if (fileProblems.length > LISTED) problems.push(`… and ${fileProblems.length - LISTED} more files that do not match.`);

  // The database file is read only when it is the one the manifest describes.
  if (!databaseProblem) problems.push(...(await databaseProblems(manifest, databaseFile)));
  return { manifest, problems };
}

async function fileProblem(file: string, label: string, expected: { bytes: number; sha256: string }): Promise<string | undefined> {
  try {
    // lstat: a symbolic link in a backup is not followed out of it.
    const stats = await fs.lstat(file);
    if (!stats.isFile()) return `${label} is not a file.`;
    if (stats.size !== expected.bytes) return `${label} has ${stats.size} bytes; the manifest says ${expected.bytes}.`;
    const { sha256 } = await fileDigest(file);
    if (sha256 !== expected.sha256) return `${label} does not match its checksum: it was changed or damaged.`;
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return `${label} is missing.`;
    return `${label} cannot be read: ${(error as Error).message}`;
  }
}

async function databaseProblems(manifest: Manifest, file: string): Promise<string[]> {
  let contents;
  try {
    contents = await inspectSnapshot(manifest.database.dialect, file);
  } catch (error) {
    if (error instanceof DatabaseBackupError || error instanceof PgToolError) return [error.message];
    throw error;
  }
  const problems: string[] = [];
  const expected = manifest.database.counts;
  if (contents.dialect === "sqlite") {
    const { facts } = contents;
    if (facts.migrations.join() !== manifest.database.migrations.join()) problems.push("The database file's migrations are not the manifest's.");
    for (const table of new Set([...Object.keys(expected), ...Object.keys(facts.counts)])) {
      if (facts.counts[table] !== expected[table]) {
        problems.push(`The database file holds ${facts.counts[table] ?? "no"} rows of ${table}; the manifest says ${expected[table] ?? "none"}.`);
      }
    }
    return problems;
  }
  for (const [table, rows] of Object.entries(expected)) {
    if (rows > 0 && !contents.tablesWithData.has(table)) problems.push(`The dump holds no rows of ${table}; the manifest says ${rows}.`);
  }
  return problems;
}
