/**
 * The sign-in factors in the audit log, on each backend (decisions 042 and
 * 043): a reset password, two-step sign-in turned on and off, recovery codes
 * renewed, passkeys added, renamed and removed, sessions ended, an owner's
 * requirement and the CLI's way back in each write their entry in the
 * change's own transaction, by whom and from where, and never a code, a
 * secret or a link; sign-ins by code or passkey, and their checked failures,
 * are recorded as password sign-ins are.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { cliActor, type MemberActor } from "~/audit/actor";
import type { AuditKind } from "~/audit/kinds";
import { removeSignInFactors } from "~/auth/lost-factors.server";
import { endMemberSession, endOtherSessions } from "~/auth/member-sessions.server";
import {
  passkeyRegistrationOptions,
  passkeySignInOptions,
  removePasskey,
  renamePasskey,
  signInWithPasskey,
  verifyPasskeyRegistration,
} from "~/auth/passkeys.server";
import { checkResetLink, requestPasswordReset, resetPassword } from "~/auth/password-reset.server";
import { secondFactorRequired, setSecondFactorRequired } from "~/auth/second-factor-policy.server";
import { findSession } from "~/auth/sessions.server";
import { confirmTotpSetup, regenerateRecoveryCodes, startTotpSetup, turnOffTotp, twoStepStatus } from "~/auth/totp.server";
import { completeSignInWithCode } from "~/auth/two-step-sign-in.server";
import { dialectOf, type Db } from "~/platform/db/db.server";
import {
  PASSWORD,
  expectOk,
  member,
  passwordSignIn,
  quietLog,
  recordingMailer,
  resetTokenIn,
  runOutbox,
  totpCodeAt,
  useAuthDatabase,
} from "../support/auth-domain";
import { backends } from "../support/backends";
import { assertPasskey, createPasskey } from "../support/soft-authenticator";

const RP = { ok: true as const, rpId: "localhost", origin: "http://localhost:3000" };
const ISSUER = "Example Lettings";
const NEW_PASSWORD = "a new and rather long passphrase";
const SETUP_KINDS: AuditKind[] = ["member-created", "role-changed"];

/** A trigger that makes every insert into the audit log fail, as a full disk would; returns its removal. */
async function refuseAuditEntries(db: Db): Promise<() => Promise<void>> {
  if (dialectOf(db) === "postgres") {
    await sql`create or replace function test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(db);
    await sql`create trigger test_refuse before insert on audit_log for each row execute function test_refuse()`.execute(db);
    return async () => void (await sql`drop trigger test_refuse on audit_log`.execute(db));
  }
  await sql`create trigger test_refuse before insert on audit_log begin select raise(abort, 'refused by the test'); end`.execute(db);
  return async () => void (await sql`drop trigger test_refuse`.execute(db));
}

async function entries(db: Db) {
  const rows = await db.selectFrom("audit_log").selectAll().orderBy("id").execute();
  return rows.filter((row) => !SETUP_KINDS.includes(row.action as AuditKind));
}

async function addPasskey(db: Db, who: MemberActor, now: Date, keepSessionId?: string) {
  const options = await passkeyRegistrationOptions(db, { adminId: who.id, email: who.email, rp: RP, rpName: ISSUER, now });
  const { passkey, response } = createPasskey(options, { origin: RP.origin });
  return { passkey, added: expectOk(await verifyPasskeyRegistration(db, { member: who, response, now, ...(keepSessionId && { keepSessionId }) })).passkey };
}

describe.each(backends)("the sign-in factors' audit entries on $name", (backend) => {
  const database = useAuthDatabase(backend);

  it("records each change of a member's sign-in, by whom and from where, and never a code, a secret, a key or a link", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const editor = await member(db, "editor@example.com", { role: "editor" });
    const log = quietLog().log;
    const now = new Date();
    const secrets: string[] = [];

    // A password reset through the e-mailed link: the member's own entry, from the address that used it.
    expect(
      await requestPasswordReset(db, { email: owner.email, clientIp: "198.51.100.7", siteUrl: RP.origin, mailOn: true, tally: { count() {} }, now, log }),
    ).toEqual({ ok: true });
    const mailer = recordingMailer();
    await runOutbox(db, mailer, now);
    const token = resetTokenIn(mailer.sent[0]!);
    secrets.push(token);
    expectOk(await resetPassword(db, token, NEW_PASSWORD, { clientIp: "198.51.100.8", now }));

    // Two-step sign-in on, new recovery codes, a wrong code and a right one.
    const current = expectOk(await passwordSignIn(db, { email: owner.email, password: NEW_PASSWORD, clientIp: "198.51.100.9", now }));
    const keepSessionId = (await findSession(db, current.token, now))!.sessionId;
    const setup = await startTotpSetup(db, { adminId: owner.id, email: owner.email, issuer: ISSUER }, now);
    secrets.push(setup.secretText.replace(/ /g, ""));
    const { recoveryCodes } = expectOk(await confirmTotpSetup(db, { member: owner, code: totpCodeAt(setup, now), keepSessionId, now }));
    const renewed = (await regenerateRecoveryCodes(db, owner, now))!;
    secrets.push(...[...recoveryCodes, ...renewed].map((recovery) => recovery.replace(/-/g, "")));
    const second = await passwordSignIn(db, { email: owner.email, password: NEW_PASSWORD, clientIp: "198.51.100.10", now });
    if (second.ok || second.reason !== "second-step") throw new Error("expected the second step");
    const attempt = { pendingToken: second.pendingToken, clientIp: "198.51.100.10", limit: 5, now, log };
    expect(await completeSignInWithCode(db, { ...attempt, code: "000000" })).toMatchObject({ ok: false, reason: "invalid" });
    expectOk(await completeSignInWithCode(db, { ...attempt, code: renewed[0]! }));

    // Passkeys: added, renamed, a sign-in with it, one whose signature is forged, one of another site.
    const { passkey, added } = await addPasskey(db, owner, now, keepSessionId);
    expect(await renamePasskey(db, owner, added.id, "Desk key")).toBe(true);
    expectOk(
      await signInWithPasskey(db, {
        response: assertPasskey(passkey, await passkeySignInOptions(db, RP, now), { origin: RP.origin }),
        clientIp: "198.51.100.11",
        limit: 5,
        now,
        log,
      }),
    );
    const forged = assertPasskey(passkey, await passkeySignInOptions(db, RP, now), { origin: RP.origin });
    const signature = Buffer.from((forged.response as { signature: string }).signature, "base64url");
    signature[signature.length - 1]! ^= 1;
    (forged.response as { signature: string }).signature = signature.toString("base64url");
    expect(await signInWithPasskey(db, { response: forged, clientIp: "198.51.100.12", limit: 5, now, log })).toEqual({ ok: false, reason: "invalid" });
    const stranger = createPasskey({ challenge: "x", rp: { id: "localhost" }, user: { id: "someone" } }).passkey;
    const strangers = assertPasskey(stranger, await passkeySignInOptions(db, RP, now), { origin: RP.origin });
    expect(await signInWithPasskey(db, { response: strangers, clientIp: "198.51.100.13", limit: 5, now, log })).toEqual({
      ok: false,
      reason: "unknown-passkey",
    });

    // The owners' requirement: an Editor may not change it; an owner turns it on and off.
    expect(await setSecondFactorRequired(db, true, editor, now)).toMatchObject({ ok: false, reason: "not-allowed" });
    expect(await secondFactorRequired(db)).toBe(false);
    expect(await setSecondFactorRequired(db, true, owner, now)).toEqual({ ok: true, changed: true });
    expect(await setSecondFactorRequired(db, true, owner, now)).toEqual({ ok: true, changed: false });
    expect(await setSecondFactorRequired(db, false, owner, now)).toEqual({ ok: true, changed: true });

    // Factors removed, sessions ended.
    expect(await removePasskey(db, owner, added.id)).toEqual({ ok: true, name: "Desk key" });
    expect(await turnOffTotp(db, owner)).toEqual({ ok: true, wasOn: true });
    const others = [
      expectOk(await passwordSignIn(db, { email: owner.email, password: NEW_PASSWORD, now })),
      expectOk(await passwordSignIn(db, { email: owner.email, password: NEW_PASSWORD, now })),
    ];
    expect(await endMemberSession(db, owner, (await findSession(db, others[0]!.token, now))!.sessionId)).toEqual({ ended: true });
    // Left: the passkey's session and the second of these.
    expect(await endOtherSessions(db, owner, keepSessionId)).toEqual({ ended: 2 });
    expect((await removeSignInFactors(db, editor.email, cliActor("remove-sign-in-factors"))).endedSessions).toBe(0);
    await expect(removeSignInFactors(db, owner.email, editor)).rejects.toThrow("Only an owner can change the team.");

    const rows = await entries(db);
    expect(rows.map((row) => row.action)).toEqual([
      "password-reset",
      "sign-in",
      "two-step-on",
      "recovery-codes-renewed",
      "sign-in-failed",
      "sign-in",
      "passkey-added",
      "passkey-renamed",
      "sign-in",
      "sign-in-failed",
      "sign-in-failed",
      "second-factor-required",
      "second-factor-not-required",
      "passkey-removed",
      "two-step-off",
      "sign-in",
      "sign-in",
      "session-ended",
      "sessions-ended",
      "sign-in-factors-removed",
    ]);
    const shape = rows.map(({ action, actor_type, actor_id, ip, target_type, target_id, details }) => ({
      action,
      actor_type,
      actor_id,
      ip,
      target_type,
      target_id,
      details: details === null ? null : JSON.parse(details),
    }));
    const own = (action: string, ip: string, details: unknown = null) => ({
      action,
      actor_type: "member",
      actor_id: owner.id,
      ip,
      target_type: "member",
      target_id: owner.id,
      details,
    });
    const visitor = (ip: string, target: string | null, failure: string) => ({
      action: "sign-in-failed",
      actor_type: "visitor",
      actor_id: null,
      ip,
      target_type: "member",
      target_id: target,
      details: { failure },
    });
    const sessions = (count: number) => ({ count });
    expect(shape).toEqual([
      own("password-reset", "198.51.100.8", sessions(0)),
      own("sign-in", "198.51.100.9"),
      own("two-step-on", "192.0.2.1", sessions(0)),
      own("recovery-codes-renewed", "192.0.2.1"),
      visitor("198.51.100.10", owner.id, "wrong-code"),
      own("sign-in", "198.51.100.10"),
      own("passkey-added", "192.0.2.1", sessions(1)),
      own("passkey-renamed", "192.0.2.1"),
      own("sign-in", "198.51.100.11"),
      visitor("198.51.100.12", owner.id, "wrong-passkey"),
      visitor("198.51.100.13", null, "no-such-member"),
      { action: "second-factor-required", actor_type: "member", actor_id: owner.id, ip: "192.0.2.1", target_type: "team", target_id: null, details: null },
      { action: "second-factor-not-required", actor_type: "member", actor_id: owner.id, ip: "192.0.2.1", target_type: "team", target_id: null, details: null },
      own("passkey-removed", "192.0.2.1"),
      own("two-step-off", "192.0.2.1"),
      own("sign-in", "192.0.2.1"),
      own("sign-in", "192.0.2.1"),
      own("session-ended", "192.0.2.1", sessions(1)),
      own("sessions-ended", "192.0.2.1", sessions(2)),
      { action: "sign-in-factors-removed", actor_type: "cli", actor_id: null, ip: null, target_type: "member", target_id: editor.id, details: sessions(0) },
    ]);
    expect(rows.at(-1)!.actor_label).toBe("npm run admin -- remove-sign-in-factors");

    const everything = JSON.stringify(await db.selectFrom("audit_log").selectAll().execute());
    for (const secret of [...secrets, PASSWORD, NEW_PASSWORD, added.id, current.token]) expect(everything).not.toContain(secret);
  });

  it("undoes a factor's change when its entry cannot be written, and leaves no entry", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const now = new Date();
    const log = quietLog().log;
    const setup = await startTotpSetup(db, { adminId: owner.id, email: owner.email, issuer: ISSUER }, now);
    const { added } = await addPasskey(db, owner, now);
    const session = expectOk(await passwordSignIn(db, { email: owner.email, now }));
    await requestPasswordReset(db, { email: owner.email, clientIp: "198.51.100.7", siteUrl: RP.origin, mailOn: true, tally: { count() {} }, now, log });
    const mailer = recordingMailer();
    await runOutbox(db, mailer, now);
    const token = resetTokenIn(mailer.sent[0]!);
    const before = (await db.selectFrom("audit_log").select("id").execute()).length;

    const allow = await refuseAuditEntries(db);
    try {
      await expect(confirmTotpSetup(db, { member: owner, code: totpCodeAt(setup, now), now })).rejects.toThrow(/refused by the test/);
      await expect(removePasskey(db, owner, added.id)).rejects.toThrow(/refused by the test/);
      await expect(renamePasskey(db, owner, added.id, "Renamed")).rejects.toThrow(/refused by the test/);
      await expect(setSecondFactorRequired(db, true, owner, now)).rejects.toThrow(/refused by the test/);
      await expect(resetPassword(db, token, NEW_PASSWORD, { clientIp: "198.51.100.8", now })).rejects.toThrow(/refused by the test/);
      await expect(endOtherSessions(db, owner, "another session")).rejects.toThrow(/refused by the test/);
    } finally {
      await allow();
    }

    expect(await twoStepStatus(db, owner.id)).toMatchObject({ on: false, setupInProgress: true, recoveryCodesLeft: 0 });
    expect((await db.selectFrom("passkeys").select("name").execute()).map((row) => row.name)).toEqual([added.name]);
    expect(await secondFactorRequired(db)).toBe(false);
    expect(await checkResetLink(db, token, now)).toEqual({ ok: true, email: owner.email });
    expect(await findSession(db, session.token, now)).toBeDefined();
    expect(await passwordSignIn(db, { email: owner.email, now })).toMatchObject({ ok: true });
    expect((await db.selectFrom("audit_log").select("id").execute()).length).toBe(before + 1);
  });
});
