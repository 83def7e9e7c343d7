import type { Db } from "~/platform/db/db.server";
import type { Log } from "~/platform/observe/log.server";
import type { Device } from "./device-cookie.server";
import { countWrongCode, findPendingSignIn, takePendingSignIn } from "./pending-sign-in.server";
import { normalizeRecoveryCode, redeemRecoveryCode } from "./recovery-codes.server";
import { lockWhenDue, recordSignInFailure, startSession, takeAttackerSlots, takeDeviceSlot, type SignInResult } from "./sign-in.server";
import { redeemTotpCode } from "./totp.server";

/**
 * The second step of a sign-in: a code from the member's authenticator app,
 * or one of their recovery codes, after the password (sign-in.server.ts
 * answered "second-step" and the caller set the pending cookie). A wrong code
 * counts towards the same limits as a wrong password, taken before it is
 * checked (decision 018), and towards the pending state's own
 * MAX_CODES_PER_PENDING; a right one gives its places back.
 */
export type CodeAttempt = {
  /** The pending cookie's token. */
  pendingToken: string;
  /** Six digits from the app, or a recovery code. */
  code: string;
  clientIp: string;
  /** LOGIN_RATE_LIMIT. */
  limit: number;
  device?: Device;
  previousToken?: string;
  userAgent?: string | null;
  now?: Date;
  log: Pick<Log, "info" | "warn">;
};

export type CodeResult =
  | Extract<SignInResult, { ok: true }>
  /** No pending sign-in (expired, ended after too many wrong codes, or used): start again with the password. */
  | { ok: false; reason: "expired" }
  | { ok: false; reason: "invalid"; codesLeft: number }
  | Extract<SignInResult, { reason: "limited" }>;

export async function completeSignInWithCode(db: Db, attempt: CodeAttempt): Promise<CodeResult> {
  const now = attempt.now ?? new Date();
  const pending = await findPendingSignIn(db, attempt.pendingToken, now);
  if (!pending) return { ok: false, reason: "expired" };
  const fields = { ip: attempt.clientIp };
  const who = pending.email;
  const trustedDevice = attempt.device?.adminId === pending.adminId;
  const taken = trustedDevice ? await takeDeviceSlot(db, attempt.device!, attempt, now) : await takeAttackerSlots(db, pending.email, who, fields, attempt, now);
  if (!Array.isArray(taken)) return taken;

  const recovery = normalizeRecoveryCode(attempt.code) !== undefined;
  const right = recovery ? await redeemRecoveryCode(db, pending.adminId, attempt.code, now) : await redeemTotpCode(db, pending.adminId, attempt.code, now);
  if (!right || !(await takePendingSignIn(db, pending))) {
    // The places taken stay taken: they are the failure's record.
    await recordSignInFailure(db, { adminId: pending.adminId, clientIp: attempt.clientIp, failure: "wrong-code", now });
    const codesLeft = await countWrongCode(db, pending);
    attempt.log.warn(
      fields,
      `Two-step sign-in failed for ${who}: a wrong ${recovery ? "recovery code" : "code"} (${codesLeft} left before the password is asked again)`,
    );
    if (!trustedDevice) await lockWhenDue(db, pending.email, who, fields, attempt, now, pending.adminId);
    return { ok: false, reason: "invalid", codesLeft };
  }
  await Promise.all(taken.map((slot) => slot.release()));
  const how = `${recovery ? " with a recovery code" : " with a two-step code"}${trustedDevice ? " (a browser used before)" : ""}`;
  return startSession(db, { id: pending.adminId, email: pending.email, role: pending.role }, { ...attempt, now, fields, how });
}
