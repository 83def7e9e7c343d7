import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "~/platform/db.server";
import { secretKey } from "~/platform/secrets.server";

/**
 * The contact form's time trap. The page carries a token saying when it was
 * rendered, signed so that it cannot be backdated; a form sent back sooner
 * than most people could fill it in is marked as possible spam (spam.server.ts).
 * No cookie, no third party.
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

/**
 * Never throws: whatever arrives in the field is checked as a token. Tokens
 * are stamped and judged on the database's clock (platform/clock.server.ts);
 * `toleranceMs`, how far that clock's reading may be off, is given to the
 * sender.
 */
export function checkFormToken(key: Buffer, token: unknown, now = new Date(), toleranceMs = 0): FormTokenCheck {
  if (token === undefined || token === null || token === "") return "no-token";
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return "bad-token";
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return "bad-token";
  const [, issuedAt, signed] = match as unknown as [string, string, string];
  const given = Buffer.from(signed, "base64url");
  const expected = signature(key, issuedAt);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "bad-token";
  // No upper limit: a person may leave the tab open for days before sending.
  return now.getTime() + toleranceMs - Number(issuedAt) * 1000 < MIN_FORM_AGE_MS ? "too-fast" : "ok";
}

/** The signing key, one per database so every instance on it agrees. */
export function formTokenKey(db: Db): Promise<Buffer> {
  return secretKey(db, SECRET_NAME);
}

export async function issueFormToken(db: Db, now = new Date()): Promise<string> {
  return signFormToken(await formTokenKey(db), now);
}

export async function verifyFormToken(db: Db, token: unknown, now = new Date(), toleranceMs = 0): Promise<FormTokenCheck> {
  return checkFormToken(await formTokenKey(db), token, now, toleranceMs);
}
