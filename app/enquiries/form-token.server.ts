import { createHmac, timingSafeEqual } from "node:crypto";
import type { Secrets } from "~/platform/db/secrets.server";
import type { Log } from "~/platform/observe/log.server";

/**
 * The contact form's time trap. The page carries a token saying when it was
 * rendered, signed so that it cannot be backdated; a form sent back sooner
 * than most people could fill it in is marked as possible spam (spam.server.ts).
 * No cookie, no third party.
 *
 * A token is `<issued-at, whole seconds since the epoch>.<HMAC-SHA256 of it, base64url>`.
 */

/** A person needs longer than this to fill in the form; a script does not. */
export const MIN_FORM_AGE_MS = 3_000;

const SECRET_NAME = "form-token";
/** Anything longer is not one of ours: refused before any work is done on it. */
const MAX_TOKEN_LENGTH = 64;
const TOKEN_PATTERN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export type FormTokenCheck = "ok" | "no-token" | "bad-token" | "too-fast";

/**
 * Rounded up to the next whole second: the landing page is rendered once per
 * version of the public data (page-cache.server.ts), so the token changes
 * it at most once a second, and a token never claims to be older than it is.
 */
export function issuedAtSeconds(now: Date): number {
  return Math.ceil(now.getTime() / 1000);
}

function signature(key: Buffer, issuedAt: string): Buffer {
  return createHmac("sha256", key).update(`contact-form:${issuedAt}`).digest();
}

/** A token for a page served at `now`. */
export function signFormToken(key: Buffer, now = new Date()): string {
  const issuedAt = issuedAtSeconds(now);
  return `${issuedAt}.${signature(key, String(issuedAt)).toString("base64url")}`;
}

/**
 * Never throws: whatever arrives in the field is checked as a token. Tokens
 * are stamped and judged on the database's clock (platform/fleet/clock.server.ts);
 * `toleranceMs`, how far that clock's reading may be off, is given to the
 * sender.
 */
export function checkFormToken(key: Buffer, token: unknown, now = new Date(), toleranceMs = 0): FormTokenCheck {
  if (token === undefined || token === null || token === "") return "no-token";
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return "bad-token";
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return "bad-token";
  const [, issuedAt, signed] = match as unknown as [string, string, string];
  const given = Buffer.from(signed, "base64url");
  const expected = signature(key, issuedAt);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "bad-token";
  // No upper limit: a person may leave the tab open for days before sending.
  return now.getTime() + toleranceMs - Number(issuedAt) * 1000 < MIN_FORM_AGE_MS ? "too-fast" : "ok";
}

/**
 * The contact form's tokens for one boot of the app: the key is a server
 * secret every instance on the database shares, and every page served within
 * one second carries the same token (signed once).
 */
export type FormTokens = {
  issue(now: Date): Promise<string>;
  verify(token: unknown, now: Date, toleranceMs?: number): Promise<FormTokenCheck>;
};

export function createFormTokens(secrets: Secrets): FormTokens {
  let last: { issuedAt: number; token: string } | undefined;
  const key = () => secrets.key(SECRET_NAME);
  return {
    async issue(now) {
      const issuedAt = issuedAtSeconds(now);
      if (last?.issuedAt !== issuedAt) last = { issuedAt, token: signFormToken(await key(), now) };
      return last.token;
    },
    async verify(token, now, toleranceMs = 0) {
      return checkFormToken(await key(), token, now, toleranceMs);
    },
  };
}

/**
 * The time-trap token the form sends back. Without its key (database down)
 * the page still renders; an enquiry sent from it is kept, marked as possible spam.
 */
export async function formTokenFor({ formTokens, log }: { formTokens: FormTokens; log: Pick<Log, "error"> }, now: Date): Promise<string> {
  try {
    return await formTokens.issue(now);
  } catch (error) {
    log.error({ err: error }, "Could not issue a contact form token");
    return "";
  }
}
