import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { SESSION_IDLE_MS } from "./sessions.server";

/**
 * "Your sessions": every browser signed in to a member, and ending them. A
 * session ends when its row goes; every instance looks the row up at each
 * request (findSession), so it ends at its next request wherever it lands.
 *
 * Each ending function returns what it did, so the caller can record it (the
 * audit log is written by the caller, in the same transaction when it passes
 * one as `db`).
 */
export type MemberSession = {
  /** The session's row id (its token's hash): what "Sign out" names. Not a credential. */
  id: string;
  /** "Firefox 133"; null when the User-Agent named none. */
  browser: string | null;
  /** "Windows 10"; null when the User-Agent named none. */
  system: string | null;
  /** The client address it signed in from; null for sessions from before it was recorded. */
  clientIp: string | null;
  /** ISO times. */
  firstSeenAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** The session that asks. */
  current: boolean;
};

/** A member's live sessions, the most recently used first. */
export async function listMemberSessions(db: Db, adminId: string, currentSessionId: string | undefined, now = new Date()): Promise<MemberSession[]> {
  const rows = await db
    .selectFrom("admin_sessions")
    .select(["id", "browser", "system", "client_ip", "created_at", "last_seen_at", "expires_at"])
    .where("admin_id", "=", adminId)
    .where("expires_at", ">", now.toISOString())
    .where("last_seen_at", ">", new Date(now.getTime() - SESSION_IDLE_MS).toISOString())
    .orderBy("last_seen_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    browser: row.browser,
    system: row.system,
    clientIp: row.client_ip,
    firstSeenAt: toIsoString(row.created_at),
    lastSeenAt: toIsoString(row.last_seen_at),
    expiresAt: toIsoString(row.expires_at),
    current: row.id === currentSessionId,
  }));
}

/** "Sign out" on one of the member's sessions; false when it is not theirs or already over. */
export async function endMemberSession(db: Db, adminId: string, sessionId: string): Promise<{ ended: boolean }> {
  const result = await db.deleteFrom("admin_sessions").where("id", "=", sessionId).where("admin_id", "=", adminId).executeTakeFirst();
  return { ended: Number(result.numDeletedRows) > 0 };
}

/**
 * Ends the member's sessions but `keepSessionId` (the one making a change):
 * "Sign out everywhere else", and what a new password, two-step sign-in
 * turned on or a passkey added do. Without `keepSessionId`, every session.
 */
export async function endOtherSessions(db: Db, adminId: string, keepSessionId: string | undefined): Promise<{ ended: number }> {
  let query = db.deleteFrom("admin_sessions").where("admin_id", "=", adminId);
  if (keepSessionId !== undefined) query = query.where("id", "!=", keepSessionId);
  const result = await query.executeTakeFirst();
  return { ended: Number(result.numDeletedRows) };
}

/** An owner ends every session of a member (the owner's role is the caller's to check). */
export async function endAllSessions(db: Db, adminId: string): Promise<{ ended: number }> {
  return endOtherSessions(db, adminId, undefined);
}
