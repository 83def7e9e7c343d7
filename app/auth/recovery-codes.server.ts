import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "~/platform/db/db.server";

/**
 * Ten single-use recovery codes, for a member whose authenticator app is
 * lost. Each is 24 characters of base32 (120 random bits), shown once in
 * groups of four, and stored as its SHA-256: OWASP ASVS 5.0 (6.5.2) asks for
 * a password hash only below 112 bits, and a plain hash lets a code be found
 * by one indexed look-up instead of one Argon2id per stored code.
 */
export const RECOVERY_CODE_COUNT = 10;
const CODE_LENGTH = 24;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const CODE_PATTERN = /^[a-z2-7]{24}$/;

function newCode(): string {
  // 32 letters: a byte's low five bits pick one without bias.
  return [...randomBytes(CODE_LENGTH)].map((byte) => ALPHABET[byte & 31]).join("");
}

/** "abcd-efgh-…": how a code is shown. */
function grouped(code: string): string {
  return code.match(/.{4}/g)!.join("-");
}

/** A code as typed (any case, spaces or dashes) in its stored form; undefined when it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | undefined {
  const code = typed.replace(/[\s-]/g, "").toLowerCase();
  return CODE_PATTERN.test(code) ? code : undefined;
}

function hashCode(code: string): string {
  return createHash("sha256").update(`recovery-code:${code}`).digest("hex");
}

/** Replaces the member's codes with ten new ones, returned as shown (once: only their hashes are kept). */
export async function replaceRecoveryCodes(db: Db, adminId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await db.deleteFrom("recovery_codes").where("admin_id", "=", adminId).execute();
  await db
    .insertInto("recovery_codes")
    .values(codes.map((code) => ({ id: randomUUID(), admin_id: adminId, code_hash: hashCode(code), created_at: now.toISOString() })))
    .execute();
  return codes.map(grouped);
}

/** Uses up one of the member's codes: true once for each code, then never again. */
export async function redeemRecoveryCode(db: Db, adminId: string, typed: string, now: Date): Promise<boolean> {
  const code = normalizeRecoveryCode(typed);
  if (code === undefined) return false;
  const result = await db
    .updateTable("recovery_codes")
    .set({ used_at: now.toISOString() })
    .where("admin_id", "=", adminId)
    .where("code_hash", "=", hashCode(code))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many of the member's codes are left unused. */
export async function recoveryCodesLeft(db: Db, adminId: string): Promise<number> {
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("admin_id", "=", adminId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
