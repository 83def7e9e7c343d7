import { z } from "zod";
import { isImageName } from "~/images/image-files";
import { migrations } from "~/platform/db/migrations";
import type { Seal, SealingKey } from "~/platform/backup/sealed-files.server";

/**
 * A backup is a folder: manifest.json (written last: a folder without it is
 * not a finished backup), the database's rows (database.jsonl, the same
 * format on SQLite and PostgreSQL: platform/backup/backup-rows.server.ts) and
 * images/<name> for every object of the bucket. The manifest says what each
 * file holds (size, SHA-256 of its content) and what the database held
 * (schema version, rows per table), so a backup can be checked without the
 * site, and a restore checks it all before it changes anything.
 *
 * With BACKUP_KEY, every file is sealed (encrypted and authenticated,
 * platform/backup/sealed-files.server.ts) and manifest.json is an envelope around
 * the sealed manifest: only the key's holder could have written any byte of
 * it (decisions 033 and 040).
 */
export const MANIFEST_FILE = "manifest.json";
export const IMAGES_FOLDER = "images";
export const DATABASE_FILE = "database.jsonl";
export const BACKUP_FORMAT = "property-site-backup";
export const FORMAT_VERSION = 2;
export const CIPHER = "libsodium secretstream xchacha20poly1305, 64 KiB chunks";
/** A manifest is a few hundred bytes per image; this is room for a million images. */
export const MANIFEST_LIMIT = 256 * 1024 * 1024;

/** The schemas, built at their first use: a server's start never reads a backup (decision 080). */
const schemas = once(() => {
  const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 in hex");
  const count = z.number().int().min(0);

  const manifest = z.strictObject({
    format: z.literal(BACKUP_FORMAT),
    formatVersion: z.literal(FORMAT_VERSION),
    /** Random, bound into every sealed chunk: a file of another backup is not this one's. */
    backupId: z.string().regex(/^[0-9a-f]{32}$/, "must be 32 hex digits"),
    createdAt: z.iso.datetime(),
    /** Whether the files are sealed with BACKUP_KEY (and this manifest was found inside its envelope). */
    sealed: z.boolean(),
    /** The last migration applied: the database's schema version. */
    schemaVersion: z.string().min(1),
    database: z.strictObject({
      /** The database it was made of; its rows restore into either. */
      dialect: z.enum(["sqlite", "postgres"]),
      file: z.literal(DATABASE_FILE),
      bytes: count,
      sha256,
      migrations: z.array(z.string().min(1)).min(1),
      counts: z.record(z.string(), count),
      publicDataVersion: count.nullable(),
      /** Tables kept without their rows (the sessions: a restore ends them anyway). */
      withoutDataOf: z.array(z.string()),
      /** The last number each counter handed out (site_schedule's ids), by table. */
      sequences: z.record(z.string(), count),
    }),
    images: z.strictObject({
      count,
      bytes: count,
      // Names the bucket hands out, and nothing else: a manifest never names a path.
      files: z.array(z.strictObject({ name: z.string().refine(isImageName, "is not an image name"), bytes: count, sha256 })),
    }),
  });

  /** manifest.json of a sealed backup. */
  const envelope = z.strictObject({
    format: z.literal(BACKUP_FORMAT),
    formatVersion: z.literal(FORMAT_VERSION),
    sealed: z.strictObject({ with: z.literal("BACKUP_KEY"), cipher: z.literal(CIPHER), keyId: z.string().regex(/^[0-9a-f]{16}$/) }),
    /** The manifest, sealed, in base64. */
    manifest: z.base64(),
  });
  return { manifest, envelope };
});

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

export const manifestSchema = () => schemas().manifest;

export type Manifest = z.infer<ReturnType<typeof manifestSchema>>;

/** manifest.json of a sealed backup. */
export const envelopeSchema = () => schemas().envelope;

export type Envelope = z.infer<ReturnType<typeof envelopeSchema>>;

/** manifest.json as written, byte for byte: a sealed backup's envelope is refused in any other spelling. */
export function manifestText(value: Manifest | Envelope): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** What each sealed file's chunks are bound to: the backup, and the file's name in it. */
export function fileSeal(key: SealingKey, backupId: string, file: string): Seal {
  return { key, label: `${BACKUP_FORMAT}/${FORMAT_VERSION} ${backupId} ${file}` };
}

/** The sealed manifest's binding: the envelope's own fields, so none of them can be changed either. */
export function manifestSeal(key: SealingKey): Seal {
  return { key, label: `${BACKUP_FORMAT}/${FORMAT_VERSION} ${MANIFEST_FILE} ${CIPHER} ${key.id}` };
}

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
