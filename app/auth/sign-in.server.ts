import type { Db } from "~/platform/db.server";
import { clearEvents, countEvents, latestEvent, pruneEvents, recordEvent } from "~/platform/rate-limit.server";
import { findAdminByEmail, normalizeEmail, rehashPassword } from "./admins.server";
import { needsRehash, verifyAgainstDecoy, verifyPassword } from "./password.server";
import { createSession, deleteSessionByToken, pruneSessions } from "./sessions.server";

/** LOGIN_RATE_LIMIT failures per client IP and e-mail are allowed in this window. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** From anywhere, this many failures for one e-mail within the window lock it for the duration. */
export const LOCKOUT = { failures: 10, windowMs: 15 * 60 * 1000, durationMs: 15 * 60 * 1000 } as const;

export type SignInAttempt = {
  email: string;
  password: string;
  clientIp: string;
  /** LOGIN_RATE_LIMIT. */
  limit: number;
  /** The token of a session the browser already had: it is ended, never reused. */
  previousToken?: string;
  now?: Date;
};

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date; email: string }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "limited"; retryAfterSeconds: number };

/**
 * Checks a password and starts a new session. The answer is the same, and
 * takes about as long, whether or not the e-mail has an account; the limits
 * count e-mails, not accounts, so they do not tell either.
 */
export async function signIn(db: Db, attempt: SignInAttempt): Promise<SignInResult> {
  const now = attempt.now ?? new Date();
  const account = normalizeEmail(attempt.email);
  const ipSubject = `${attempt.clientIp} ${account}`;

  const lockedAt = await latestEvent(db, "login-lockout", account);
  if (lockedAt && lockedAt.getTime() + LOCKOUT.durationMs > now.getTime()) {
    return { ok: false, reason: "limited", retryAfterSeconds: Math.ceil((lockedAt.getTime() + LOCKOUT.durationMs - now.getTime()) / 1000) };
  }
  if ((await countEvents(db, "login-failure", ipSubject, LOGIN_WINDOW_MS, now)) >= attempt.limit) {
    console.warn(`Sign-in refused for ${account} from ${attempt.clientIp}: LOGIN_RATE_LIMIT reached`);
    return { ok: false, reason: "limited", retryAfterSeconds: LOGIN_WINDOW_MS / 1000 };
  }

  const admin = await findAdminByEmail(db, account);
  const valid = admin ? await verifyPassword(attempt.password, admin.password_hash) : await verifyAgainstDecoy(attempt.password);
  if (!admin || !valid) {
    await recordEvent(db, "login-failure", ipSubject, now);
    await recordEvent(db, "login-account-failure", account, now);
    if ((await countEvents(db, "login-account-failure", account, LOCKOUT.windowMs, now)) >= LOCKOUT.failures) {
      console.warn(
        `Sign-in locked for ${account} for ${LOCKOUT.durationMs / 60_000} minutes after ${LOCKOUT.failures} failures (last from ${attempt.clientIp}); \`npm run admin -- unlock ${account}\` lifts it`,
      );
      await recordEvent(db, "login-lockout", account, now);
      await clearEvents(db, "login-account-failure", account);
    }
    await pruneEvents(db, now);
    return { ok: false, reason: "invalid" };
  }

  await clearEvents(db, "login-failure", ipSubject);
  if (needsRehash(admin.password_hash)) await rehashPassword(db, admin.id, attempt.password);
  // A new id at every sign-in: a token planted before it (fixation) is worth nothing after.
  if (attempt.previousToken) await deleteSessionByToken(db, attempt.previousToken);
  await pruneSessions(db, now);
  const session = await createSession(db, admin.id, now);
  console.log(`Admin ${admin.email} signed in from ${attempt.clientIp}`);
  return { ok: true, token: session.token, expiresAt: session.expiresAt, email: admin.email };
}
