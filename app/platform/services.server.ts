import path from "node:path";
import { LocalDiskStorage, type ImageStorage } from "~/storage/storage.server";
import { openDatabase, type Database } from "./db.server";
import type { Env } from "./env.server";
import { createSmtpMailer, type Mailer } from "./mailer.server";

/**
 * The one place that chooses backends: the database (SQLite file in DATA_DIR,
 * or PostgreSQL with DATABASE_URL), the image bucket (a folder in DATA_DIR
 * today; S3-compatible storage will be chosen here too) and e-mail (SMTP with
 * SMTP_URL; without it, none: enquiries are only stored). The server and
 * `npm run admin` both start from this.
 */
export type Backends = { database: Database; storage: ImageStorage; mailer: Mailer | undefined };

export function openBackends(env: Pick<Env, "dataDir" | "databaseUrl"> & Partial<Pick<Env, "mail">>): Backends {
  return {
    database: openDatabase(env),
    storage: new LocalDiskStorage(path.join(env.dataDir, "images")),
    mailer: env.mail ? createSmtpMailer(env.mail.smtpUrl, { insecure: env.mail.insecure }) : undefined,
  };
}
