import { randomUUID } from "node:crypto";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { clearEvents, type RateLimitBucket } from "~/platform/limits/rate-limit.server";
import { audit } from "~/audit/audit.server";
import { systemActor, type Actor } from "~/audit/actor";
import { inTransaction, type Trx } from "~/platform/db/transactions.server";
import { hashPassword } from "./password.server";
import { passwordProblem } from "~/platform/password-rules";
import type { Role } from "./roles";
import { removeMember } from "./team.server";

/**
 * Admin accounts (members of the team, each with a role: app/auth/roles.ts).
 * E-mail addresses are stored trimmed and lower-cased, so
 * "Admin@Example.com" and "admin@example.com" are one account on both backends.
 */
export type Admin = { id: string; email: string; role: Role; createdAt: string };

export class AdminError extends Error {
  override name = "AdminError";
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw new AdminError(`The password ${problem}.`);
}

export async function findAdminByEmail(db: Db, email: string) {
  return db.selectFrom("admin_users").select(["id", "email", "password_hash", "role"]).where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

/**
 * Adds a member with a password already hashed, in the caller's transaction;
 * false when the e-mail has an account already. The one insert of a member
 * (createAdmin, an accepted invitation).
 */
export async function insertMember(
  trx: Trx,
  member: { id: string; email: string; passwordHash: string; role: Role; name: string | null; now: Date },
): Promise<boolean> {
  const at = member.now.toISOString();
  const inserted = await trx
    .insertInto("admin_users")
    .values({ id: member.id, email: member.email, password_hash: member.passwordHash, role: member.role, name: member.name, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column("email").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Creates an owner (`npm run admin -- create`, ADMIN_EMAIL): the way the first
 * member comes to exist, and the way back in. Fails with AdminError if the
 * e-mail is taken or the password too weak. `hashed`: this very password's
 * hash, begun earlier (boot hashes it while the migrations run).
 */
export async function createAdmin(db: Db, email: string, password: string, actor: Actor, hashed?: Promise<string>): Promise<Admin> {
  checkPassword(password);
  const now = new Date();
  const admin: Admin = { id: randomUUID(), email: normalizeEmail(email), role: "owner", createdAt: now.toISOString() };
  const passwordHash = await (hashed ?? hashPassword(password));
  const created = await inTransaction(db, async (trx) => {
    if (!(await insertMember(trx, { ...admin, passwordHash, name: null, now }))) return false;
    await audit(trx, { actor, action: "member-created", target: admin.id, details: { role: "owner" } });
    return true;
  });
  if (!created) throw new AdminError(`An admin with the e-mail ${admin.email} already exists.`);
  return admin;
}

/**
 * Creates the admin named by ADMIN_EMAIL/ADMIN_PASSWORD unless that e-mail
 * already has an account, whose password is then left alone. Safe when
 * several instances start at once. Returns whether it created one.
 */
export async function ensureAdmin(db: Db, email: string, password: string, hashed?: Promise<string>): Promise<boolean> {
  if (await findAdminByEmail(db, email)) return false;
  try {
    await createAdmin(db, email, password, systemActor("ADMIN_EMAIL"), hashed);
    return true;
  } catch (error) {
    if (error instanceof AdminError && (await findAdminByEmail(db, email))) return false;
    throw error;
  }
}

/**
 * Sets a new password and ends the admin's sessions, all of them or all but
 * the one given (the session that made the change). Also lifts a lockout:
 * whoever can set the password can sign in.
 */
export async function setAdminPassword(
  db: Db,
  email: string,
  password: string,
  actor: Actor,
  options: { keepSessionId?: string } = {},
): Promise<{ endedSessions: number }> {
  checkPassword(password);
  const normalized = normalizeEmail(email);
  const admin = await findAdminByEmail(db, normalized);
  if (!admin) throw new AdminError(`There is no admin with the e-mail ${normalized}.`);
  return replacePassword(db, admin.id, password, { ...options, actor });
}

/**
 * A member's new password, the end of their sessions (all, or all but
 * `keepSessionId`), their sign-in limits lifted (whoever can set the password
 * can sign in) and the audit entry (`action`: "password-set" by default), in
 * one transaction; `during` runs in it too (a reset link used up), and what
 * it throws undoes it all. A password that breaks the rules throws
 * AdminError before anything is done.
 */
export async function replacePassword(
  db: Db,
  adminId: string,
  password: string,
  {
    actor,
    action = "password-set",
    keepSessionId,
    during,
  }: { actor: Actor; action?: "password-set" | "password-reset"; keepSessionId?: string | undefined; during?: (trx: Trx) => Promise<void> },
): Promise<{ endedSessions: number }> {
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  return inTransaction(db, async (trx) => {
    await during?.(trx);
    const updated = await trx
      .updateTable("admin_users")
      .set({ password_hash: passwordHash, updated_at: new Date().toISOString() })
      .where("id", "=", adminId)
      .returning(["id", "email"])
      .executeTakeFirst();
    if (!updated) throw new AdminError("That admin no longer exists.");
    let query = trx.deleteFrom("admin_sessions").where("admin_id", "=", adminId);
    if (keepSessionId) query = query.where("id", "!=", keepSessionId);
    const deleted = await query.executeTakeFirst();
    const endedSessions = Number(deleted.numDeletedRows);
    await clearLimits(trx, updated.email, adminId);
    await audit(trx, { actor, action, target: adminId, details: { count: endedSessions } });
    return { endedSessions };
  });
}

/**
 * Lifts every sign-in limit on the e-mail: its lockout, the failures counted
 * towards the next one, the failures for it from each address, and those of
 * the browsers its admin signed in from before. Recorded against the member,
 * when the address is one.
 */
export async function liftLockout(db: Db, email: string, actor: Actor): Promise<void> {
  const normalized = normalizeEmail(email);
  await inTransaction(db, async (trx) => {
    const admin = await findAdminByEmail(trx, normalized);
    await clearLimits(trx, normalized, admin?.id);
    if (admin) await audit(trx, { actor, action: "lockout-lifted", target: admin.id });
  });
}

async function clearLimits(trx: Trx, normalized: string, adminId: string | undefined): Promise<void> {
  await clearEvents(trx, "login-lockout", normalized);
  await clearEvents(trx, "login-account-failure", normalized);
  // Subjects are "<ip> <e-mail>" and "<admin id> <device id>": matched here rather than with LIKE, whose wildcards e-mails may hold.
  const rows = await trx
    .selectFrom("rate_limit_events")
    .select(["bucket", "subject"])
    .distinct()
    .where("bucket", "in", ["login-failure", "login-device-failure"])
    .execute();
  // Every event of a matching subject goes: deleted by (bucket, subject), the table's key (migration 025).
  for (const { bucket, subject } of rows.filter((row) =>
    row.bucket === "login-failure" ? row.subject.endsWith(` ${normalized}`) : adminId !== undefined && row.subject.startsWith(`${adminId} `),
  ))
    await clearEvents(trx, bucket as RateLimitBucket, subject);
}

/** One more failed sign-in for the admin, to tell them at their next sign-in. */
export async function recordFailedSignIn(db: Db, adminId: string): Promise<void> {
  await db
    .updateTable("admin_users")
    .set((eb) => ({ failed_sign_ins: eb("failed_sign_ins", "+", 1) }))
    .where("id", "=", adminId)
    .execute();
}

export type SignInHistory = { previousSignInAt: string | null; failedSignIns: number };

/** At a successful sign-in: the admin's last sign-in and the failures since, then a fresh start from now. */
export async function takeSignInHistory(db: Db, adminId: string, now: Date): Promise<SignInHistory> {
  return inTransaction(db, async (trx) => {
    const row = await trx.selectFrom("admin_users").select(["last_sign_in_at", "failed_sign_ins"]).where("id", "=", adminId).executeTakeFirstOrThrow();
    await trx.updateTable("admin_users").set({ last_sign_in_at: now.toISOString(), failed_sign_ins: 0 }).where("id", "=", adminId).execute();
    return { previousSignInAt: row.last_sign_in_at === null ? null : toIsoString(row.last_sign_in_at), failedSignIns: Number(row.failed_sign_ins) };
  });
}

/** Replaces a hash made with older parameters (at sign-in, when the password is known to be right). */
export async function rehashPassword(db: Db, adminId: string, password: string): Promise<void> {
  await db
    .updateTable("admin_users")
    .set({ password_hash: await hashPassword(password) })
    .where("id", "=", adminId)
    .execute();
}

export type AdminSummary = Admin & { activeSessions: number; lastSeenAt: string | null };

export async function listAdmins(db: Db, now = new Date()): Promise<AdminSummary[]> {
  const rows = await db
    .selectFrom("admin_users as u")
    .leftJoin("admin_sessions as s", (join) => join.onRef("s.admin_id", "=", "u.id").on("s.expires_at", ">", now.toISOString()))
    .select((eb) => [
      "u.id",
      "u.email",
      "u.role",
      "u.created_at",
      eb.fn.count<number | string>("s.id").as("active_sessions"),
      eb.fn.max("s.last_seen_at").as("last_seen_at"),
    ])
    .groupBy(["u.id", "u.email", "u.role", "u.created_at"])
    .orderBy("u.email")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: toIsoString(row.created_at),
    activeSessions: Number(row.active_sessions),
    lastSeenAt: row.last_seen_at === null ? null : toIsoString(row.last_seen_at as Date | string),
  }));
}

/** Deletes an admin and, with it, every session of theirs; refused (AdminError) for the last owner. */
export async function deleteAdmin(db: Db, email: string, actor: Actor): Promise<void> {
  const normalized = normalizeEmail(email);
  const admin = await findAdminByEmail(db, normalized);
  const removed = admin ? await removeMember(db, admin.id, actor) : undefined;
  if (!removed || (!removed.ok && removed.reason === "not-found")) throw new AdminError(`There is no admin with the e-mail ${normalized}.`);
  if (!removed.ok) throw new AdminError(removed.message);
}

export async function countAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom("admin_users")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
