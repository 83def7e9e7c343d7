import { Secret, TOTP } from "otpauth";
import { beforeEach, expect } from "vitest";
import { memberActor, type MemberActor } from "~/audit/actor";
import { createAdmin } from "~/auth/admins.server";
import type { Role } from "~/auth/roles";
import { changeRole } from "~/auth/team.server";
import { passkeyRegistrationOptions, passkeySignInOptions, verifyPasskeyRegistration } from "~/auth/passkeys.server";
import { passwordResetComposer, requestPasswordReset } from "~/auth/password-reset.server";
import { createPendingSignIn } from "~/auth/pending-sign-in.server";
import { setSecondFactorRequired } from "~/auth/second-factor-policy.server";
import { signIn, type SignInAttempt, type SignInResult } from "~/auth/sign-in.server";
import { confirmTotpSetup, startTotpSetup, type TotpSetup } from "~/auth/totp.server";
import { claimJob, deliverClaimed } from "~/enquiries/outbox-worker.server";
import type { Mailer, OutgoingEmail } from "~/platform/mail/mailer.server";
import type { Database, Db } from "~/platform/db/db.server";
import type { DatabaseSchema } from "~/platform/db/schema";
import { plainLog } from "~/platform/observe/log.server";
import { TEST_ACTOR } from "./actors";
import type { Backend } from "./backends";
import { createPasskey } from "./soft-authenticator";
import { useDatabase } from "./sites";

/** What the auth domain tests share: a migrated database of a backend (emptied before each test), members, a hand-moved clock. */
export const PASSWORD = "correct horse battery staple";

/** Log lines, kept out of the test output and open to assertions. */
export function quietLog() {
  const lines: string[] = [];
  return { lines, log: plainLog((line) => void lines.push(line)) };
}

/**
 * Every table a test of the auth domain writes to (children before their
 * parents): emptied before each test, so each starts from the migrated
 * database as it was made, on one database per describe block.
 */
const WRITTEN = [
  "audit_log",
  "email_outbox",
  "password_resets",
  "recovery_codes",
  "totp_factors",
  "passkeys",
  "webauthn_challenges",
  "pending_sign_ins",
  "admin_sessions",
  "admin_invitations",
  "rate_limit_events",
  "limit_counts",
  "admin_users",
] as const satisfies ReadonlyArray<keyof DatabaseSchema>;

/**
 * The describe block's migrated database (useDatabase, tests/support/sites.ts),
 * emptied of what the auth tests write before each test; `again()` opens a
 * second connection pool on it: another instance of the server.
 */
export function useAuthDatabase(backend: Backend): { readonly db: Db; again(): Database } {
  const opened = useDatabase(backend);
  beforeEach(async () => {
    for (const table of WRITTEN) await opened.db.deleteFrom(table).execute();
    await opened.db.updateTable("sign_in_policy").set({ second_factor_required: false, updated_at: null, updated_by: null }).execute();
  });
  return {
    get db() {
      return opened.db;
    },
    again: () => opened.database.open(),
  };
}

/** A clock the tests move by hand: `at(90 * MINUTE)` is 90 minutes after the start. */
export function clock(start = new Date()) {
  return (offsetMs = 0) => new Date(start.getTime() + offsetMs);
}

/** A member (an owner unless `role` says otherwise), as the actor of their own changes, from 192.0.2.1. */
export async function member(db: Db, email: string, { password = PASSWORD, role = "owner" }: { password?: string; role?: Role } = {}): Promise<MemberActor> {
  const admin = await createAdmin(db, email, password, TEST_ACTOR);
  if (role !== "owner") expectOk(await changeRole(db, admin.id, role, TEST_ACTOR));
  return memberActor({ adminId: admin.id, email: admin.email, role }, "192.0.2.1");
}

export function passwordSignIn(db: Db, overrides: Partial<SignInAttempt> & { email: string }): Promise<SignInResult> {
  return signIn(db, { password: PASSWORD, clientIp: "192.0.2.1", limit: 5, log: plainLog(() => {}), ...overrides });
}

export function expectOk<T extends { ok: boolean }>(result: T): Extract<T, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result as Extract<T, { ok: true }>;
}

export function recordingMailer(): Mailer & { sent: OutgoingEmail[] } {
  const sent: OutgoingEmail[] = [];
  return { description: "test", sent, send: async (email) => void sent.push(email), close() {} };
}

/** Sends every due job as the outbox worker would, with the reset composer. */
export async function runOutbox(db: Db, mailer: Mailer, now: Date): Promise<void> {
  const { log } = quietLog();
  const composers = { "password-reset": passwordResetComposer({ db, from: "Site <site@mail.example.com>", siteName: "Example Lettings", log }) };
  for (const { id } of await db.selectFrom("email_outbox").select("id").execute()) {
    const job = await claimJob(db, id, now);
    if (job) await deliverClaimed(db, mailer, job, { log, composers }, () => now);
  }
}

/** The token of a reset link in an e-mail. */
export function resetTokenIn(email: OutgoingEmail): string {
  const match = /\/admin\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(email.text);
  expect(match, email.text).not.toBeNull();
  return match![1]!;
}

/** The code an authenticator app shows at `at` for the set-up's secret. */
export function totpCodeAt(setup: TotpSetup, at: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(setup.secretText.replace(/ /g, "")), timestamp: at.getTime() });
}

/**
 * A row in every table of the sign-in factors, made through the app's own
 * functions (for the backup tests: what a restore must carry): two-step
 * sign-in with its recovery codes, a passkey and an open challenge, the
 * owners' requirement, a reset link (and its sent e-mail job) and a pending
 * sign-in. Ends the member's sessions, as turning on two-step sign-in does.
 */
export async function seedSignInFactors(db: Db, admin: { id: string; email: string }, now = new Date()): Promise<void> {
  const owner = memberActor({ adminId: admin.id, email: admin.email, role: "owner" }, "192.0.2.1");
  const rp = { ok: true as const, rpId: "localhost", origin: "http://localhost:3000" };
  const setup = await startTotpSetup(db, { adminId: owner.id, email: owner.email, issuer: "Example Lettings" }, now);
  expectOk(await confirmTotpSetup(db, { member: owner, code: totpCodeAt(setup, now), now }));
  const options = await passkeyRegistrationOptions(db, { adminId: owner.id, email: owner.email, rp, rpName: "Example Lettings", now });
  expectOk(await verifyPasskeyRegistration(db, { member: owner, response: createPasskey(options, { origin: rp.origin }).response, now }));
  await passkeySignInOptions(db, rp, now);
  expectOk(await setSecondFactorRequired(db, true, owner, now));
  const log = quietLog().log;
  await requestPasswordReset(db, { email: owner.email, clientIp: "192.0.2.1", siteUrl: rp.origin, mailOn: true, tally: { count() {} }, now, log });
  await runOutbox(db, recordingMailer(), now);
  await createPendingSignIn(db, owner.id, now);
}
