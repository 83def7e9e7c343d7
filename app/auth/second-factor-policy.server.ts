import type { Db } from "~/platform/db/db.server";
import { toBoolean } from "~/platform/db/db-values";

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

/** Turns the requirement on or off (only an owner may: the caller checks the role). Returns whether it changed. */
export async function setSecondFactorRequired(db: Db, required: boolean, by: string, now: Date): Promise<{ changed: boolean }> {
  const before = await secondFactorRequired(db);
  await db.updateTable("sign_in_policy").set({ second_factor_required: required, updated_at: now.toISOString(), updated_by: by }).where("id", "=", 1).execute();
  return { changed: before !== required };
}

/** What the member has besides a password: a confirmed authenticator app, and how many passkeys. */
export async function secondFactorsOf(db: Db, adminId: string): Promise<SecondFactors> {
  const [totp, passkeys] = await Promise.all([
    db.selectFrom("totp_factors").select("admin_id").where("admin_id", "=", adminId).where("confirmed_at", "is not", null).executeTakeFirst(),
    db
      .selectFrom("passkeys")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("admin_id", "=", adminId)
      .executeTakeFirstOrThrow(),
  ]);
  return { totp: totp !== undefined, passkeys: Number(passkeys.count) };
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
