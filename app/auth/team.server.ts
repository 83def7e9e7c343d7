import { sql } from "kysely";
import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import { dialectOf, type Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { inTransaction, type Trx } from "~/platform/db/transactions.server";
import { ROLE_LABELS, can, takesAway, type Role } from "./roles";

/**
 * The team (issue 21, docs/decisions/042): its members, a member's role, and
 * removing a member or ending their sessions. There is always at least one
 * owner. A member who is removed, or whose role takes something away, loses
 * every session in the same transaction: their next request, on any instance,
 * finds none and shows the sign-in form.
 */

export const TEAM_TEXT = {
  lastOwner: "There must always be at least one owner. Make another member an owner first.",
  notFound: "That member is not on the team any more.",
  notAllowed: "Only an owner can change the team.",
  unchanged: (role: Role) => `That member's role is ${ROLE_LABELS[role]} already.`,
} as const;

export type TeamMember = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
  /** ISO; null before their first sign-in. */
  lastSignInAt: string | null;
  /** Sessions not past their absolute lifetime. */
  activeSessions: number;
};

export type TeamRefusal = { ok: false; reason: "not-found" | "last-owner" | "not-allowed" | "unchanged"; message: string };
export type TeamChange = { ok: true; endedSessions: number } | TeamRefusal;

const refuse = (reason: TeamRefusal["reason"], message: string): TeamRefusal => ({ ok: false, reason, message });

/** The members, by e-mail address. */
export async function listMembers(db: Db, now = new Date()): Promise<TeamMember[]> {
  const rows = await db
    .selectFrom("admin_users as u")
    .leftJoin("admin_sessions as s", (join) => join.onRef("s.admin_id", "=", "u.id").on("s.expires_at", ">", now.toISOString()))
    .select((eb) => ["u.id", "u.email", "u.name", "u.role", "u.created_at", "u.last_sign_in_at", eb.fn.count<number | string>("s.id").as("sessions")])
    .groupBy(["u.id", "u.email", "u.name", "u.role", "u.created_at", "u.last_sign_in_at"])
    .orderBy("u.email")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    createdAt: toIsoString(row.created_at),
    lastSignInAt: row.last_sign_in_at === null ? null : toIsoString(row.last_sign_in_at),
    activeSessions: Number(row.sessions),
  }));
}

/** A member's changes to the team need the Team tab's permission; the CLI may (it is the way back in). */
export function mayManageTeam(actor: Actor): boolean {
  return actor.kind === "cli" || (actor.kind === "member" && can(actor.role, "team"));
}

/**
 * One change to the team at a time, on PostgreSQL: two owners demoting each
 * other at once would each see the other still an owner and leave none. The
 * lock is held to the end of the transaction. SQLite's write transactions
 * (BEGIN IMMEDIATE, sqlite-driver.server.ts) take turns already.
 */
export async function lockTeam(trx: Trx): Promise<void> {
  if (dialectOf(trx) === "postgres") await sql`select pg_advisory_xact_lock(hashtextextended('team', 0))`.execute(trx);
}

async function ownersLeft(trx: Trx): Promise<number> {
  const row = await trx
    .selectFrom("admin_users")
    .select((eb) => eb.fn.countAll<number | string>().as("owners"))
    .where("role", "=", "owner")
    .executeTakeFirstOrThrow();
  return Number(row.owners);
}

async function endSessionsOf(trx: Trx, memberId: string): Promise<number> {
  const deleted = await trx.deleteFrom("admin_sessions").where("admin_id", "=", memberId).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** Would taking `member` out of the owners leave none? Asked under lockTeam, so no other change can slip in between. */
async function isLastOwner(trx: Trx, member: { role: Role }): Promise<boolean> {
  return member.role === "owner" && (await ownersLeft(trx)) <= 1;
}

/** Gives a member another role; a role that takes anything away ends their sessions. */
export async function changeRole(db: Db, memberId: string, role: Role, actor: Actor): Promise<TeamChange> {
  if (!mayManageTeam(actor)) return refuse("not-allowed", TEAM_TEXT.notAllowed);
  return inTransaction(db, async (trx) => {
    await lockTeam(trx);
    const member = await trx.selectFrom("admin_users").select(["id", "role"]).where("id", "=", memberId).executeTakeFirst();
    if (!member) return refuse("not-found", TEAM_TEXT.notFound);
    if (member.role === role) return refuse("unchanged", TEAM_TEXT.unchanged(role));
    if (role !== "owner" && (await isLastOwner(trx, member))) return refuse("last-owner", TEAM_TEXT.lastOwner);
    await trx.updateTable("admin_users").set({ role, updated_at: new Date().toISOString() }).where("id", "=", memberId).execute();
    const endedSessions = takesAway(member.role, role) ? await endSessionsOf(trx, memberId) : 0;
    await audit(trx, { actor, action: "role-changed", target: memberId, details: { role, previousRole: member.role, count: endedSessions } });
    return { ok: true, endedSessions };
  });
}

/** Removes a member, and with them every session of theirs (their audit entries stay). */
export async function removeMember(db: Db, memberId: string, actor: Actor): Promise<TeamChange> {
  if (!mayManageTeam(actor)) return refuse("not-allowed", TEAM_TEXT.notAllowed);
  return inTransaction(db, async (trx) => {
    await lockTeam(trx);
    const member = await trx.selectFrom("admin_users").select(["id", "role"]).where("id", "=", memberId).executeTakeFirst();
    if (!member) return refuse("not-found", TEAM_TEXT.notFound);
    if (await isLastOwner(trx, member)) return refuse("last-owner", TEAM_TEXT.lastOwner);
    const endedSessions = await endSessionsOf(trx, memberId);
    await trx.deleteFrom("admin_users").where("id", "=", memberId).execute();
    await audit(trx, { actor, action: "member-removed", target: memberId, details: { role: member.role, count: endedSessions } });
    return { ok: true, endedSessions };
  });
}

/** Signs a member out everywhere (an owner's "end all sessions"); their account stays as it is. */
export async function endMemberSessions(db: Db, memberId: string, actor: Actor): Promise<TeamChange> {
  if (!mayManageTeam(actor)) return refuse("not-allowed", TEAM_TEXT.notAllowed);
  return inTransaction(db, async (trx) => {
    const member = await trx.selectFrom("admin_users").select("id").where("id", "=", memberId).executeTakeFirst();
    if (!member) return refuse("not-found", TEAM_TEXT.notFound);
    const endedSessions = await endSessionsOf(trx, memberId);
    await audit(trx, { actor, action: "sessions-ended", target: memberId, details: { count: endedSessions } });
    return { ok: true, endedSessions };
  });
}
