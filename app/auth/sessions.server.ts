import { createHash, randomBytes } from "node:crypto";
import { cookieName, readCookie, setCookie, type CookieSettings } from "~/platform/http/cookies.server";
import type { Db } from "~/platform/db/db.server";
import { isDiskFull } from "~/platform/db/database-health.server";
import { toIsoString } from "~/platform/db/db-values";
import type { Role } from "./roles";
import { audit } from "~/audit/audit.server";
import { memberActor } from "~/audit/actor";
import { inTransaction } from "~/platform/db/transactions.server";
import { describeClient } from "./client-info.server";

/**
 * Server-side sessions. The cookie holds a random 256-bit token; the database
 * holds its SHA-256, the admin, and the times that bound its life. Deleting
 * the row ends the session at once, on every instance.
 */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often: a write per page view would be waste. */
const TOUCH_EVERY_MS = 60 * 1000;

export type AdminSession = {
  /** The row's id (the token's hash), e.g. to keep this session when ending the others. */
  sessionId: string;
  adminId: string;
  email: string;
  /** The member's role as it is now: read at every request, so a change applies at the next one. */
  role: Role;
  expiresAt: Date;
  /** The admin's sign-in before this session's (ISO), and the failed sign-ins between the two. */
  previousSignInAt: string | null;
  failedSignInsBefore: number;
};

export function sessionCookieName(settings: CookieSettings): string {
  return cookieName("admin_session", settings);
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The session token from a request's Cookie header, if it has a well-formed one. */
export function readSessionToken(request: Request, settings: CookieSettings): string | undefined {
  const value = readCookie(request.headers.get("cookie"), sessionCookieName(settings));
  return value !== undefined && TOKEN_PATTERN.test(value) ? value : undefined;
}

export function sessionCookie(token: string, settings: CookieSettings, maxAgeSeconds: number): string {
  return setCookie(sessionCookieName(settings), token, settings, { maxAgeSeconds, sameSite: "lax" });
}

export function clearedSessionCookie(settings: CookieSettings): string {
  return sessionCookie("", settings, 0);
}

/** Where a session was signed in from: shown in the member's list of sessions. */
export type SessionClient = { ip?: string; userAgent?: string | null };

/** Starts a session for the admin and returns the cookie's token (never stored as is). */
export async function createSession(
  db: Db,
  adminId: string,
  now = new Date(),
  history: { previousSignInAt: string | null; failedSignIns: number } = { previousSignInAt: null, failedSignIns: 0 },
  client: SessionClient = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const { browser, system } = describeClient(client.userAgent);
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  await db
    .insertInto("admin_sessions")
    .values({
      id: hashToken(token),
      admin_id: adminId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      previous_sign_in_at: history.previousSignInAt,
      failed_sign_ins_before: history.failedSignIns,
      browser,
      system,
      client_ip: client.ip ?? null,
    })
    .execute();
  return { token, expiresAt };
}

/**
 * The live session a token stands for, or undefined when there is none: never
 * issued, signed out, past its absolute lifetime, or idle for too long.
 * Expired rows are deleted on the way.
 */
export async function findSession(db: Db, token: string, now = new Date()): Promise<AdminSession | undefined> {
  const id = hashToken(token);
  const row = await db
    .selectFrom("admin_sessions as s")
    .innerJoin("admin_users as u", "u.id", "s.admin_id")
    .select(["s.id", "s.admin_id", "s.last_seen_at", "s.expires_at", "s.previous_sign_in_at", "s.failed_sign_ins_before", "u.email", "u.role"])
    .where("s.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const lastSeen = new Date(row.last_seen_at).getTime();
  const expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= now.getTime() || lastSeen + SESSION_IDLE_MS <= now.getTime()) {
    await deleteSession(db, id);
    return undefined;
  }
  if (now.getTime() - lastSeen >= TOUCH_EVERY_MS) {
    // Best effort: on a full disk the admin still gets in, to the dashboard that says so. Missing
    // a touch costs nothing until SESSION_IDLE_MS, and the next page view tries again.
    await db
      .updateTable("admin_sessions")
      .set({ last_seen_at: now.toISOString() })
      .where("id", "=", id)
      .execute()
      .catch((error: unknown) => {
        if (!isDiskFull(error)) throw error;
      });
  }
  return {
    sessionId: id,
    adminId: row.admin_id,
    email: row.email,
    role: row.role,
    expiresAt,
    previousSignInAt: row.previous_sign_in_at === null ? null : toIsoString(row.previous_sign_in_at),
    failedSignInsBefore: Number(row.failed_sign_ins_before),
  };
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom("admin_sessions").where("id", "=", sessionId).execute();
}

/** Sign Out: ends this session, with its entry in the audit log. */
export async function signOut(db: Db, session: AdminSession, ip: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await deleteSession(trx, session.sessionId);
    await audit(trx, { actor: memberActor(session, ip), action: "sign-out", target: session.adminId });
  });
}

/** Ends the session a token stands for, if it exists. */
export async function deleteSessionByToken(db: Db, token: string): Promise<void> {
  await deleteSession(db, hashToken(token));
}

/** Deletes sessions past their absolute lifetime (idle ones go when next looked up). */
export async function pruneSessions(db: Db, now = new Date()): Promise<void> {
  await db.deleteFrom("admin_sessions").where("expires_at", "<=", now.toISOString()).execute();
}
