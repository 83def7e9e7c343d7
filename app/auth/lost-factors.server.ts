import type { Db } from "~/platform/db/db.server";
import { inTransaction } from "~/platform/db/transactions.server";
import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import { AdminError, findAdminByEmail, normalizeEmail } from "./admins.server";
import { TEAM_TEXT, mayManageTeam } from "./team.server";

/**
 * For a member who has lost every way in (the app, the recovery codes, the
 * passkeys): `npm run admin` removes their second factors and ends their
 * sessions, in one transaction; with `set-password` they can then sign in
 * with a password alone (and, where an owner requires a second factor, set
 * one up before anything else). Returns what it removed, for the command to
 * say; the audit entry is written with the removal.
 */
export type RemovedFactors = { email: string; adminId: string; totp: boolean; recoveryCodes: number; passkeys: number; endedSessions: number };

export async function removeSignInFactors(db: Db, email: string, actor: Actor): Promise<RemovedFactors> {
  // The way back in for someone else is the team's to give: the CLI, or an owner.
  if (!mayManageTeam(actor)) throw new AdminError(TEAM_TEXT.notAllowed);
  const normalized = normalizeEmail(email);
  const admin = await findAdminByEmail(db, normalized);
  if (!admin) throw new AdminError(`There is no admin with the e-mail ${normalized}.`);
  return inTransaction(db, async (trx) => {
    const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
    const totp = await trx.deleteFrom("totp_factors").where("admin_id", "=", admin.id).where("confirmed_at", "is not", null).executeTakeFirst();
    await trx.deleteFrom("totp_factors").where("admin_id", "=", admin.id).execute();
    const recoveryCodes = await trx.deleteFrom("recovery_codes").where("admin_id", "=", admin.id).where("used_at", "is", null).executeTakeFirst();
    await trx.deleteFrom("recovery_codes").where("admin_id", "=", admin.id).execute();
    const passkeys = await trx.deleteFrom("passkeys").where("admin_id", "=", admin.id).executeTakeFirst();
    await trx.deleteFrom("pending_sign_ins").where("admin_id", "=", admin.id).execute();
    const sessions = await trx.deleteFrom("admin_sessions").where("admin_id", "=", admin.id).executeTakeFirst();
    await audit(trx, { actor, action: "sign-in-factors-removed", target: admin.id, details: { count: count(sessions) } });
    return {
      email: admin.email,
      adminId: admin.id,
      totp: count(totp) > 0,
      recoveryCodes: count(recoveryCodes),
      passkeys: count(passkeys),
      endedSessions: count(sessions),
    };
  });
}
