import { audit } from "~/audit/audit.server";
import type { MemberActor } from "~/audit/actor";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { inTransaction, type Trx } from "~/platform/db/transactions.server";
import { SESSION_IDLE_MS } from "./sessions.server";

/**
 * "Your sessions": every browser signed in to a member, and ending them. A
 * session ends when its row goes; every instance looks the row up at each
 * request (findSession), so it ends at its next request wherever it lands.
 *
 * The member's own changes take the member (their MemberActor): the sessions
 * ended are theirs, and the audit entry is written with the change, in the
 * caller's transaction when it passes one as `db`. An owner ending all of a
 * member's sessions is the team's change (endMemberSessions, team.server.ts).
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
export async function endMemberSession(db: Db, member: MemberActor, sessionId: string): Promise<{ ended: boolean }> {
  return inTransaction(db, async (trx) => {
    const result = await trx.deleteFrom("admin_sessions").where("id", "=", sessionId).where("admin_id", "=", member.id).executeTakeFirst();
    const ended = Number(result.numDeletedRows) > 0;
    if (ended) await audit(trx, { actor: member, action: "session-ended", target: member.id, details: { count: 1 } });
    return { ended };
  });
}

/**
 * "Sign out everywhere else": ends the member's sessions but `keepSessionId`
 * (the one asking), with its audit entry.
 */
export async function endOtherSessions(db: Db, member: MemberActor, keepSessionId: string): Promise<{ ended: number }> {
  return inTransaction(db, async (trx) => {
    const ended = await endSessionsBut(trx, member.id, keepSessionId);
    await audit(trx, { actor: member, action: "sessions-ended", target: member.id, details: { count: ended } });
    return { ended };
  });
}

/**
 * Ends a member's sessions but `keepSessionId` (all of them without one), in
 * the transaction of a change that does so and records it itself: two-step
 * sign-in turned on, a passkey added. Returns how many ended.
 */
export async function endSessionsBut(trx: Trx, adminId: string, keepSessionId: string | undefined): Promise<number> {
  let query = trx.deleteFrom("admin_sessions").where("admin_id", "=", adminId);
  if (keepSessionId !== undefined) query = query.where("id", "!=", keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
