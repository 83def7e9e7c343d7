import type { Db } from "~/platform/db/db.server";
import { toBoolean } from "~/platform/db/db-values";
import { inTransaction } from "~/platform/db/transactions.server";
import { audit } from "~/audit/audit.server";
import { actorLabel, type Actor } from "~/audit/actor";
import { TEAM_TEXT, lockTeam, mayManageTeam } from "./team.server";

/**
 * An owner may require every member to sign in with more than a password:
 * two-step sign-in (an authenticator app) or a passkey. A member with neither
 * is taken to set one up before anything else; the check is here, the
 * redirect is the caller's (the admin routes' guard).
 */
export type SecondFactors = { totp: boolean; passkeys: number };

export async function secondFactorRequired(db: Db): Promise<boolean> {
  const row = await db.selectFrom("sign_in_policy").select("second_factor_required").where("id", "=", 1).executeTakeFirst();
  return row !== undefined && toBoolean(row.second_factor_required);
}

export type PolicyChange = { ok: true; changed: boolean } | { ok: false; reason: "not-allowed"; message: string };

/**
 * Turns the requirement on or off: an owner's choice (the Team tab's
 * permission), or the CLI's. Written with its audit entry when it changes
 * anything; refused, changing nothing, for anyone else.
 */
export async function setSecondFactorRequired(db: Db, required: boolean, actor: Actor, now: Date): Promise<PolicyChange> {
  if (!mayManageTeam(actor)) return { ok: false, reason: "not-allowed", message: TEAM_TEXT.notAllowed };
  return inTransaction<PolicyChange>(db, async (trx) => {
    // Under the team's lock: a member removing their last factor waits for it, and sees the new rule.
    await lockTeam(trx);
    const before = await secondFactorRequired(trx);
    if (before === required) return { ok: true, changed: false };
    await trx
      .updateTable("sign_in_policy")
      .set({ second_factor_required: required, updated_at: now.toISOString(), updated_by: actorLabel(actor) })
      .where("id", "=", 1)
      .execute();
    await audit(trx, { actor, action: required ? "second-factor-required" : "second-factor-not-required", at: now });
    return { ok: true, changed: true };
  });
}

/** What the member has besides a password: a confirmed authenticator app, and how many passkeys. */
export async function secondFactorsOf(db: Db, adminId: string): Promise<SecondFactors> {
  // One after the other: `db` may be a caller's transaction (one connection).
  const totp = await db.selectFrom("totp_factors").select("admin_id").where("admin_id", "=", adminId).where("confirmed_at", "is not", null).executeTakeFirst();
  const passkeys = await db
    .selectFrom("passkeys")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("admin_id", "=", adminId)
    .executeTakeFirstOrThrow();
  return { totp: totp !== undefined, passkeys: Number(passkeys.count) };
}

/** The members who have a second factor (an authenticator app confirmed, or a passkey): what the Team tab shows as two-step sign-in on. */
export async function membersWithSecondFactor(db: Db): Promise<Set<string>> {
  const totp = await db.selectFrom("totp_factors").select("admin_id").where("confirmed_at", "is not", null).execute();
  const passkeys = await db.selectFrom("passkeys").select("admin_id").distinct().execute();
  return new Set([...totp, ...passkeys].map((row) => row.admin_id));
}

export type SecondFactorRequirement = {
  required: boolean;
  /** True: this member must set up two-step sign-in or a passkey before anything else. */
  mustSetUp: boolean;
};

export async function secondFactorRequirement(db: Db, adminId: string): Promise<SecondFactorRequirement> {
  const [required, factors] = await Promise.all([secondFactorRequired(db), secondFactorsOf(db, adminId)]);
  return { required, mustSetUp: required && !factors.totp && factors.passkeys === 0 };
}

/**
 * Whether the member may give up one of their factors while the requirement
 * stands: only when another remains. `removing` is the one to go.
 */
export async function mayRemoveFactor(db: Db, adminId: string, removing: "totp" | "passkey"): Promise<boolean> {
  if (!(await secondFactorRequired(db))) return true;
  const { totp, passkeys } = await secondFactorsOf(db, adminId);
  return removing === "totp" ? passkeys > 0 : totp || passkeys > 1;
}
