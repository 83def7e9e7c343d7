import { randomBytes } from "node:crypto";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { audit } from "~/audit/audit.server";
import { memberActor } from "~/audit/actor";
import type { Db } from "~/platform/db/db.server";
import { inTransaction } from "~/platform/db/transactions.server";
import { admitMember, parseMemberName, type AcceptResult, type PendingInvitation } from "./invitations.server";
import { hashPassword } from "./password.server";
import { ALGORITHMS, CHALLENGE_MS, PasskeyError, checkRegistration, insertPasskey, passkeyName, storeChallenge, webauthn } from "./passkeys.server";
import type { RelyingParty } from "./relying-party.server";

/**
 * Joining the team with a passkey instead of a password (issue 21,
 * decision 054). The passkey is made for the member the invitation will
 * make: its user handle is the invitation's id, which becomes the member's
 * id, so "Sign in with a passkey" finds them by it. Its challenge belongs to
 * the invitation (migration 014) and is used once. The member is given a
 * password nobody knows (a hash of 256 random bits, so every password path
 * stays as it is); "Forgot your password?" sets one if they ever want it.
 */
type Ready = Extract<RelyingParty, { ok: true }>;

/** The registration options for the invitation the caller checked (join.server.ts's checkInvitationLink). */
export async function joinPasskeyOptions(
  db: Db,
  { invitation, rp, rpName, now }: { invitation: PendingInvitation; rp: Ready; rpName: string; now: Date },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName,
    rpID: rp.rpId,
    userName: invitation.email,
    userID: new TextEncoder().encode(invitation.id),
    attestationType: "none",
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    timeout: CHALLENGE_MS,
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await storeChallenge(db, options.challenge, "registration", { adminId: null, invitationId: invitation.id }, rp, now);
  return options;
}

export type PasskeyJoinResult = AcceptResult | { ok: false; reason: "passkey-expired" | "passkey-invalid"; detail?: string };

/**
 * Checks the name, then the passkey against the invitation's challenge,
 * then makes the member with it in one transaction (the invitation used,
 * the member signed in, the passkey kept, both audit entries). The name is
 * checked first: a name to correct does not use the challenge up. The
 * invitation is the one the caller checked; admitMember checks it again in
 * the transaction, where another tab may have used it meanwhile.
 */
export async function joinWithPasskey(
  db: Db,
  { invitation, name, response, ip, now = new Date() }: { invitation: PendingInvitation; name: string | undefined; response: unknown; ip: string; now?: Date },
): Promise<PasskeyJoinResult> {
  const parsed = parseMemberName(name);
  if ("problem" in parsed) return { ok: false, reason: "invalid", errors: { name: parsed.problem } };
  const checked = await checkRegistration(db, response, { adminId: null, invitationId: invitation.id }, now);
  if (!checked.ok) return { ok: false, reason: checked.reason === "expired" ? "passkey-expired" : "passkey-invalid", detail: checked.detail };
  const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
  try {
    return await inTransaction(db, async (trx): Promise<PasskeyJoinResult> => {
      const admitted = await admitMember(trx, invitation.id, { adminId: invitation.id, passwordHash, name: parsed.name, ip, now });
      if (!admitted.ok) return admitted;
      // A credential this site keeps already (for anybody) cannot be a new member's: nothing of the joining is kept.
      if (!(await insertPasskey(trx, admitted.adminId, passkeyName(undefined), checked, now))) throw new PasskeyError("the passkey is kept already");
      const actor = memberActor({ adminId: admitted.adminId, email: admitted.email, role: admitted.role }, ip);
      await audit(trx, { actor, action: "passkey-added", target: admitted.adminId, details: { count: 0 }, at: now });
      return admitted;
    });
  } catch (error) {
    if (error instanceof PasskeyError) return { ok: false, reason: "passkey-invalid", detail: error.message };
    throw error;
  }
}
