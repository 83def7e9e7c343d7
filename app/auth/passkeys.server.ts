import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { Db } from "~/platform/db/db.server";
import { toBoolean, toIsoString } from "~/platform/db/db-values";
import { inTransaction, type Trx } from "~/platform/db/transactions.server";
import type { Log } from "~/platform/observe/log.server";
import { ipLimitSubject, takeSlot } from "~/platform/limits/rate-limit.server";
import { endSessionsBut } from "./member-sessions.server";
import type { RelyingParty } from "./relying-party.server";
import { mayRemoveFactor } from "./second-factor-policy.server";
import { lockTeam } from "./team.server";
import { audit } from "~/audit/audit.server";
import type { MemberActor } from "~/audit/actor";
import { LOGIN_WINDOW_MS, MIN_ADDRESS_ATTEMPTS, recordSignInFailure, startSession, type SignInResult } from "./sign-in.server";

/**
 * @simplewebauthn/server, loaded at its first use: its ASN.1 and COSE code is a good part of
 * what the server evaluates as it starts, and only a passkey ceremony needs it (decision 066).
 */
export const webauthn = () => import("@simplewebauthn/server");

/**
 * Passkeys (WebAuthn) by @simplewebauthn/server: a member adds one or more,
 * names and removes them, and signs in with one instead of a password.
 * Discoverable credentials with user verification required, so "Sign in
 * with a passkey" needs no e-mail first and the passkey is both factors.
 * Each challenge is stored server-side, used once (deleted as it is
 * checked) and lives CHALLENGE_MS. The verifier checks origin, RP ID,
 * challenge, signature, user presence and verification, and the counter.
 */
export const CHALLENGE_MS = 5 * 60 * 1000;
/**
 * EdDSA, ES256 and RS256 (COSE -8, -7, -257): what passkeys use. Named here
 * rather than left to the library, whose default asks Node's WebCrypto about
 * ML-DSA-44 and so prints an ExperimentalWarning outside the JSON log.
 */
export const ALGORITHMS = [-8, -7, -257];
const MAX_NAME = 60;

type Ready = Extract<RelyingParty, { ok: true }>;

export type Passkey = { id: string; name: string; createdAt: string; lastUsedAt: string | null; backedUp: boolean; transports: string[] };

export class PasskeyError extends Error {
  override name = "PasskeyError";
}

/** A name as given (trimmed, spaces collapsed), or a PasskeyError saying what is wrong. */
export function passkeyName(given: string | undefined): string {
  const name = (given ?? "").replace(/\s+/g, " ").trim();
  if (name === "") return "Passkey";
  if (/[\p{Cc}\p{Cf}]/u.test(name)) throw new PasskeyError("The name may hold letters, digits, spaces and punctuation only.");
  if ([...name].length > MAX_NAME) throw new PasskeyError(`The name must be at most ${MAX_NAME} characters.`);
  return name;
}

/** Keeps a challenge for CHALLENGE_MS: a member's (adding a passkey), an invitation's (joining with one), or nobody's (signing in). */
export async function storeChallenge(
  db: Db,
  challenge: string,
  purpose: "registration" | "authentication",
  owner: { adminId: string | null; invitationId?: string },
  rp: Ready,
  now: Date,
) {
  await db.deleteFrom("webauthn_challenges").where("expires_at", "<=", now.toISOString()).execute();
  await db
    .insertInto("webauthn_challenges")
    .values({
      challenge,
      purpose,
      admin_id: owner.adminId,
      invitation_id: owner.invitationId ?? null,
      rp_id: rp.rpId,
      origin: rp.origin,
      expires_at: new Date(now.getTime() + CHALLENGE_MS).toISOString(),
    })
    .execute();
}

/** The challenge a response signed, from its clientDataJSON; undefined when the response is not one. */
function signedChallenge(response: unknown): string | undefined {
  const clientData = (response as { response?: { clientDataJSON?: unknown } } | null)?.response?.clientDataJSON;
  if (typeof clientData !== "string" || clientData.length > 4096) return undefined;
  try {
    const challenge = (JSON.parse(Buffer.from(clientData, "base64url").toString("utf8")) as { challenge?: unknown }).challenge;
    return typeof challenge === "string" && challenge.length <= 128 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/** Deletes the challenge the response signed and returns where it was issued; undefined when unknown, used, expired or another's. */
export async function takeChallenge(
  db: Db,
  response: unknown,
  purpose: "registration" | "authentication",
  owner: { adminId: string | null; invitationId?: string },
  now: Date,
) {
  const challenge = signedChallenge(response);
  if (challenge === undefined) return undefined;
  let query = db.deleteFrom("webauthn_challenges").where("challenge", "=", challenge).where("purpose", "=", purpose);
  query = owner.adminId === null ? query.where("admin_id", "is", null) : query.where("admin_id", "=", owner.adminId);
  query = owner.invitationId === undefined ? query.where("invitation_id", "is", null) : query.where("invitation_id", "=", owner.invitationId);
  const row = await query.returning(["rp_id", "origin", "expires_at"]).executeTakeFirst();
  if (!row || new Date(toIsoString(row.expires_at)).getTime() <= now.getTime()) return undefined;
  return { challenge, rpId: row.rp_id, origin: row.origin };
}

/** What `navigator.credentials.create()` needs (via @simplewebauthn/browser's startRegistration) to add a passkey. */
export async function passkeyRegistrationOptions(
  db: Db,
  { adminId, email, rp, rpName, now }: { adminId: string; email: string; rp: Ready; rpName: string; now: Date },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await db.selectFrom("passkeys").select(["id", "transports"]).where("admin_id", "=", adminId).execute();
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName,
    rpID: rp.rpId,
    userName: email,
    userID: new TextEncoder().encode(adminId),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: JSON.parse(row.transports) as string[] })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    timeout: CHALLENGE_MS,
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await storeChallenge(db, options.challenge, "registration", { adminId }, rp, now);
  return options;
}

export type PasskeyRegistration =
  | { ok: true; passkey: Passkey; endedSessions: number }
  | { ok: false; reason: "expired" | "invalid" | "already-added"; detail?: string };

/**
 * Checks the authenticator's answer and adds the passkey; every other
 * session of the member ends (`keepSessionId`: the one adding it), and the
 * audit entry is written with it. Throws PasskeyError for a name that will
 * not do, before anything is used up.
 */
export async function verifyPasskeyRegistration(
  db: Db,
  { member, response, name, keepSessionId, now }: { member: MemberActor; response: unknown; name?: string; keepSessionId?: string; now: Date },
): Promise<PasskeyRegistration> {
  const adminId = member.id;
  const label = passkeyName(name);
  const checked = await checkRegistration(db, response, { adminId }, now);
  if (!checked.ok) return checked;
  return inTransaction(db, async (trx) => {
    const passkey = await insertPasskey(trx, adminId, label, checked, now);
    if (!passkey) return { ok: false as const, reason: "already-added" as const };
    const ended = await endSessionsBut(trx, adminId, keepSessionId);
    await audit(trx, { actor: member, action: "passkey-added", target: adminId, details: { count: ended }, at: now });
    return { ok: true as const, passkey, endedSessions: ended };
  });
}

/** A new passkey the verifier accepted: what is kept of it. */
export type CheckedRegistration = { ok: true; id: string; publicKey: Uint8Array; counter: number; transports: string[]; backedUp: boolean };

/**
 * Takes the challenge the authenticator's answer signed (the member's, or
 * the invitation's) and checks the answer against it: origin, RP ID,
 * signature, user presence and verification.
 */
export async function checkRegistration(
  db: Db,
  response: unknown,
  owner: { adminId: string | null; invitationId?: string },
  now: Date,
): Promise<CheckedRegistration | { ok: false; reason: "expired" | "invalid"; detail?: string }> {
  const issued = await takeChallenge(db, response, "registration", owner, now);
  if (!issued) return { ok: false, reason: "expired" };
  let verification;
  try {
    verification = await (await webauthn()).verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: issued.challenge,
      expectedOrigin: issued.origin,
      expectedRPID: issued.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch (error) {
    return { ok: false, reason: "invalid", detail: (error as Error).message };
  }
  if (!verification.verified) return { ok: false, reason: "invalid" };
  const { credential, credentialBackedUp } = verification.registrationInfo;
  return {
    ok: true,
    id: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
    backedUp: credentialBackedUp,
  };
}

/** Keeps a checked passkey for the member, in the caller's transaction; undefined when it is kept already. */
export async function insertPasskey(trx: Trx, adminId: string, label: string, checked: CheckedRegistration, now: Date): Promise<Passkey | undefined> {
  const inserted = await trx
    .insertInto("passkeys")
    .values({
      id: checked.id,
      admin_id: adminId,
      public_key: Buffer.from(checked.publicKey).toString("base64url"),
      counter: checked.counter,
      transports: JSON.stringify(checked.transports),
      name: label,
      backed_up: checked.backedUp,
      created_at: now.toISOString(),
    })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
  return { id: checked.id, name: label, createdAt: now.toISOString(), lastUsedAt: null, backedUp: checked.backedUp, transports: checked.transports };
}

/** What `navigator.credentials.get()` needs for "Sign in with a passkey": no e-mail, any passkey of this site. */
export async function passkeySignInOptions(db: Db, rp: Ready, now: Date): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await (await webauthn()).generateAuthenticationOptions({ rpID: rp.rpId, userVerification: "required", timeout: CHALLENGE_MS });
  await storeChallenge(db, options.challenge, "authentication", { adminId: null }, rp, now);
  return options;
}

export type PasskeySignInAttempt = {
  response: unknown;
  clientIp: string;
  /** LOGIN_RATE_LIMIT: the address limit is max(20, 4 × it), as for passwords. */
  limit: number;
  previousToken?: string;
  userAgent?: string | null;
  now?: Date;
  log: Pick<Log, "info" | "warn">;
};

export type PasskeySignInResult =
  | Extract<SignInResult, { ok: true }>
  | { ok: false; reason: "expired" | "unknown-passkey" | "invalid" }
  | Extract<SignInResult, { reason: "limited" }>;

/**
 * Signs in with a passkey. A place under the per-address sign-in limit is
 * taken before anything is checked and given back when the passkey is right.
 */
export async function signInWithPasskey(db: Db, attempt: PasskeySignInAttempt): Promise<PasskeySignInResult> {
  const now = attempt.now ?? new Date();
  const fields = { ip: attempt.clientIp };
  const slot = await takeSlot(db, "login-address", ipLimitSubject(attempt.clientIp), {
    limit: Math.max(MIN_ADDRESS_ATTEMPTS, 4 * attempt.limit),
    windowMs: LOGIN_WINDOW_MS,
    now,
  });
  if (!slot.ok) {
    attempt.log.warn(fields, "Passkey sign-in refused: too many attempts from this address");
    return { ok: false, reason: "limited", retryAfterSeconds: slot.retryAfterSeconds };
  }
  const issued = await takeChallenge(db, attempt.response, "authentication", { adminId: null }, now);
  if (!issued) return { ok: false, reason: "expired" };
  const credentialId = (attempt.response as { id?: unknown }).id;
  const row =
    typeof credentialId === "string" && credentialId.length <= 1024
      ? await db
          .selectFrom("passkeys as p")
          .innerJoin("admin_users as u", "u.id", "p.admin_id")
          .select(["p.id", "p.admin_id", "p.public_key", "p.counter", "p.transports", "u.email", "u.role"])
          .where("p.id", "=", credentialId)
          .executeTakeFirst()
      : undefined;
  if (!row) {
    await recordSignInFailure(db, { adminId: undefined, clientIp: attempt.clientIp, failure: "no-such-member", now });
    attempt.log.warn(fields, "Passkey sign-in failed: a passkey this site does not know (removed, or another site's)");
    return { ok: false, reason: "unknown-passkey" };
  }
  const userHandle = (attempt.response as { response?: { userHandle?: unknown } }).response?.userHandle;
  let newCounter: number;
  try {
    // Discoverable passkeys name their member; one that names another is refused (absent or null: the signature decides).
    if (userHandle !== undefined && userHandle !== null && userHandle !== Buffer.from(row.admin_id).toString("base64url")) {
      throw new Error("the passkey names another member");
    }
    const verification = await (await webauthn()).verifyAuthenticationResponse({
      response: attempt.response as AuthenticationResponseJSON,
      expectedChallenge: issued.challenge,
      expectedOrigin: issued.origin,
      expectedRPID: issued.rpId,
      credential: {
        id: row.id,
        publicKey: Buffer.from(row.public_key, "base64url"),
        counter: Number(row.counter),
        transports: JSON.parse(row.transports) as string[],
      },
      requireUserVerification: true,
    });
    if (!verification.verified) throw new Error("the signature does not verify");
    newCounter = verification.authenticationInfo.newCounter;
  } catch (error) {
    await recordSignInFailure(db, { adminId: row.admin_id, clientIp: attempt.clientIp, failure: "wrong-passkey", now });
    attempt.log.warn(fields, `Passkey sign-in failed for ${row.email}: ${(error as Error).message}`);
    return { ok: false, reason: "invalid" };
  }
  await db.updateTable("passkeys").set({ counter: newCounter, last_used_at: now.toISOString() }).where("id", "=", row.id).execute();
  await slot.release();
  return startSession(db, { id: row.admin_id, email: row.email, role: row.role }, { ...attempt, now, fields, how: " with a passkey" });
}

/** The member's passkeys, oldest first. */
export async function listPasskeys(db: Db, adminId: string): Promise<Passkey[]> {
  const rows = await db
    .selectFrom("passkeys")
    .select(["id", "name", "created_at", "last_used_at", "backed_up", "transports"])
    .where("admin_id", "=", adminId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: toIsoString(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : toIsoString(row.last_used_at),
    backedUp: toBoolean(row.backed_up),
    transports: JSON.parse(row.transports) as string[],
  }));
}

/** Renames one of the member's passkeys; false when it is not theirs. Throws PasskeyError for a name that will not do. */
export async function renamePasskey(db: Db, member: MemberActor, passkeyId: string, name: string): Promise<boolean> {
  const label = passkeyName(name);
  return inTransaction(db, async (trx) => {
    const result = await trx.updateTable("passkeys").set({ name: label }).where("id", "=", passkeyId).where("admin_id", "=", member.id).executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await audit(trx, { actor: member, action: "passkey-renamed", target: member.id });
    return true;
  });
}

/** Removes one of the member's passkeys; refused while an owner requires a second factor and it is the member's last. */
export async function removePasskey(
  db: Db,
  member: MemberActor,
  passkeyId: string,
): Promise<{ ok: true; name: string } | { ok: false; reason: "not-found" | "required" }> {
  return inTransaction(db, async (trx) => {
    // Checked under the team's lock, so an owner's requirement cannot land between the check and the removal.
    await lockTeam(trx);
    const row = await trx.selectFrom("passkeys").select("name").where("id", "=", passkeyId).where("admin_id", "=", member.id).executeTakeFirst();
    if (!row) return { ok: false as const, reason: "not-found" as const };
    if (!(await mayRemoveFactor(trx, member.id, "passkey"))) return { ok: false as const, reason: "required" as const };
    await trx.deleteFrom("passkeys").where("id", "=", passkeyId).where("admin_id", "=", member.id).execute();
    await audit(trx, { actor: member, action: "passkey-removed", target: member.id });
    return { ok: true as const, name: row.name };
  });
}
