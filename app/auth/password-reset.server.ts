import { randomBytes, randomUUID } from "node:crypto";
import { enqueueEmail, type EmailComposer, type OutboxSignal } from "~/enquiries/outbox.server";
import { escapeHtml, messageIdFor } from "~/enquiries/emails";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import type { Trx } from "~/platform/db/transactions.server";
import { memberActor } from "~/audit/actor";
import { isValidEmail } from "~/platform/email-address";
import type { Log } from "~/platform/observe/log.server";
import type { OutgoingEmail } from "~/platform/mail/mailer.server";
import { ipLimitSubject, takeSlots } from "~/platform/limits/rate-limit.server";
import { readTally, type Tally } from "~/platform/limits/tally.server";
import { findAdminByEmail, normalizeEmail, replacePassword } from "./admins.server";
import { hashToken } from "./sessions.server";

/**
 * "Forgot your password?" (docs/decisions/043). A request is answered the
 * same way, after the same work, whether or not the address is a member's:
 * the limits are taken (they count addresses, not members) and one outbox
 * job is queued, and that is all the request does. Whose address it is is
 * found out later, by the outbox worker, which composes the e-mail as it is
 * sent (composePasswordResetEmail): a member's gets a link, anyone else's
 * job is deleted unsent. So neither the answer, its status, nor its timing
 * depends on the address, and a link's token exists only in the e-mail and,
 * as its SHA-256, in password_resets: valid RESET_LINK_MS, used once.
 */
export const RESET_LINK_MS = 30 * 60 * 1000;
/** Requests per address and per client address (an IPv6 /64) in RESET_WINDOW_MS. */
export const RESET_LIMITS = { perAddress: 3, perClient: 10 } as const;
export const RESET_WINDOW_MS = 60 * 60 * 1000;
/** How far back the dashboard reports requests the limits refused. */
const REFUSALS_SHOWN_MS = 24 * 60 * 60 * 1000;

export type ResetRequest = {
  email: string;
  clientIp: string;
  /** PUBLIC_URL, or else the origin the request came to: the link in the e-mail starts with it. */
  siteUrl: string;
  /** E-mail is configured (SMTP_URL); without it no link can be sent. */
  mailOn: boolean;
  /** Wakes this process's outbox worker. */
  outbox?: OutboxSignal;
  /** Where refusals are counted for the dashboard (the app's Tally). */
  tally: Pick<Tally, "count">;
  /** For tests; default RESET_LIMITS. */
  limits?: { perAddress: number; perClient: number };
  now?: Date;
  log: Pick<Log, "info" | "warn">;
};

export type ResetRequestAnswer =
  /** The same for every address: "if it is a member's, a link is on its way". */
  | { ok: true }
  | { ok: false; reason: "not-an-address" }
  /** No SMTP_URL: the site cannot send the link; the same for every address. */
  | { ok: false; reason: "no-mail" }
  | { ok: false; reason: "limited"; retryAfterSeconds: number };

/** The job's payload: what the e-mail is composed from when it is sent. */
type ResetPayload = { email: string; siteUrl: string; clientIp: string };

export async function requestPasswordReset(db: Db, request: ResetRequest): Promise<ResetRequestAnswer> {
  const now = request.now ?? new Date();
  const email = normalizeEmail(request.email);
  if (!isValidEmail(email)) return { ok: false, reason: "not-an-address" };
  if (!request.mailOn) return { ok: false, reason: "no-mail" };
  const limits = request.limits ?? RESET_LIMITS;
  const slots = await takeSlots(
    db,
    [
      { bucket: "password-reset-address", subject: email, limit: limits.perAddress },
      { bucket: "password-reset-client", subject: ipLimitSubject(request.clientIp), limit: limits.perClient },
    ],
    { windowMs: RESET_WINDOW_MS, now },
  );
  if (!slots.ok) {
    // Counted for the dashboard, without a row per request (decision 037): a limit that may turn a member away must be seen.
    request.tally.count("password-reset-refused", now);
    const which = slots.refused === 0 ? `${limits.perAddress} an hour for the address` : `${limits.perClient} an hour from this client address`;
    request.log.warn({ ip: request.clientIp }, `Password reset request refused: ${which}`);
    return { ok: false, reason: "limited", retryAfterSeconds: slots.retryAfterSeconds };
  }
  const payload: ResetPayload = { email, siteUrl: request.siteUrl, clientIp: request.clientIp };
  await enqueueEmail(
    db,
    { id: randomUUID(), kind: "password-reset", payload: JSON.stringify(payload), expiresAt: new Date(now.getTime() + RESET_LINK_MS) },
    now,
  );
  request.outbox?.signal();
  request.log.info({ ip: request.clientIp }, "Password reset requested");
  return { ok: true };
}

/**
 * Password reset requests the limits refused in the last 24 hours, and the
 * last one's time; undefined when none. (What this instance counted but has
 * not written yet is not in it: the caller flushes its tally first.)
 */
export async function refusedResetRequests(db: Db, now: Date): Promise<{ count: number; last: Date } | undefined> {
  return (await readTally(db, new Date(now.getTime() - REFUSALS_SHOWN_MS)))["password-reset-refused"];
}

export type ResetEmailContext = { from: string; siteName: string; db: Db; log: Pick<Log, "info"> };

/**
 * The outbox's composer for "password-reset" jobs (boot.server.ts gives it to
 * the worker): a member's address gets a new link (its token made now, its
 * hash stored), anyone else's gets nothing.
 */
export function passwordResetComposer({ db, from, siteName, log }: ResetEmailContext): EmailComposer {
  return async (job, now) => {
    const payload = JSON.parse(job.payload) as ResetPayload;
    const admin = await findAdminByEmail(db, payload.email);
    if (!admin) {
      log.info(`E-mail ${job.id}: a password reset for an address with no member: nothing sent`);
      return undefined;
    }
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(now.getTime() + RESET_LINK_MS);
    await db
      .insertInto("password_resets")
      .values({
        id: randomUUID(),
        admin_id: admin.id,
        token_hash: hashToken(token),
        requested_ip: payload.clientIp,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      })
      .execute();
    const link = `${payload.siteUrl}/admin/reset-password?token=${token}`;
    // Each attempt carries a new link, so a new Message-ID.
    return passwordResetEmail({ to: admin.email, from, siteName, link, messageId: messageIdFor(`${job.id}-${job.attempts}`, from) });
  };
}

function passwordResetEmail({
  to,
  from,
  siteName,
  link,
  messageId,
}: {
  to: string;
  from: string;
  siteName: string;
  link: string;
  messageId: string;
}): OutgoingEmail {
  const subject = `Set a new password for ${siteName}`;
  const minutes = RESET_LINK_MS / 60_000;
  const lines = [
    `Someone asked to set a new password for the back office of ${siteName} with this address.`,
    `To set one, open this link within ${minutes} minutes. It works once:`,
  ];
  const after = "Setting a new password signs you out of every browser. If you did not ask for this, ignore this e-mail: your password stays as it is.";
  const text = [...lines, "", link, "", after, ""].join("\n");
  const html = `<!doctype html>
<html lang="en-GB">
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;background:#ffffff;">
${lines.map((line) => `<p style="margin:0 0 12px;">${escapeHtml(line)}</p>`).join("\n")}
<p style="margin:0 0 12px;"><a href="${escapeHtml(link)}" style="color:#1d4ed8;">Set a new password</a></p>
<p style="margin:0;">${escapeHtml(after)}</p>
</body>
</html>
`;
  return { from, to: [to], subject, text, html, messageId };
}

export type ResetLink = { ok: true; email: string } | { ok: false; reason: "invalid" | "expired" | "used" };

async function findReset(db: Db, token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return db
    .selectFrom("password_resets as r")
    .innerJoin("admin_users as u", "u.id", "r.admin_id")
    .select(["r.id", "r.admin_id", "r.expires_at", "r.used_at", "u.email", "u.role"])
    .where("r.token_hash", "=", hashToken(token))
    .executeTakeFirst();
}

function stateOf(row: { expires_at: Date | string; used_at: Date | string | null } | undefined, now: Date): "invalid" | "expired" | "used" | "ok" {
  if (!row) return "invalid";
  if (row.used_at !== null) return "used";
  return new Date(toIsoString(row.expires_at)).getTime() <= now.getTime() ? "expired" : "ok";
}

/** Whether a link still works, for the page it opens (which then asks for the new password). */
export async function checkResetLink(db: Db, token: string, now = new Date()): Promise<ResetLink> {
  const row = await findReset(db, token);
  const state = stateOf(row, now);
  return state === "ok" ? { ok: true, email: row!.email } : { ok: false, reason: state };
}

class LinkUsedMeanwhile extends Error {}

export type ResetResult = { ok: true; email: string; adminId: string; endedSessions: number } | Extract<ResetLink, { ok: false }>;

/**
 * Sets the new password through a link: the link is used up, every session
 * of the member ends, every other link of theirs stops working, and a
 * lockout is lifted (whoever can set the password can sign in). A password
 * that breaks the rules throws AdminError and uses nothing up.
 */
export async function resetPassword(
  db: Db,
  token: string,
  password: string,
  { clientIp, now = new Date() }: { clientIp: string; now?: Date },
): Promise<ResetResult> {
  const row = await findReset(db, token);
  const state = stateOf(row, now);
  if (state !== "ok") return { ok: false, reason: state };
  const during = async (trx: Trx) => {
    const used = await trx
      .updateTable("password_resets")
      .set({ used_at: now.toISOString() })
      .where("id", "=", row!.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    // Another request used it first: nothing changes.
    if (Number(used.numUpdatedRows) !== 1) throw new LinkUsedMeanwhile();
    await trx.updateTable("password_resets").set({ used_at: now.toISOString() }).where("admin_id", "=", row!.admin_id).where("used_at", "is", null).execute();
  };
  // Whoever holds the link proved they read the member's e-mail: the entry is the member's own.
  const actor = memberActor({ adminId: row!.admin_id, email: row!.email, role: row!.role }, clientIp);
  // The lockout is lifted with the new password, in its transaction (whoever can set it can sign in).
  const outcome = await replacePassword(db, row!.admin_id, password, { actor, action: "password-reset", during }).catch((error: unknown) => {
    if (error instanceof LinkUsedMeanwhile) return undefined;
    throw error;
  });
  if (!outcome) return { ok: false, reason: "used" };
  return { ok: true, email: row!.email, adminId: row!.admin_id, endedSessions: outcome.endedSessions };
}
