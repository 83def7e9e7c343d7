import type { MemberActor } from "~/audit/actor";
import type { Db } from "~/platform/db/db.server";
import { takeSlot } from "~/platform/limits/rate-limit.server";
import type { Log } from "~/platform/observe/log.server";
import { replacePassword } from "./admins.server";
import { verifyPassword, withHashSlot } from "./password.server";
import { normalizeRecoveryCode, redeemRecoveryCode } from "./recovery-codes.server";
import { LOGIN_WINDOW_MS, recordSignInFailure } from "./sign-in.server";
import { redeemTotpCode } from "./totp.server";

/**
 * What the member's account page asks before a change that weakens or
 * replaces a way in (a new password, two-step sign-in off, new recovery
 * codes): the current password, or a code from the app (or a recovery code).
 * A stolen session alone cannot do them. Each check takes a place under the
 * member's LOGIN_RATE_LIMIT from this address first (decision 018), given
 * back when it was right; a wrong one is a failed sign-in the member is told
 * about, as at the sign-in form.
 */
export type IdentityCheck = {
  member: MemberActor;
  password?: string;
  code?: string;
  /** LOGIN_RATE_LIMIT. */
  limit: number;
  log: Pick<Log, "warn">;
  now: Date;
};

export type IdentityResult = { ok: true } | { ok: false; reason: "wrong" | "limited" | "busy"; retryAfterSeconds?: number };

export async function checkIdentity(db: Db, check: IdentityCheck): Promise<IdentityResult> {
  const { member, now } = check;
  const password = check.password ?? "";
  const code = (check.code ?? "").trim();
  if (password === "" && code === "") return { ok: false, reason: "wrong" };
  const slot = await takeSlot(db, "login-failure", `${member.ip} ${member.email}`, { limit: check.limit, windowMs: LOGIN_WINDOW_MS, now });
  if (!slot.ok) {
    check.log.warn({ ip: member.ip }, `Account change refused for ${member.email}: LOGIN_RATE_LIMIT reached`);
    return { ok: false, reason: "limited", retryAfterSeconds: slot.retryAfterSeconds };
  }
  let right: boolean;
  if (password !== "") {
    const row = await db.selectFrom("admin_users").select("password_hash").where("id", "=", member.id).executeTakeFirst();
    // Longer than any password we accept: wrong, without spending a hash on it.
    const hashed = row && password.length <= 1024 ? await withHashSlot(() => verifyPassword(password, row.password_hash), "known-device") : { value: false };
    if (!hashed) {
      await slot.release();
      return { ok: false, reason: "busy", retryAfterSeconds: 5 };
    }
    right = hashed.value;
  } else {
    right = normalizeRecoveryCode(code) !== undefined ? await redeemRecoveryCode(db, member.id, code, now) : await redeemTotpCode(db, member.id, code, now);
  }
  if (!right) {
    await recordSignInFailure(db, { adminId: member.id, clientIp: member.ip, failure: password !== "" ? "wrong-password" : "wrong-code", now });
    check.log.warn({ ip: member.ip }, `Account change refused for ${member.email}: a wrong ${password !== "" ? "password" : "code"}`);
    return { ok: false, reason: "wrong" };
  }
  await slot.release();
  return { ok: true };
}

/** The member's own new password, after checking the current one: every other session of theirs ends (the one asking stays). */
export async function changeOwnPassword(
  db: Db,
  { check, newPassword, keepSessionId }: { check: IdentityCheck; newPassword: string; keepSessionId: string },
): Promise<IdentityResult | { ok: true; endedSessions: number }> {
  const identity = await checkIdentity(db, { ...check, code: undefined });
  if (!identity.ok) return identity;
  const { endedSessions } = await replacePassword(db, check.member.id, newPassword, { actor: check.member, keepSessionId });
  return { ok: true, endedSessions };
}
