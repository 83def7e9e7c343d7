import { data } from "react-router";
import type { MemberActor } from "~/audit/actor";
import { ACCOUNT_TEXT } from "~/admin/account-texts";
import { changeOwnPassword, checkIdentity, type IdentityCheck, type IdentityResult } from "~/auth/account.server";
import { AdminError } from "~/auth/admins.server";
import { endMemberSession, endOtherSessions } from "~/auth/member-sessions.server";
import { PasskeyError, removePasskey, renamePasskey } from "~/auth/passkeys.server";
import { RESET_LINK_MS, type ResetRequestAnswer } from "~/auth/password-reset.server";
import { FORGOT_TEXT } from "~/admin/sign-in-texts";
import { setSecondFactorRequired } from "~/auth/second-factor-policy.server";
import type { AdminSession } from "~/auth/sessions.server";
import { confirmTotpSetup, regenerateRecoveryCodes, startTotpSetup, turnOffTotp } from "~/auth/totp.server";
import type { Db } from "~/platform/db/db.server";
import type { Log } from "~/platform/observe/log.server";

/** What an account form answers: a notice, and the recovery codes when they were just made (shown once, on this answer only). */
export type AccountActionData = { notice: { kind: "success" | "error"; text: string }; form?: string; recoveryCodes?: string[]; confirm?: string };

const answer = (kind: "success" | "error", text: string, status = kind === "success" ? 200 : 400, extra: Partial<AccountActionData> = {}) =>
  data<AccountActionData>({ notice: { kind, text }, ...extra }, { status });

export type AccountServices = {
  db: Db;
  log: Pick<Log, "warn" | "error">;
  loginRateLimit: number;
  issuer: string;
  /** "Forgot your password?" for this member's own address (its limits, its e-mail through the outbox). */
  requestPasswordLink: (email: string) => Promise<ResetRequestAnswer>;
};

/** A session id as listed (SHA-256 hex) or a passkey's credential id (base64url): anything else names nothing of the member's. */
const SESSION_ID = /^[0-9a-f]{64}$/;
const PASSKEY_ID = /^[A-Za-z0-9_-]{1,1024}$/;

function identityRefusal(result: Exclude<IdentityResult, { ok: true }>, form: string) {
  const T = ACCOUNT_TEXT.identity;
  if (result.reason === "limited") {
    return data<AccountActionData>(
      { notice: { kind: "error", text: T.limited(Math.max(1, Math.ceil((result.retryAfterSeconds ?? 60) / 60))) }, form },
      { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds ?? 60) } },
    );
  }
  if (result.reason === "busy")
    return data<AccountActionData>({ notice: { kind: "error", text: T.busy }, form }, { status: 503, headers: { "Retry-After": "5" } });
  return answer("error", T.wrong, 401, { form });
}

/**
 * The account page's forms, by `intent`, for the signed-in member (their own
 * account only: every change takes their MemberActor). Bad input answers 4xx
 * and changes nothing.
 */
export async function handleAccountAction(services: AccountServices, fields: Record<string, string>, admin: AdminSession, actor: MemberActor) {
  const { db } = services;
  const now = new Date();
  const check = (): IdentityCheck => ({
    member: actor,
    password: fields.password,
    code: fields.code,
    limit: services.loginRateLimit,
    log: services.log,
    now,
  });
  switch (fields.intent) {
    case "change-password": {
      const T = ACCOUNT_TEXT.password;
      const form = "password";
      if ((fields.newPassword ?? "") !== (fields.newPasswordAgain ?? "")) return answer("error", T.mismatch, 400, { form });
      try {
        const result = await changeOwnPassword(db, { check: check(), newPassword: fields.newPassword ?? "", keepSessionId: admin.sessionId });
        if (!result.ok) return identityRefusal(result, form);
        return answer("success", T.done("endedSessions" in result ? result.endedSessions : 0), 200, { form });
      } catch (error) {
        if (error instanceof AdminError) return answer("error", `${error.message} Nothing was changed.`, 400, { form });
        throw error;
      }
    }
    case "email-password-link": {
      // No current password asked: the link goes only to the member's own mailbox, as "Forgot your password?" would send it.
      const form = "password";
      const sent = await services.requestPasswordLink(actor.email);
      if (sent.ok) return answer("success", ACCOUNT_TEXT.password.linkSent(actor.email, RESET_LINK_MS / 60_000), 200, { form });
      if (sent.reason === "limited")
        return data<AccountActionData>(
          { notice: { kind: "error", text: FORGOT_TEXT.limited }, form },
          { status: 429, headers: { "Retry-After": String(sent.retryAfterSeconds) } },
        );
      if (sent.reason === "no-mail") return answer("error", FORGOT_TEXT.mailOff, 409, { form });
      return answer("error", ACCOUNT_TEXT.invalid, 400, { form });
    }
    case "totp-start": {
      await startTotpSetup(db, { adminId: actor.id, email: actor.email, issuer: services.issuer }, now);
      return answer("success", "", 200, { form: "totp" });
    }
    case "totp-confirm": {
      const result = await confirmTotpSetup(db, { member: actor, code: fields.code ?? "", keepSessionId: admin.sessionId, now });
      if (!result.ok)
        return answer("error", result.reason === "wrong-code" ? ACCOUNT_TEXT.twoStep.wrongCode : ACCOUNT_TEXT.twoStep.noSetup, 400, { form: "totp" });
      return answer("success", ACCOUNT_TEXT.twoStep.turnedOn(result.endedSessions), 200, { form: "totp", recoveryCodes: result.recoveryCodes });
    }
    case "totp-cancel": {
      const status = await db.selectFrom("totp_factors").select("confirmed_at").where("admin_id", "=", actor.id).executeTakeFirst();
      // Only a set-up never confirmed is cancelled here; turning off an app in use asks who you are.
      if (status?.confirmed_at) return answer("error", ACCOUNT_TEXT.invalid, 400, { form: "totp" });
      await turnOffTotp(db, actor);
      return answer("success", ACCOUNT_TEXT.twoStep.cancelled, 200, { form: "totp" });
    }
    case "totp-off":
    case "recovery-codes": {
      const form = "totp-manage";
      const identity = await checkIdentity(db, check());
      if (!identity.ok) return identityRefusal(identity, form);
      if (fields.intent === "recovery-codes") {
        const codes = await regenerateRecoveryCodes(db, actor, now);
        if (!codes) return answer("error", ACCOUNT_TEXT.twoStep.noSetup, 400, { form });
        return answer("success", ACCOUNT_TEXT.twoStep.regenerated, 200, { form: "totp", recoveryCodes: codes });
      }
      const off = await turnOffTotp(db, actor);
      if (!off.ok) return answer("error", ACCOUNT_TEXT.twoStep.requiredOff, 409, { form });
      return answer("success", ACCOUNT_TEXT.twoStep.turnedOff, 200, { form: "totp" });
    }
    case "passkey-rename": {
      const T = ACCOUNT_TEXT.passkeys;
      if (!PASSKEY_ID.test(fields.id ?? "")) return answer("error", T.notFound, 400, { form: "passkeys" });
      try {
        const renamed = await renamePasskey(db, actor, fields.id!, fields.name ?? "");
        return renamed ? answer("success", T.renamed, 200, { form: "passkeys" }) : answer("error", T.notFound, 404, { form: "passkeys" });
      } catch (error) {
        if (error instanceof PasskeyError) return answer("error", error.message, 400, { form: "passkeys" });
        throw error;
      }
    }
    case "passkey-remove": {
      const T = ACCOUNT_TEXT.passkeys;
      if (!PASSKEY_ID.test(fields.id ?? "")) return answer("error", T.notFound, 400, { form: "passkeys" });
      // A way in that cannot be put back as it was: the first post only asks (without JavaScript; with it the browser asked).
      if (fields.confirmed !== "yes") return data<AccountActionData>({ notice: { kind: "success", text: "" }, form: "passkeys", confirm: fields.id! });
      const removed = await removePasskey(db, actor, fields.id!);
      if (removed.ok) return answer("success", T.removed(removed.name), 200, { form: "passkeys" });
      return removed.reason === "required"
        ? answer("error", T.requiredLast, 409, { form: "passkeys" })
        : answer("error", T.notFound, 404, { form: "passkeys" });
    }
    case "end-session": {
      const T = ACCOUNT_TEXT.sessions;
      if (!SESSION_ID.test(fields.id ?? "")) return answer("error", T.endedNone, 400, { form: "sessions" });
      const { ended } = await endMemberSession(db, actor, fields.id!);
      return answer(ended ? "success" : "error", ended ? T.ended : T.endedNone, ended ? 200 : 404, { form: "sessions" });
    }
    case "end-other-sessions": {
      const { ended } = await endOtherSessions(db, actor, admin.sessionId);
      return answer("success", ACCOUNT_TEXT.sessions.endedOthers(ended), 200, { form: "sessions" });
    }
    case "second-factor-policy": {
      const T = ACCOUNT_TEXT.policy;
      const required = fields.required === "yes";
      const result = await setSecondFactorRequired(db, required, actor, now);
      if (!result.ok) return answer("error", result.message, 403, { form: "policy" });
      return answer("success", result.changed ? (required ? T.on : T.offDone) : T.unchanged, 200, { form: "policy" });
    }
    default:
      return answer("error", ACCOUNT_TEXT.invalid, 400);
  }
}
