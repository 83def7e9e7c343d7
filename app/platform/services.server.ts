import { statSync } from "node:fs";
import path from "node:path";
import { LocalDiskStorage, type ImageStorage, type ObjectNaming } from "./storage.server";
import { openDatabase, type Database } from "./db.server";
import type { Env } from "./env.server";
import type { Log } from "./log.server";
import { createSmtpMailer, type Mailer } from "./mailer.server";

/**
 * The one place that chooses backends: the database (SQLite file in DATA_DIR,
 * or PostgreSQL with DATABASE_URL), the image bucket (a folder in DATA_DIR
 * today; S3-compatible storage will be chosen here too) and e-mail (SMTP with
 * SMTP_URL; without it, none: enquiries are only stored). The server and
 * `npm run admin` both start from this.
 */
export type Backends = { database: Database; storage: ImageStorage; mailer: Mailer | undefined };

export function openBackends(
  env: Pick<Env, "dataDir" | "databaseUrl"> & Partial<Pick<Env, "mail">>,
  imageNaming: ObjectNaming,
  log: Log,
): Backends {
  warnIfOthersCanRead(env.dataDir, log);
  return {
    database: openDatabase(env, log),
    storage: new LocalDiskStorage(path.join(env.dataDir, "images"), imageNaming),
    mailer: env.mail ? createSmtpMailer(env.mail.smtpUrl, { insecure: env.mail.insecure }) : undefined,
  };
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
