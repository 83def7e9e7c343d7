import type { Db } from "~/platform/db/db.server";
import { isValidEmail } from "~/platform/email-address";
import type { Log } from "~/platform/observe/log.server";
import { countEvents, ipLimitSubject, latestEvent, recordEvent, takeSlot, type Slot } from "~/platform/limits/rate-limit.server";

/** A place a limit gave: given back when the attempt does not count after all. */
type Taken = Extract<Slot, { ok: true }>;
import { findAdminByEmail, normalizeEmail, recordFailedSignIn, rehashPassword, takeSignInHistory } from "./admins.server";
import { deviceLimitSubject, type Device } from "./device-cookie.server";
import { needsRehash, reserveHashSlot, verifyAgainstDecoy, verifyPassword } from "./password.server";
import { createPendingSignIn } from "./pending-sign-in.server";
import type { Role } from "./roles";
import { createSession, deleteSessionByToken, pruneSessions, type SessionClient } from "./sessions.server";
import { hasTwoStepSignIn } from "./totp.server";
import { audit } from "~/audit/audit.server";
import type { SignInFailure } from "~/audit/kinds";
import { inTransaction } from "~/platform/db/transactions.server";

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
 * more hashes than the limits allow (docs/decisions/018). A place to hash is
 * held before them, so a sign-in the server is too busy for costs no query.
 * A browser whose device cookie names this account is held to its own small
 * limit instead of the account's lockout and the per-address limits, and
 * hashes in a lane of its own (decision 037).
 */
export async function signIn(db: Db, attempt: SignInAttempt): Promise<SignInResult> {
  const now = attempt.now ?? new Date();
  // A place to hash first: when every one is taken the attempt is turned away before it costs a query (without
  // a device cookie, before even the account is looked up). A browser the account signed in from before has a
  // lane of its own, so a flood of guesses cannot keep the owner out.
  const early = attempt.device === undefined ? reserveHashSlot("anyone") : undefined;
  if (attempt.device === undefined && !early) return busy(attempt.log, { ip: attempt.clientIp }, "a sign-in");
  const account = normalizeEmail(attempt.email);
  let admin: Awaited<ReturnType<typeof findAdminByEmail>>;
  try {
    admin = await findAdminByEmail(db, account);
  } catch (error) {
    early?.cancel();
    throw error;
  }
  const trustedDevice = attempt.device !== undefined && admin !== undefined && attempt.device.adminId === admin.id;
  // An admin's own address names the account; what else was typed may be anyone's, so it is a (hashed) field.
  const who = admin ? admin.email : isValidEmail(account) ? "an address with no account" : "(not an e-mail address)";
  const fields: Record<string, string> = admin || !isValidEmail(account) ? { ip: attempt.clientIp } : { ip: attempt.clientIp, email: account };

  const place = early ?? reserveHashSlot(trustedDevice ? "known-device" : "anyone");
  if (!place) return busy(attempt.log, fields, `a sign-in for ${who}`);
  let taken: Taken[] | Limited;
  try {
    taken = trustedDevice ? await takeDeviceSlot(db, attempt.device!, attempt, now) : await takeAttackerSlots(db, account, who, fields, attempt, now);
  } catch (error) {
    place.cancel();
    throw error;
  }
  if (!Array.isArray(taken)) {
    place.cancel();
    return taken;
  }
  const giveBack = () => Promise.all(taken.map((slot) => slot.release()));

  const correct = await place.run(() => (admin ? verifyPassword(attempt.password, admin.password_hash) : verifyAgainstDecoy(attempt.password)));
  if (!admin || !correct) {
    // The places taken stay taken: they are the failure's record.
    // The address typed is not kept unless it is a member's: it may be anyone's, or a password typed in the wrong field.
    await recordSignInFailure(db, { adminId: admin?.id, clientIp: attempt.clientIp, failure: admin ? "wrong-password" : "no-such-member", now });
    attempt.log.warn(fields, `Sign-in failed for ${who}`);
    if (!trustedDevice) await lockWhenDue(db, account, who, fields, attempt, now, admin?.id);
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
 * (fixation) is worth nothing after. The session and the sign-in's audit
 * entry are written in one transaction.
 */
export async function startSession(
  db: Db,
  admin: { id: string; email: string; role: Role },
  options: {
    previousToken?: string;
    clientIp: string;
    userAgent?: string | null;
    now: Date;
    log: Pick<Log, "info">;
    fields: Record<string, string>;
    how: string;
  },
): Promise<Extract<SignInResult, { ok: true }>> {
  const { now } = options;
  if (options.previousToken) await deleteSessionByToken(db, options.previousToken);
  await pruneSessions(db, now);
  const client: SessionClient = { ip: options.clientIp, userAgent: options.userAgent };
  const session = await inTransaction(db, async (trx) => {
    const started = await createSession(trx, admin.id, now, await takeSignInHistory(trx, admin.id, now), client);
    const actor = { kind: "member", id: admin.id, email: admin.email, role: admin.role, ip: options.clientIp } as const;
    await audit(trx, { actor, action: "sign-in", target: admin.id, at: now });
    return started;
  });
  options.log.info(options.fields, `Admin ${admin.email} signed in${options.how}`);
  return { ok: true, token: session.token, expiresAt: session.expiresAt, email: admin.email, adminId: admin.id };
}

/**
 * A checked failure of any way in (a wrong password, code or passkey): one
 * more failed sign-in to tell the member about, and the audit entry, in one
 * transaction. Refusals by a limit are not recorded (decision 042).
 */
export async function recordSignInFailure(
  db: Db,
  { adminId, clientIp, failure, now }: { adminId: string | undefined; clientIp: string; failure: SignInFailure; now: Date },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (adminId) await recordFailedSignIn(trx, adminId);
    await audit(trx, { actor: { kind: "visitor", ip: clientIp }, action: "sign-in-failed", target: adminId, details: { failure }, at: now });
  });
}

type Limited = Extract<SignInResult, { reason: "limited" }>;
/** What the limits need of an attempt: a wrong two-step code is held to them as a wrong password is. */
export type LimitedAttempt = Pick<SignInAttempt, "clientIp" | "limit" | "log">;

/** Every place to hash is taken: 503 with Retry-After, at once. */
function busy(log: SignInAttempt["log"], fields: Record<string, string>, what: string): SignInResult {
  log.warn(fields, `${what.charAt(0).toUpperCase()}${what.slice(1)} turned away: every password-hash slot is busy`);
  return { ok: false, reason: "busy", retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
}

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
export async function lockWhenDue(
  db: Db,
  account: string,
  who: string,
  fields: Record<string, string>,
  attempt: LimitedAttempt,
  now: Date,
  adminId?: string,
): Promise<void> {
  if ((await countEvents(db, "login-account-failure", account, LOCKOUT.windowMs, now)) < LOCKOUT.failures) return;
  // The failures stay counted: cleared, they would give attempts still in flight new places. They
  // are older than the window by the time the lockout ends.
  await inTransaction(db, async (trx) => {
    await recordEvent(trx, "login-lockout", account, now);
    await audit(trx, { actor: { kind: "visitor", ip: attempt.clientIp }, action: "sign-in-locked", target: adminId, at: now });
  });
  attempt.log.warn(
    fields,
    `Sign-in locked for ${who} for ${LOCKOUT.durationMs / 60_000} minutes after ${LOCKOUT.failures} failures (the last from this address); ` +
      `\`npm run admin -- unlock\` lifts it, and a browser that signed in to the account before is not held by it`,
  );
}
