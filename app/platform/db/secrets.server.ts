import { randomBytes } from "node:crypto";
import type { Db } from "./db.server";

/**
 * Server secrets (signing keys) kept in the database, so every instance on it
 * agrees: created by whichever instance asks first (the others' inserts do
 * nothing), then read back, and kept by this object. A failure (database
 * down) is not kept: the next call tries again. One per boot (app/boot.server.ts).
 */
export type Secrets = { key(name: string): Promise<Buffer> };

export function createSecrets(db: Db): Secrets {
  const keys = new Map<string, Promise<Buffer>>();
  return {
    key(name) {
      let key = keys.get(name);
      if (!key) {
        const loading = loadKey(db, name);
        loading.catch(() => keys.get(name) === loading && keys.delete(name));
        keys.set(name, loading);
        key = loading;
      }
      return key;
    },
  };
}

/**
 * A key read (or, the first time, made) through `db` itself, uncached: for
 * work inside a caller's transaction, where the cached Secrets' own queries
 * would wait on that transaction (SQLite has one connection).
 */
export async function loadKey(db: Db, name: string): Promise<Buffer> {
  const existing = await db.selectFrom("app_secrets").select("value").where("name", "=", name).executeTakeFirst();
  if (existing) return Buffer.from(existing.value, "base64url");
  await db
    .insertInto("app_secrets")
    .values({ name, value: randomBytes(32).toString("base64url") })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return Buffer.from(row.value, "base64url");
}
