import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { z } from "zod";
import { isImageName } from "~/images/image-files";
import { migrations } from "~/platform/migrations";

/**
 * A backup is a folder: manifest.json (written last: a folder without it is
 * not a finished backup), the database's snapshot (database.sqlite, or
 * database.dump from pg_dump -Fc) and images/<name> for every object of the
 * bucket. The manifest says what each file must be (size, SHA-256) and what
 * the database held (schema version, rows per table), so a backup can be
 * checked without the site, and a restore checks it all before it changes
 * anything (decision 033).
 */
export const MANIFEST_FILE = "manifest.json";
export const IMAGES_FOLDER = "images";
export const DATABASE_FILES = { sqlite: "database.sqlite", postgres: "database.dump" } as const;
export const BACKUP_FORMAT = "property-site-backup";
/** A manifest is a few hundred bytes per image; this is room for a million images. */
export const MANIFEST_LIMIT = 256 * 1024 * 1024;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 in hex");
const count = z.number().int().min(0);

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.literal(1),
  createdAt: z.iso.datetime(),
  /** The last migration applied: the database's schema version. */
  schemaVersion: z.string().min(1),
  database: z.object({
    dialect: z.enum(["sqlite", "postgres"]),
    file: z.enum([DATABASE_FILES.sqlite, DATABASE_FILES.postgres]),
    bytes: count,
    sha256,
    migrations: z.array(z.string().min(1)).min(1),
    counts: z.record(z.string(), count),
    publicDataVersion: count.nullable(),
    /** Tables kept without their rows (the sessions: a restore ends them anyway). */
    withoutDataOf: z.array(z.string()),
  }),
  images: z.object({
    count,
    bytes: count,
    // Names the bucket hands out, and nothing else: a manifest never names a path.
    files: z.array(z.object({ name: z.string().refine(isImageName, "is not an image name"), bytes: count, sha256 })),
  }),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** The migrations this code knows, in order; its schema version is the last. */
export const CODE_MIGRATIONS = Object.keys(migrations);
export const CODE_SCHEMA_VERSION = CODE_MIGRATIONS.at(-1)!;

/**
 * Why this code cannot restore a backup of these migrations, or undefined
 * when it can: its migrations must be the first of this code's, in order.
 */
export function schemaProblem(backupMigrations: readonly string[]): string | undefined {
  const last = backupMigrations.at(-1);
  const unknown = backupMigrations.find((name) => !CODE_MIGRATIONS.includes(name));
  if (unknown !== undefined || backupMigrations.length > CODE_MIGRATIONS.length) {
    return `The backup's schema (${last}) is newer than this code's (${CODE_SCHEMA_VERSION}): restore it with the version of the site that made it, or a newer one.`;
  }
  if (backupMigrations.some((name, index) => CODE_MIGRATIONS[index] !== name)) {
    return `The backup's migrations (${backupMigrations.join(", ")}) are not those of this code in order: it was not made by this site.`;
  }
  return undefined;
}

/** A file's size and SHA-256, read in a stream. */
export async function fileDigest(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest("hex") };
}

export function digestOf(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
