import type { Db } from "~/platform/db.server";
import { isValidEmail } from "~/platform/email-address";
import type { Log } from "~/platform/log.server";
import { countEvents, ipLimitSubject, latestEvent, recordEvent, takeSlot, type Slot } from "~/platform/rate-limit.server";

/** A place a limit gave: given back when the attempt does not count after all. */
type Taken = Extract<Slot, { ok: true }>;
import { findAdminByEmail, normalizeEmail, recordFailedSignIn, rehashPassword, takeSignInHistory } from "./admins.server";
import { deviceLimitSubject, type Device } from "./device-cookie.server";
import { needsRehash, verifyAgainstDecoy, verifyPassword, withHashSlot } from "./password.server";
import { createPendingSignIn } from "./pending-sign-in.server";
import { createSession, deleteSessionByToken, pruneSessions, type SessionClient } from "./sessions.server";
import { hasTwoStepSignIn } from "./totp.server";

/** LOGIN_RATE_LIMIT failures per client IP and e-mail are allowed in this window. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** From anywhere, this many failures for one e-mail within the window lock it for the duration. */
export const LOCKOUT = { failures: 10, windowMs: 15 * 60 * 1000, durationMs: 15 * 60 * 1000 } as const;
/**
 * Attempts from one client address (an IPv6 /64), whatever the e-mails, in
 * LOGIN_WINDOW_MS: at least this many, or four times LOGIN_RATE_LIMIT. Spread
 * over many e-mails, guesses would otherwise each cost a hash.
 */
export const MIN_ADDRESS_ATTEMPTS = 20;
/** Seconds a sign-in turned away because every hash slot is busy is asked to wait. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

export type SignInAttempt = {
  email: string;
  password: string;
  clientIp: string;
  /** LOGIN_RATE_LIMIT. */
  limit: number;
  /** The token of a session the browser already had: it is ended, never reused. */
  previousToken?: string;
  /** The browser's device cookie, when it carries a valid one (device-cookie.server.ts). */
  device?: Device;
  /** The request's User-Agent: the session lists the browser and system it names. */
  userAgent?: string | null;
  now?: Date;
  /** Where sign-ins and refusals are told: the address as a field (hashed in the log), never in the text. */
  log: Pick<Log, "info" | "warn">;
};

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date; email: string; adminId: string }
  /** The password was right and the member has two-step sign-in: the code comes next (two-step-sign-in.server.ts). */
  | { ok: false; reason: "second-step"; pendingToken: string; expiresAt: Date; adminId: string }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "limited"; retryAfterSeconds: number }
  | { ok: false; reason: "busy"; retryAfterSeconds: number };

/**
 * Checks a password and starts a new session. The answer is the same, and
 * takes about as long, whether or not the e-mail has an account; the limits
 * count e-mails, not accounts, so they do not tell either.
 *
 * Every limit takes its place before the password is hashed and gives it
 * back when the password was right, so a burst of parallel guesses gets no
 * more hashes than the limits allow (docs/decisions/018). A browser whose
 * device cookie names this account is held to its own small limit instead of
 * the account's lockout and the per-address limits.
 */
export async function signIn(db: Db, attempt: SignInAttempt): Promise<SignInResult> {
  const now = attempt.now ?? new Date();
  const account = normalizeEmail(attempt.email);
  const admin = await findAdminByEmail(db, account);
  const trustedDevice = attempt.device !== undefined && admin !== undefined && attempt.device.adminId === admin.id;
  // An admin's own address names the account; what else was typed may be anyone's, so it is a (hashed) field.
  const who = admin ? admin.email : isValidEmail(account) ? "an address with no account" : "(not an e-mail address)";
  const fields: Record<string, string> = admin || !isValidEmail(account) ? { ip: attempt.clientIp } : { ip: attempt.clientIp, email: account };

  const taken = trustedDevice
    ? await takeDeviceSlot(db, attempt.device!, attempt, now)
    : await takeAttackerSlots(db, account, who, fields, attempt, now);
  if (!Array.isArray(taken)) return taken;
  const giveBack = () => Promise.all(taken.map((slot) => slot.release()));

  const hashed = await withHashSlot(() =>
    admin ? verifyPassword(attempt.password, admin.password_hash) : verifyAgainstDecoy(attempt.password),
  );
  if (!hashed) {
    await giveBack();
    attempt.log.warn(fields, `Sign-in for ${who} turned away: every password-hash slot is busy`);
    return { ok: false, reason: "busy", retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
  }
  if (!admin || !hashed.value) {
    // The places taken stay taken: they are the failure's record.
    if (admin) await recordFailedSignIn(db, admin.id);
    attempt.log.warn(fields, `Sign-in failed for ${who}`);
    if (!trustedDevice) await lockWhenDue(db, account, who, fields, attempt, now);
    return { ok: false, reason: "invalid" };
  }

  await giveBack();
  if (needsRehash(admin.password_hash)) await rehashPassword(db, admin.id, attempt.password);
  if (await hasTwoStepSignIn(db, admin.id)) {
    const pending = await createPendingSignIn(db, admin.id, now);
    attempt.log.info(fields, `Admin ${admin.email}: password right, the two-step code is next`);
    return { ok: false, reason: "second-step", pendingToken: pending.token, expiresAt: pending.expiresAt, adminId: admin.id };
  }
  const how = trustedDevice ? " (a browser used before)" : "";
  return startSession(db, admin, { ...attempt, now, fields, how });
}

/**
 * The last step of every way in (password, password and code, passkey): a new
 * session, whose id is new at every sign-in, so a token planted before it
 * (fixation) is worth nothing after.
 */
export async function startSession(
  db: Db,
  admin: { id: string; email: string },
  options: { previousToken?: string; clientIp: string; userAgent?: string | null; now: Date; log: Pick<Log, "info">; fields: Record<string, string>; how: string },
): Promise<Extract<SignInResult, { ok: true }>> {
  if (options.previousToken) await deleteSessionByToken(db, options.previousToken);
  await pruneSessions(db, options.now);
  const client: SessionClient = { ip: options.clientIp, userAgent: options.userAgent };
  const session = await createSession(db, admin.id, options.now, await takeSignInHistory(db, admin.id, options.now), client);
  options.log.info(options.fields, `Admin ${admin.email} signed in${options.how}`);
  return { ok: true, token: session.token, expiresAt: session.expiresAt, email: admin.email, adminId: admin.id };
}

type Limited = Extract<SignInResult, { reason: "limited" }>;
/** What the limits need of an attempt: a wrong two-step code is held to them as a wrong password is. */
export type LimitedAttempt = Pick<SignInAttempt, "clientIp" | "limit" | "log">;

function limited(retryAfterSeconds: number): Limited {
  return { ok: false, reason: "limited", retryAfterSeconds };
}

/** A browser the account signed in from before: only its own failures count, LOGIN_RATE_LIMIT of them. */
export async function takeDeviceSlot(db: Db, device: Device, attempt: LimitedAttempt, now: Date): Promise<Taken[] | Limited> {
  const slot = await takeSlot(db, "login-device-failure", deviceLimitSubject(device), { limit: attempt.limit, windowMs: LOGIN_WINDOW_MS, now });
  if (slot.ok) return [slot];
  attempt.log.warn({ ip: attempt.clientIp }, "Sign-in refused: LOGIN_RATE_LIMIT reached for a browser used before");
  return limited(slot.retryAfterSeconds);
}

/**
 * Everyone else, in order: the account's lockout; attempts from this address
 * whatever the e-mail; failures from this address for this e-mail
 * (LOGIN_RATE_LIMIT); failures for this e-mail from anywhere (the lockout's
 * count). Each refusal gives back the places taken before it.
 */
export async function takeAttackerSlots(
  db: Db,
  account: string,
  who: string,
  fields: Record<string, string>,
  attempt: LimitedAttempt,
  now: Date,
): Promise<Taken[] | Limited> {
  const lockedAt = await latestEvent(db, "login-lockout", account);
  if (lockedAt && lockedAt.getTime() + LOCKOUT.durationMs > now.getTime()) {
    return limited(Math.ceil((lockedAt.getTime() + LOCKOUT.durationMs - now.getTime()) / 1000));
  }
  const taken: Taken[] = [];
  const refuse = async (retryAfterSeconds: number, why: string) => {
    await Promise.all(taken.map((slot) => slot.release()));
    attempt.log.warn(fields, `Sign-in refused for ${who}: ${why}`);
    return limited(retryAfterSeconds);
  };

  const address = await takeSlot(db, "login-address", ipLimitSubject(attempt.clientIp), {
    limit: Math.max(MIN_ADDRESS_ATTEMPTS, 4 * attempt.limit),
    windowMs: LOGIN_WINDOW_MS,
    now,
  });
  if (!address.ok) return refuse(address.retryAfterSeconds, "too many attempts from this address");
  taken.push(address);

  const pair = await takeSlot(db, "login-failure", `${attempt.clientIp} ${account}`, { limit: attempt.limit, windowMs: LOGIN_WINDOW_MS, now });
  if (!pair.ok) return refuse(pair.retryAfterSeconds, "LOGIN_RATE_LIMIT reached");
  taken.push(pair);

  // The lockout's own count: a burst from many addresses gets no more than its failures between them.
  const accountSlot = await takeSlot(db, "login-account-failure", account, { limit: LOCKOUT.failures, windowMs: LOCKOUT.windowMs, now });
  if (!accountSlot.ok) return refuse(accountSlot.retryAfterSeconds, `${LOCKOUT.failures} failures for the e-mail`);
  taken.push(accountSlot);
  return taken;
}

/** After a failure from outside: the e-mail's failures from anywhere reached the lockout's count? Then lock it. */
export async function lockWhenDue(db: Db, account: string, who: string, fields: Record<string, string>, attempt: LimitedAttempt, now: Date): Promise<void> {
  if ((await countEvents(db, "login-account-failure", account, LOCKOUT.windowMs, now)) < LOCKOUT.failures) return;
  // The failures stay counted: cleared, they would give attempts still in flight new places. They
  // are older than the window by the time the lockout ends.
  await recordEvent(db, "login-lockout", account, now);
  attempt.log.warn(
    fields,
    `Sign-in locked for ${who} for ${LOCKOUT.durationMs / 60_000} minutes after ${LOCKOUT.failures} failures (the last from this address); ` +
      `\`npm run admin -- unlock\` lifts it, and a browser that signed in to the account before is not held by it`,
  );
}
