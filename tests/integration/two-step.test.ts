/**
 * Two-step sign-in with an authenticator app, at the domain level on each
 * backend: set-up (QR code as SVG, secret as text, confirmed by a code, stored
 * encrypted), the ±1 step window, a code used once, recovery codes used once,
 * wrong codes counted towards the sign-in limits, and an owner's requirement.
 */
import { cliActor } from "~/audit/actor";
import { describe, expect, it } from "vitest";
import { MAX_CODES_PER_PENDING, PENDING_SIGN_IN_MS } from "~/auth/pending-sign-in.server";
import { RECOVERY_CODE_COUNT } from "~/auth/recovery-codes.server";
import { secondFactorRequirement, setSecondFactorRequired } from "~/auth/second-factor-policy.server";
import { removeSignInFactors } from "~/auth/lost-factors.server";
import { findSession } from "~/auth/sessions.server";
import { completeSignInWithCode, type CodeAttempt } from "~/auth/two-step-sign-in.server";
import { confirmTotpSetup, pendingTotpSetup, regenerateRecoveryCodes, startTotpSetup, turnOffTotp, twoStepStatus } from "~/auth/totp.server";
import { LOCKOUT } from "~/auth/sign-in.server";
import type { Db } from "~/platform/db/db.server";
import { backends } from "../support/backends";
import { expectOk, member, passwordSignIn, quietLog, totpCodeAt, useAuthDatabase } from "../support/auth-domain";

const STEP = 30_000;
const ISSUER = "Example Lettings";

describe.each(backends)("two-step sign-in on $name", (backend) => {
  const database = useAuthDatabase(backend);

  /** A member with two-step sign-in on, set up at the start of a time step. */
  async function withTwoStep(db: Db, email = "owner@example.com") {
    const owner = await member(db, email);
    const start = new Date(Math.ceil(Date.now() / STEP) * STEP);
    const setup = await startTotpSetup(db, { adminId: owner.id, email: owner.email, issuer: ISSUER }, start);
    const confirmed = expectOk(await confirmTotpSetup(db, { member: owner, code: totpCodeAt(setup, start), now: start }));
    return { owner, setup, start, recoveryCodes: confirmed.recoveryCodes };
  }

  /** The password step, which must ask for the code, then the code. */
  async function signInWithCode(db: Db, email: string, code: string, now: Date, extra: Partial<CodeAttempt> = {}) {
    const first = await passwordSignIn(db, { email, now, clientIp: extra.clientIp ?? "192.0.2.1" });
    if (first.ok || first.reason !== "second-step") throw new Error(`expected the second step, got ${JSON.stringify(first)}`);
    return completeSignInWithCode(db, { pendingToken: first.pendingToken, code, clientIp: "192.0.2.1", limit: 5, now, log: quietLog().log, ...extra });
  }

  it("sets up with a QR code drawn as SVG, the secret as grouped text, and an otpauth URI; the secret is stored encrypted", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const setup = await startTotpSetup(db, { adminId: owner.id, email: owner.email, issuer: ISSUER }, new Date());

    expect(setup.qrSvg).toMatch(/^<svg role="img" aria-label="QR code for your authenticator app" [^>]*viewBox/);
    expect(setup.qrSvg).toContain("<path");
    expect(setup.secretText).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/);
    const uri = new URL(setup.uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(setup.secretText.replace(/ /g, ""));
    expect(uri.searchParams.get("issuer")).toBe(ISSUER);
    expect(decodeURIComponent(uri.pathname)).toContain("owner@example.com");
    expect(JSON.stringify(await db.selectFrom("totp_factors").selectAll().execute())).not.toContain(setup.secretText.replace(/ /g, ""));
    // Shown again (a reload, a wrong code) until it is confirmed; not on yet.
    expect(await pendingTotpSetup(db, { adminId: owner.id, email: owner.email, issuer: ISSUER })).toEqual(setup);
    expect(await twoStepStatus(db, owner.id)).toEqual({ on: false, confirmedAt: null, recoveryCodesLeft: 0, setupInProgress: true });
    expect(await passwordSignIn(db, { email: owner.email })).toMatchObject({ ok: true });
  });

  it("turns on only with a right code; then ends the member's other sessions and gives ten recovery codes once", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const current = expectOk(await passwordSignIn(db, { email: owner.email }));
    const other = expectOk(await passwordSignIn(db, { email: owner.email }));
    const keepSessionId = (await findSession(db, current.token))!.sessionId;
    const now = new Date();
    const setup = await startTotpSetup(db, { adminId: owner.id, email: owner.email, issuer: ISSUER }, now);

    const wrong = String((Number(totpCodeAt(setup, now)) + 1) % 1_000_000).padStart(6, "0");
    expect(await confirmTotpSetup(db, { member: owner, code: wrong, keepSessionId, now })).toEqual({ ok: false, reason: "wrong-code" });
    expect(await findSession(db, other.token)).toBeDefined();
    const confirmed = expectOk(await confirmTotpSetup(db, { member: owner, code: totpCodeAt(setup, now), keepSessionId, now }));
    expect(confirmed.endedSessions).toBe(1);
    expect(confirmed.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(confirmed.recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of confirmed.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){5}$/);
    expect(await findSession(db, current.token)).toBeDefined();
    expect(await findSession(db, other.token)).toBeUndefined();
    // Only hashes are kept.
    const stored = JSON.stringify(await db.selectFrom("recovery_codes").selectAll().execute());
    for (const code of confirmed.recoveryCodes) expect(stored).not.toContain(code.replace(/-/g, ""));
    expect(await twoStepStatus(db, owner.id)).toMatchObject({ on: true, recoveryCodesLeft: 10, setupInProgress: false });
    expect(await confirmTotpSetup(db, { member: owner, code: totpCodeAt(setup, now), now })).toEqual({ ok: false, reason: "no-setup" });
  });

  it("asks for the code after the password, and accepts codes one step either side of now, each once", async () => {
    const { db } = database;
    const { owner, setup, start } = await withTwoStep(db);
    const now = new Date(start.getTime() + 10 * STEP + 1_000);
    const first = await passwordSignIn(db, { email: owner.email, now });
    expect(first).toMatchObject({ ok: false, reason: "second-step", adminId: owner.id });
    expect(await db.selectFrom("admin_sessions").selectAll().execute()).toEqual([]);

    // A step behind, then now, then a step ahead: each accepted once, in turn.
    for (const offset of [-STEP, 0, STEP]) {
      const signedIn = await signInWithCode(db, owner.email, totpCodeAt(setup, new Date(now.getTime() + offset)), now);
      expect(signedIn, `offset ${offset}`).toMatchObject({ ok: true, adminId: owner.id });
      expect(await findSession(db, expectOk(signedIn).token, now)).toMatchObject({ email: owner.email });
    }
    // Used, or older than the last used: refused.
    for (const offset of [-STEP, 0, STEP]) {
      expect(await signInWithCode(db, owner.email, totpCodeAt(setup, new Date(now.getTime() + offset)), now), `again ${offset}`).toMatchObject({
        ok: false,
        reason: "invalid",
      });
    }
    // Two steps away: outside the window.
    expect(await signInWithCode(db, owner.email, totpCodeAt(setup, new Date(now.getTime() + 2 * STEP)), now)).toMatchObject({ reason: "invalid" });
    const later = new Date(now.getTime() + 3 * STEP);
    expect(await signInWithCode(db, owner.email, totpCodeAt(setup, new Date(later.getTime() - 3 * STEP)), later)).toMatchObject({ reason: "invalid" });
    expect(await signInWithCode(db, owner.email, totpCodeAt(setup, later), later, { clientIp: "192.0.2.2" })).toMatchObject({ ok: true });
  });

  it("a pending sign-in lasts five minutes, makes one session, and ends after five wrong codes", async () => {
    const { db } = database;
    const { owner, setup, start } = await withTwoStep(db);
    const now = new Date(start.getTime() + 20 * STEP);
    const log = quietLog().log;
    const attempt = (pendingToken: string, code: string, at: Date, clientIp = "192.0.2.1") =>
      completeSignInWithCode(db, { pendingToken, code, clientIp, limit: 50, now: at, log });

    const late = await passwordSignIn(db, { email: owner.email, now });
    if (late.ok || late.reason !== "second-step") throw new Error("expected the second step");
    const at = new Date(now.getTime() + PENDING_SIGN_IN_MS);
    expect(await attempt(late.pendingToken, totpCodeAt(setup, at), at)).toEqual({ ok: false, reason: "expired" });

    const pending = await passwordSignIn(db, { email: owner.email, now });
    if (pending.ok || pending.reason !== "second-step") throw new Error("expected the second step");
    expect(MAX_CODES_PER_PENDING).toBe(5);
    for (let left = 4; left >= 0; left--) {
      expect(await attempt(pending.pendingToken, "000000", now, `198.51.100.${left}`)).toEqual({ ok: false, reason: "invalid", codesLeft: left });
    }
    expect(await attempt(pending.pendingToken, totpCodeAt(setup, now), now)).toEqual({ ok: false, reason: "expired" });

    const once = await passwordSignIn(db, { email: owner.email, now });
    if (once.ok || once.reason !== "second-step") throw new Error("expected the second step");
    expect(await attempt(once.pendingToken, totpCodeAt(setup, now), now)).toMatchObject({ ok: true });
    const nextStep = new Date(now.getTime() + STEP);
    expect(await attempt(once.pendingToken, totpCodeAt(setup, nextStep), nextStep)).toEqual({ ok: false, reason: "expired" });
  });

  it("wrong codes count towards the sign-in limits: LOGIN_RATE_LIMIT per address, then the account's lockout; the member is told", async () => {
    const { db } = database;
    const { owner, setup, start } = await withTwoStep(db);
    const now = new Date(start.getTime() + 30 * STEP);
    const log = quietLog().log;
    const wrongCodeFrom = async (clientIp: string) => {
      const first = await passwordSignIn(db, { email: owner.email, now, clientIp });
      if (first.ok || first.reason !== "second-step") return first;
      return completeSignInWithCode(db, { pendingToken: first.pendingToken, code: "000000", clientIp, limit: 5, now, log });
    };
    // Five wrong codes from one address: the sixth attempt is refused before its code is checked, even a right one.
    for (let i = 0; i < 5; i++) expect(await wrongCodeFrom("192.0.2.1")).toMatchObject({ reason: "invalid" });
    const blocked = await passwordSignIn(db, { email: owner.email, now, clientIp: "192.0.2.1" });
    expect(blocked).toMatchObject({ ok: false, reason: "limited" });

    // From other addresses, wrong codes add up to the account's lockout (10 failures).
    for (let i = 0; i < LOCKOUT.failures - 5; i++) expect(await wrongCodeFrom(`198.51.100.${i}`)).toMatchObject({ reason: "invalid" });
    const locked = await passwordSignIn(db, { email: owner.email, now, clientIp: "203.0.113.9" });
    expect(locked).toMatchObject({ ok: false, reason: "limited" });
    expect(totpCodeAt(setup, now)).toMatch(/^\d{6}$/);
    const row = await db.selectFrom("admin_users").select("failed_sign_ins").where("id", "=", owner.id).executeTakeFirstOrThrow();
    expect(Number(row.failed_sign_ins)).toBe(LOCKOUT.failures);
  });

  it("a recovery code signs in once; codes are typed in any case, with or without dashes; new ones replace the old", async () => {
    const { db } = database;
    const { owner, recoveryCodes, start } = await withTwoStep(db);
    const now = new Date(start.getTime() + 40 * STEP);
    const [first, second] = recoveryCodes;

    expect(await signInWithCode(db, owner.email, first!, now)).toMatchObject({ ok: true, adminId: owner.id });
    expect(await signInWithCode(db, owner.email, first!, now)).toMatchObject({ ok: false, reason: "invalid" });
    expect(await signInWithCode(db, owner.email, ` ${second!.toUpperCase().replace(/-/g, " ")} `, now)).toMatchObject({ ok: true });
    expect(await twoStepStatus(db, owner.id)).toMatchObject({ recoveryCodesLeft: 8 });

    const fresh = await regenerateRecoveryCodes(db, owner, now);
    expect(fresh).toHaveLength(10);
    expect(await signInWithCode(db, owner.email, recoveryCodes[2]!, now)).toMatchObject({ reason: "invalid" });
    expect(await signInWithCode(db, owner.email, fresh![0]!, now)).toMatchObject({ ok: true });
  });

  it("turned off, the password alone signs in again; an owner's requirement stops that and tells who must set it up", async () => {
    const { db } = database;
    const { owner } = await withTwoStep(db);
    const editor = await member(db, "editor@example.com", { role: "editor" });
    const now = new Date();

    expect(await secondFactorRequirement(db, editor.id)).toEqual({ required: false, mustSetUp: false });
    // The requirement is the owners' to set: an Editor is refused, and nothing changes.
    expect(await setSecondFactorRequired(db, true, editor, now)).toEqual({ ok: false, reason: "not-allowed", message: "Only an owner can change the team." });
    expect(await secondFactorRequirement(db, editor.id)).toEqual({ required: false, mustSetUp: false });
    expect(await setSecondFactorRequired(db, true, owner, now)).toEqual({ ok: true, changed: true });
    expect(await secondFactorRequirement(db, editor.id)).toEqual({ required: true, mustSetUp: true });
    expect(await secondFactorRequirement(db, owner.id)).toEqual({ required: true, mustSetUp: false });
    expect(await turnOffTotp(db, owner)).toEqual({ ok: false, reason: "required" });
    expect(await passwordSignIn(db, { email: owner.email })).toMatchObject({ reason: "second-step" });

    expect(await setSecondFactorRequired(db, false, owner, now)).toEqual({ ok: true, changed: true });
    expect(await turnOffTotp(db, owner)).toEqual({ ok: true, wasOn: true });
    expect(await twoStepStatus(db, owner.id)).toEqual({ on: false, confirmedAt: null, recoveryCodesLeft: 0, setupInProgress: false });
    expect(await db.selectFrom("recovery_codes").selectAll().execute()).toEqual([]);
    expect(await passwordSignIn(db, { email: owner.email })).toMatchObject({ ok: true });
  });

  it("for a member who lost every way in, removes the app, the recovery codes and the sessions, so the password alone signs in", async () => {
    const { db } = database;
    const { owner } = await withTwoStep(db);
    const session = expectOk(await signInWithCode(db, owner.email, (await regenerateRecoveryCodes(db, owner, new Date()))![0]!, new Date()));

    expect(await removeSignInFactors(db, " OWNER@example.com", cliActor("remove-sign-in-factors"))).toEqual({
      email: owner.email,
      adminId: owner.id,
      totp: true,
      recoveryCodes: 9,
      passkeys: 0,
      endedSessions: 1,
    });
    expect(await findSession(db, session.token)).toBeUndefined();
    expect(await twoStepStatus(db, owner.id)).toMatchObject({ on: false, recoveryCodesLeft: 0 });
    expect(await passwordSignIn(db, { email: owner.email })).toMatchObject({ ok: true });
  });

  it("works inside a caller's transaction: rolled back, nothing changed and no audit entry; committed, all, with its entry", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const other = expectOk(await passwordSignIn(db, { email: owner.email }));
    const now = new Date();
    const labels = { adminId: owner.id, email: owner.email, issuer: ISSUER };
    const turnOn = (trx: Db) => startTotpSetup(trx, labels, now).then((setup) => confirmTotpSetup(trx, { member: owner, code: totpCodeAt(setup, now), now }));

    const failure = new Error("the audit entry could not be written");
    await expect(
      db.transaction().execute(async (trx) => {
        expect(await turnOn(trx)).toMatchObject({ ok: true, endedSessions: 1 });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await twoStepStatus(db, owner.id)).toEqual({ on: false, confirmedAt: null, recoveryCodesLeft: 0, setupInProgress: false });
    expect(await findSession(db, other.token)).toBeDefined();
    const turnedOn = () => db.selectFrom("audit_log").select(["actor_id", "target_id"]).where("action", "=", "two-step-on").execute();
    expect(await turnedOn()).toEqual([]);

    await db.transaction().execute(async (trx) => void expect(await turnOn(trx)).toMatchObject({ ok: true }));
    expect(await twoStepStatus(db, owner.id)).toMatchObject({ on: true, recoveryCodesLeft: 10 });
    expect(await findSession(db, other.token)).toBeUndefined();
    expect(await turnedOn()).toEqual([{ actor_id: owner.id, target_id: owner.id }]);
  });
});
