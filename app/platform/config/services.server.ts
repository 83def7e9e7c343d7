import { statSync } from "node:fs";
import path from "node:path";
import { LocalDiskStorage, type ImageStorage, type ObjectNaming } from "../storage/storage.server";
import { openDatabase, type Database } from "../db/db.server";
import type { Env } from "./env.server";
import { S3ImageStorage } from "../storage/s3-storage.server";
import type { Log } from "../observe/log.server";
import { createSmtpMailer, type Mailer } from "../mail/mailer.server";

/**
 * The one place that chooses backends: the database (SQLite file in DATA_DIR,
 * or PostgreSQL with DATABASE_URL), the image bucket (a folder in DATA_DIR
 * today; S3-compatible storage will be chosen here too) and e-mail (SMTP with
 * SMTP_URL; without it, none: enquiries are only stored). The server and
 * `npm run admin` both start from this.
 */
export type Backends = { database: Database; storage: ImageStorage; mailer: Mailer | undefined };

export function openBackends(
  env: Pick<Env, "dataDir" | "databaseUrl"> & Partial<Pick<Env, "mail" | "s3" | "databasePool">>,
  imageNaming: ObjectNaming,
  log: Log,
  { newSqliteDatabase }: { newSqliteDatabase?: string | undefined } = {},
): Backends {
  warnIfOthersCanRead(env.dataDir, log);
  return {
    database: openDatabase({ dataDir: env.dataDir, databaseUrl: env.databaseUrl, pool: env.databasePool, newSqliteDatabase }, log),
    storage: openImageStorage(env, imageNaming, env.s3 ? "s3" : "disk"),
    mailer: env.mail ? createSmtpMailer(env.mail.smtpUrl, { insecure: env.mail.insecure }) : undefined,
  };
}

/**
 * One image bucket: "disk" is DATA_DIR/images, "s3" the bucket of S3_BUCKET.
 * openBackends takes the one the settings choose; `npm run admin --
 * migrate-images` opens both to copy from one to the other.
 */
export function openImageStorage(env: Pick<Env, "dataDir"> & Partial<Pick<Env, "s3">>, imageNaming: ObjectNaming, where: "disk" | "s3"): ImageStorage {
  if (where === "disk") return new LocalDiskStorage(path.join(env.dataDir, "images"), imageNaming);
  if (!env.s3) throw new Error("S3_BUCKET is not set");
  return new S3ImageStorage(env.s3, imageNaming);
}

/**
 * DATA_DIR holds the enquiries and the uploads: what the server creates there
 * is its user's alone (0700 folders, 0600 files). A folder that existed
 * before with a wider mode is left as it is, and said so once.
 */
function warnIfOthersCanRead(dataDir: string, log: Log): void {
  let mode: number;
  try {
    mode = statSync(dataDir).mode & 0o777;
  } catch {
    return; // Not there yet: it will be created private.
  }
  if (mode & 0o077) {
    log.warn(
      `DATA_DIR ${dataDir} can be read by other users of this machine (mode ${mode.toString(8)}); \`chmod 700 ${dataDir}\` keeps the enquiries and images private.`,
    );
  }
}
