import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { inTransaction } from "~/platform/db/transactions.server";
import { loadKey } from "~/platform/db/secrets.server";
import { audit } from "~/audit/audit.server";
import type { MemberActor } from "~/audit/actor";
import { endSessionsBut } from "./member-sessions.server";
import { recoveryCodesLeft, replaceRecoveryCodes } from "./recovery-codes.server";
import { mayRemoveFactor } from "./second-factor-policy.server";
import { lockTeam } from "./team.server";

/**
 * Two-step sign-in with an authenticator app: TOTP (RFC 6238) by `otpauth`,
 * 6 digits every 30 s, HMAC-SHA1 (what every authenticator app reads from
 * the QR code), a code accepted for one step either side of now. A code is
 * accepted once: the last accepted time step is stored, and no code of it or
 * of an earlier step is taken again.
 *
 * The secret is stored encrypted (AES-256-GCM under the "totp-secrets" key of
 * app_secrets, bound to the member's id), so it appears in no row, export or
 * log as it is; a full copy of the database holds the key too, and is as
 * sensitive as the database (docs/decisions/043). The key is read through
 * the `db` given, so each function here also works inside a caller's
 * transaction (one that records the change in the audit log).
 */
export const TOTP_SETTINGS = { algorithm: "SHA1", digits: 6, period: 30, window: 1 } as const;
const SECRET_BYTES = 20;
const KEY_NAME = "totp-secrets";
const CODE_PATTERN = /^\d{6}$/;

async function encryptSecret(db: Db, adminId: string, base32: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await loadKey(db, KEY_NAME), iv);
  cipher.setAAD(Buffer.from(`totp:${adminId}`));
  const sealed = Buffer.concat([cipher.update(base32, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
}

async function decryptSecret(db: Db, adminId: string, stored: string): Promise<string> {
  const [version, iv, sealed] = stored.split(".");
  if (version !== "v1" || !iv || !sealed) throw new Error("A stored TOTP secret is not in a known form");
  const bytes = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", await loadKey(db, KEY_NAME), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(`totp:${adminId}`));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
}

function totpOf(base32: string, labels?: { issuer: string; email: string }): TOTP {
  const { algorithm, digits, period } = TOTP_SETTINGS;
  return new TOTP({ secret: Secret.fromBase32(base32), algorithm, digits, period, ...(labels && { issuer: labels.issuer, label: labels.email }) });
}

/** The time step a code of `totp` matches now (±1), or undefined. */
function matchingStep(totp: TOTP, typed: string, now: Date): number | undefined {
  const code = typed.replace(/\s/g, "");
  if (!CODE_PATTERN.test(code)) return undefined;
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: TOTP_SETTINGS.window });
  return delta === null ? undefined : totp.counter({ timestamp: now.getTime() }) + delta;
}

/** What the set-up screen shows: the QR code (SVG, drawn here), the otpauth:// URI it holds, and the secret to type in. */
export type TotpSetup = { uri: string; qrSvg: string; secretText: string };

async function setupOf(base32: string, labels: { issuer: string; email: string }): Promise<TotpSetup> {
  const uri = totpOf(base32, labels).toString();
  // Loaded at the first set-up, not with every sign-in (it brings PNG and CLI code the server never uses).
  const { default: QRCode } = await import("qrcode");
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    uri,
    qrSvg: svg.replace("<svg ", '<svg role="img" aria-label="QR code for your authenticator app" '),
    secretText: base32.match(/.{1,4}/g)!.join(" "),
  };
}

/**
 * Starts setting up (or replacing) the member's authenticator app: a new
 * secret, kept as pending until a code from it is confirmed. An app already
 * on stays in use until then.
 */
export async function startTotpSetup(db: Db, member: { adminId: string; email: string; issuer: string }, now: Date): Promise<TotpSetup> {
  const base32 = new Secret({ size: SECRET_BYTES }).base32;
  const pending = await encryptSecret(db, member.adminId, base32);
  await db
    .insertInto("totp_factors")
    .values({ admin_id: member.adminId, pending_secret: pending, pending_created_at: now.toISOString() })
    .onConflict((conflict) => conflict.column("admin_id").doUpdateSet({ pending_secret: pending, pending_created_at: now.toISOString() }))
    .execute();
  return setupOf(base32, { issuer: member.issuer, email: member.email });
}

/** The set-up in progress, to show again (a wrong confirmation code, a reload); undefined when there is none. */
export async function pendingTotpSetup(db: Db, member: { adminId: string; email: string; issuer: string }): Promise<TotpSetup | undefined> {
  const row = await db.selectFrom("totp_factors").select("pending_secret").where("admin_id", "=", member.adminId).executeTakeFirst();
  if (!row?.pending_secret) return undefined;
  return setupOf(await decryptSecret(db, member.adminId, row.pending_secret), { issuer: member.issuer, email: member.email });
}

export type TotpConfirmation = { ok: true; recoveryCodes: string[]; endedSessions: number } | { ok: false; reason: "no-setup" | "wrong-code" };

/**
 * Confirms the set-up with a code from the app: two-step sign-in is on, ten
 * new recovery codes are made (returned once), and every other session of
 * the member ends (`keepSessionId`: the one confirming); the audit entry is
 * written with it.
 */
export async function confirmTotpSetup(
  db: Db,
  { member, code, keepSessionId, now }: { member: MemberActor; code: string; keepSessionId?: string; now: Date },
): Promise<TotpConfirmation> {
  const adminId = member.id;
  const row = await db.selectFrom("totp_factors").select("pending_secret").where("admin_id", "=", adminId).executeTakeFirst();
  if (!row?.pending_secret) return { ok: false, reason: "no-setup" };
  const step = matchingStep(totpOf(await decryptSecret(db, adminId, row.pending_secret)), code, now);
  if (step === undefined) return { ok: false, reason: "wrong-code" };
  return inTransaction(db, async (trx) => {
    const confirmed = await trx
      .updateTable("totp_factors")
      .set({ secret: row.pending_secret, confirmed_at: now.toISOString(), pending_secret: null, pending_created_at: null, last_used_step: step })
      .where("admin_id", "=", adminId)
      .where("pending_secret", "=", row.pending_secret)
      .executeTakeFirst();
    // Another request confirmed or replaced it meanwhile.
    if (Number(confirmed.numUpdatedRows) !== 1) return { ok: false as const, reason: "no-setup" as const };
    const recoveryCodes = await replaceRecoveryCodes(trx, adminId, now);
    const ended = await endSessionsBut(trx, adminId, keepSessionId);
    await audit(trx, { actor: member, action: "two-step-on", target: adminId, details: { count: ended }, at: now });
    return { ok: true as const, recoveryCodes, endedSessions: ended };
  });
}

/** Whether the member signs in with a code after the password. */
export async function hasTwoStepSignIn(db: Db, adminId: string): Promise<boolean> {
  const row = await db.selectFrom("totp_factors").select("admin_id").where("admin_id", "=", adminId).where("confirmed_at", "is not", null).executeTakeFirst();
  return row !== undefined;
}

/**
 * Checks a code from the member's app and uses it up: true once per time
 * step. Two requests with one code: the conditional update lets one through.
 */
export async function redeemTotpCode(db: Db, adminId: string, code: string, now: Date): Promise<boolean> {
  const row = await db.selectFrom("totp_factors").select("secret").where("admin_id", "=", adminId).where("confirmed_at", "is not", null).executeTakeFirst();
  if (!row?.secret) return false;
  const step = matchingStep(totpOf(await decryptSecret(db, adminId, row.secret)), code, now);
  if (step === undefined) return false;
  const used = await db
    .updateTable("totp_factors")
    .set({ last_used_step: step })
    .where("admin_id", "=", adminId)
    .where((eb) => eb.or([eb("last_used_step", "is", null), eb("last_used_step", "<", step)]))
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

export type TwoStepStatus = { on: boolean; confirmedAt: string | null; recoveryCodesLeft: number; setupInProgress: boolean };

export async function twoStepStatus(db: Db, adminId: string): Promise<TwoStepStatus> {
  const row = await db.selectFrom("totp_factors").select(["confirmed_at", "pending_secret"]).where("admin_id", "=", adminId).executeTakeFirst();
  const on = row?.confirmed_at !== null && row?.confirmed_at !== undefined;
  return {
    on,
    confirmedAt: on ? toIsoString(row!.confirmed_at!) : null,
    recoveryCodesLeft: on ? await recoveryCodesLeft(db, adminId) : 0,
    setupInProgress: Boolean(row?.pending_secret),
  };
}

/** New recovery codes for a member with two-step sign-in on (the old ones stop working); undefined when it is off. */
export async function regenerateRecoveryCodes(db: Db, member: MemberActor, now: Date): Promise<string[] | undefined> {
  if (!(await hasTwoStepSignIn(db, member.id))) return undefined;
  return inTransaction(db, async (trx) => {
    const codes = await replaceRecoveryCodes(trx, member.id, now);
    await audit(trx, { actor: member, action: "recovery-codes-renewed", target: member.id, at: now });
    return codes;
  });
}

/**
 * Turns two-step sign-in off for the member: the app's secret and the
 * recovery codes go. Refused while an owner requires a second factor and
 * the member has no passkey.
 */
export async function turnOffTotp(db: Db, member: MemberActor): Promise<{ ok: true; wasOn: boolean } | { ok: false; reason: "required" }> {
  const adminId = member.id;
  return inTransaction(db, async (trx) => {
    // Checked under the team's lock, so an owner's requirement cannot land between the check and the removal.
    await lockTeam(trx);
    if (!(await mayRemoveFactor(trx, adminId, "totp"))) return { ok: false as const, reason: "required" as const };
    const deleted = await trx.deleteFrom("totp_factors").where("admin_id", "=", adminId).returning("confirmed_at").executeTakeFirst();
    await trx.deleteFrom("recovery_codes").where("admin_id", "=", adminId).execute();
    const wasOn = deleted?.confirmed_at !== null && deleted?.confirmed_at !== undefined;
    // A set-up never confirmed changed nothing about how the member signs in.
    if (wasOn) await audit(trx, { actor: member, action: "two-step-off", target: adminId });
    return { ok: true as const, wasOn };
  });
}
