import { randomBytes } from "node:crypto";
import { cookieName, readCookie, setCookie, type CookieSettings } from "~/platform/http/cookies.server";
import type { Db } from "~/platform/db/db.server";
import type { Role } from "./roles";
import { hashToken } from "./sessions.server";

/**
 * Between the password and the two-step code: a row that says "this member's
 * password was right", for PENDING_SIGN_IN_MS, named by a random 256-bit
 * token in a cookie (its SHA-256 in the row, as for sessions). It grants
 * nothing but the right to send a code; it ends when the code is right, after
 * MAX_CODES_PER_PENDING wrong codes, or when its time is up.
 */
export const PENDING_SIGN_IN_MS = 5 * 60 * 1000;
export const MAX_CODES_PER_PENDING = 5;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function pendingCookieName(settings: CookieSettings): string {
  return cookieName("admin_pending_sign_in", settings);
}

/** Set-Cookie for the pending state: SameSite=Strict, only the sign-in form of this site needs it. */
export function pendingSignInCookie(token: string, settings: CookieSettings, maxAgeSeconds = PENDING_SIGN_IN_MS / 1000): string {
  return setCookie(pendingCookieName(settings), token, settings, { maxAgeSeconds, sameSite: "strict" });
}

export function clearedPendingSignInCookie(settings: CookieSettings): string {
  return pendingSignInCookie("", settings, 0);
}

/** The pending token of a request's Cookie header, if it has a well-formed one. */
export function readPendingSignInToken(request: Request, settings: CookieSettings): string | undefined {
  const value = readCookie(request.headers.get("cookie"), pendingCookieName(settings));
  return value !== undefined && TOKEN_PATTERN.test(value) ? value : undefined;
}

export async function createPendingSignIn(db: Db, adminId: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PENDING_SIGN_IN_MS);
  // Old ones of this member are of no use any more (and expired ones of anybody's).
  await db
    .deleteFrom("pending_sign_ins")
    .where((eb) => eb.or([eb("admin_id", "=", adminId), eb("expires_at", "<=", now.toISOString())]))
    .execute();
  await db
    .insertInto("pending_sign_ins")
    .values({ id: hashToken(token), admin_id: adminId, created_at: now.toISOString(), expires_at: expiresAt.toISOString() })
    .execute();
  return { token, expiresAt };
}

export type PendingSignIn = { id: string; adminId: string; email: string; role: Role; failedCodes: number };

/** The live pending state a token names; undefined when there is none (never made, used, ended or expired). */
export async function findPendingSignIn(db: Db, token: string, now: Date): Promise<PendingSignIn | undefined> {
  const row = await db
    .selectFrom("pending_sign_ins as p")
    .innerJoin("admin_users as u", "u.id", "p.admin_id")
    .select(["p.id", "p.admin_id", "p.failed_codes", "u.email", "u.role"])
    .where("p.id", "=", hashToken(token))
    .where("p.expires_at", ">", now.toISOString())
    .executeTakeFirst();
  return row && { id: row.id, adminId: row.admin_id, email: row.email, role: row.role, failedCodes: Number(row.failed_codes) };
}

/** One more wrong code; the state ends at the last allowed one. Returns the codes left. */
export async function countWrongCode(db: Db, pending: PendingSignIn): Promise<number> {
  const row = await db
    .updateTable("pending_sign_ins")
    .set((eb) => ({ failed_codes: eb("failed_codes", "+", 1) }))
    .where("id", "=", pending.id)
    .returning("failed_codes")
    .executeTakeFirst();
  const wrong = row ? Number(row.failed_codes) : MAX_CODES_PER_PENDING;
  if (wrong >= MAX_CODES_PER_PENDING) await db.deleteFrom("pending_sign_ins").where("id", "=", pending.id).execute();
  return Math.max(0, MAX_CODES_PER_PENDING - wrong);
}

/** Ends the pending state; true for exactly one caller, so one pending state makes at most one session. */
export async function takePendingSignIn(db: Db, pending: PendingSignIn): Promise<boolean> {
  const result = await db.deleteFrom("pending_sign_ins").where("id", "=", pending.id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
