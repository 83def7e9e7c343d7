import { listMemberSessions } from "~/auth/member-sessions.server";
import { listPasskeys } from "~/auth/passkeys.server";
import { relyingParty } from "~/auth/relying-party.server";
import { can } from "~/auth/roles";
import { secondFactorRequirement } from "~/auth/second-factor-policy.server";
import type { AdminSession } from "~/auth/sessions.server";
import { pendingTotpSetup, twoStepStatus } from "~/auth/totp.server";
import type { AccountView } from "~/admin/account-ui";
import { formatSubmittedAt } from "~/platform/dates";
import type { Db } from "~/platform/db/db.server";

/**
 * What the member's account page shows (/admin/account): their own factors,
 * passkeys and sessions, each date in UK time; the owners' requirement for
 * an owner; whether passkeys can work at this address (not at a bare IP).
 */
export async function accountView(
  { db, publicUrl, issuer }: { db: Db; publicUrl: string | undefined; issuer: string },
  admin: AdminSession,
  request: Request,
): Promise<AccountView> {
  const when = (iso: string | null) => (iso === null ? null : formatSubmittedAt(iso));
  // One after the other: on SQLite a handle runs one query at a time anyway.
  const twoStep = await twoStepStatus(db, admin.adminId);
  const setup = twoStep.setupInProgress ? await pendingTotpSetup(db, { adminId: admin.adminId, email: admin.email, issuer }) : undefined;
  const passkeys = await listPasskeys(db, admin.adminId);
  const sessions = await listMemberSessions(db, admin.adminId, admin.sessionId);
  const requirement = await secondFactorRequirement(db, admin.adminId);
  const rp = relyingParty(publicUrl, request.url);
  return {
    email: admin.email,
    mustSetUp: requirement.mustSetUp,
    twoStep: { on: twoStep.on, since: when(twoStep.confirmedAt), recoveryCodesLeft: twoStep.recoveryCodesLeft, setup },
    passkeys: passkeys.map((passkey) => ({ id: passkey.id, name: passkey.name, created: when(passkey.createdAt)!, lastUsed: when(passkey.lastUsedAt) })),
    passkeysUnavailable: rp.ok ? undefined : rp.message,
    sessions: sessions.map((session) => ({
      id: session.id,
      browser: session.browser,
      system: session.system,
      clientIp: session.clientIp,
      firstSeen: when(session.firstSeenAt)!,
      lastSeen: when(session.lastSeenAt)!,
      current: session.current,
    })),
    policy: can(admin.role, "team") ? { required: requirement.required } : undefined,
  };
}
