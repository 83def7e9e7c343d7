import path from "node:path";
import { LocalDiskStorage, type ImageStorage } from "~/storage/storage.server";
import { openDatabase, type Database } from "./db.server";
import type { Env } from "./env.server";

/**
 * The one place that chooses backends: the database (SQLite file in DATA_DIR,
 * or PostgreSQL with DATABASE_URL) and the image bucket (a folder in DATA_DIR
 * today; S3-compatible storage will be chosen here too). The server and
 * `npm run admin` both start from this.
 */
export type Backends = { database: Database; storage: ImageStorage };

export function openBackends(env: Pick<Env, "dataDir" | "databaseUrl">): Backends {
  return {
    database: openDatabase(env),
    storage: new LocalDiskStorage(path.join(env.dataDir, "images")),
  };
}
