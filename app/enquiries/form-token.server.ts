import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "~/platform/db.server";

/**
 * The contact form's time trap. The page carries a token saying when it was
 * rendered, signed so that it cannot be backdated; a form sent back sooner
 * than a person could have filled it in is spam. No cookie, no third party.
 *
 * A token is `<issued-at, whole seconds since the epoch>.<HMAC-SHA256 of it, base64url>`.
 */

/** A person needs longer than this to fill in the form; a script does not. */
export const MIN_FORM_AGE_MS = 3_000;

const SECRET_NAME = "form-token";
/** Anything longer is not one of ours: refused before any work is done on it. */
const MAX_TOKEN_LENGTH = 64;
const TOKEN_PATTERN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export type FormTokenCheck = "ok" | "no-token" | "bad-token" | "too-fast";

/**
 * Rounded up to the next whole second: the landing page is rendered once per
 * version of its loader data (document-cache.server.ts), so the token changes
 * it at most once a second, and a token never claims to be older than it is.
 */
export function issuedAtSeconds(now: Date): number {
  return Math.ceil(now.getTime() / 1000);
}

function signature(key: Buffer, issuedAt: string): Buffer {
  return createHmac("sha256", key).update(`contact-form:${issuedAt}`).digest();
}

/** The last token signed with each key: every page served within one second carries the same one. */
const lastSigned = new WeakMap<Buffer, { issuedAt: number; token: string }>();

export function signFormToken(key: Buffer, now = new Date()): string {
  const issuedAt = issuedAtSeconds(now);
  const last = lastSigned.get(key);
  if (last?.issuedAt === issuedAt) return last.token;
  const token = `${issuedAt}.${signature(key, String(issuedAt)).toString("base64url")}`;
  lastSigned.set(key, { issuedAt, token });
  return token;
}

/** Never throws: whatever arrives in the field is checked as a token. */
export function checkFormToken(key: Buffer, token: unknown, now = new Date()): FormTokenCheck {
  if (token === undefined || token === null || token === "") return "no-token";
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return "bad-token";
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return "bad-token";
  const [, issuedAt, signed] = match as unknown as [string, string, string];
  const given = Buffer.from(signed, "base64url");
  const expected = signature(key, issuedAt);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "bad-token";
  // No upper limit: a person may leave the tab open for days before sending.
  return now.getTime() - Number(issuedAt) * 1000 < MIN_FORM_AGE_MS ? "too-fast" : "ok";
}

const keys = new WeakMap<Db, Promise<Buffer>>();

/**
 * The signing key, one per database so every instance on it agrees: created
 * by whichever instance asks first (the others' inserts do nothing), then
 * read back. Kept in memory afterwards.
 */
export function formTokenKey(db: Db): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = loadKey(db);
    // A failure (database down) is not kept: the next request tries again.
    const loading = key;
    loading.catch(() => keys.get(db) === loading && keys.delete(db));
    keys.set(db, loading);
  }
  return key;
}

async function loadKey(db: Db): Promise<Buffer> {
  await db
    .insertInto("app_secrets")
    .values({ name: SECRET_NAME, value: randomBytes(32).toString("base64url") })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", SECRET_NAME).executeTakeFirstOrThrow();
  return Buffer.from(row.value, "base64url");
}

export async function issueFormToken(db: Db, now = new Date()): Promise<string> {
  return signFormToken(await formTokenKey(db), now);
}

export async function verifyFormToken(db: Db, token: unknown, now = new Date()): Promise<FormTokenCheck> {
  return checkFormToken(await formTokenKey(db), token, now);
}
