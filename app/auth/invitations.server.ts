import { createHash, randomBytes, randomUUID } from "node:crypto";
import { audit } from "~/audit/audit.server";
import { actorLabel, memberActor, type Actor } from "~/audit/actor";
import { enqueueEmail, type OutboxSignal } from "~/enquiries/outbox.server";
import { dialectOf, type Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { isValidEmail } from "~/platform/email-address";
import { passwordProblem } from "~/platform/password-rules";
import type { OutboxStatus } from "~/platform/db/schema";
import { inTransaction, type Trx } from "~/platform/db/transactions.server";
import { insertMember, normalizeEmail, takeSignInHistory } from "./admins.server";
import { invitationEmail } from "./invitation-email";
import { hashPassword } from "./password.server";
import { isRole, type Role } from "./roles";
import { createSession } from "./sessions.server";
import { TEAM_TEXT, lockTeam, mayManageTeam } from "./team.server";

/**
 * Invitations to the team (issue 21, docs/decisions/042). An owner invites an
 * address with a role; the link's token (256 random bits) is shown to nobody
 * but its recipient and kept only as its SHA-256. It works once, for 72
 * hours, until revoked, and inviting the address again replaces it. The
 * e-mail goes through the outbox in the invitation's own transaction, so it
 * survives a restart and a mail server's outage; without a mail server the
 * owner is given the link to pass on, and told why.
 */

export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;
/** Where an invitation's link lands; the token is in the query string, which the request log never writes. */
export const INVITATION_PATH = "/admin/join";

/** The longest name a member may give. */
export const MAX_NAME_LENGTH = 100;

export const INVITATION_TEXT = {
  invalidEmail: "Enter the e-mail address of the person to invite.",
  invalidRole: "Choose a role: Owner, Editor or Enquiries.",
  memberExists: (email: string) => `${email} is on the team already.`,
  sent: (email: string) => `Invitation sent to ${email}. The link in it works once, for 72 hours.`,
  mailOff: (email: string) =>
    `E-mail is off on this site (no SMTP_URL is set), so no invitation was sent. Pass this link to ${email} yourself, where only they will see it: it works once, for 72 hours, and is not shown again.`,
  revoked: "Invitation revoked: its link no longer works.",
  notPending: "That invitation is no longer pending: it was accepted or revoked.",
  // For the person who opened the link.
  unknownLink: "This invitation link is not valid. Check that you copied all of it, or ask an owner to invite you again.",
  expiredLink: "This invitation has run out: invitations last 72 hours. Ask an owner to invite you again.",
  usedLink: "This invitation has been used already. Sign in instead, or ask an owner to invite you again.",
  revokedLink: "This invitation was withdrawn. Ask an owner if you should have a new one.",
  alreadyMember: "This address is on the team already. Sign in instead.",
  nameMissing: "Enter your name.",
  nameTooLong: `Your name can be at most ${MAX_NAME_LENGTH} characters.`,
  nameInvalid: "Your name cannot contain line breaks or control characters.",
} as const;

export type PendingInvitation = { id: string; email: string; role: Role; expiresAt: string };

export type InvitationDelivery =
  /** In the outbox, to be sent (and retried) by the worker. */
  | { kind: "queued"; message: string }
  /** E-mail is off: the owner passes the link on. Shown once; it is not kept. */
  | { kind: "link"; link: string; message: string };

export type InviteResult =
  | { ok: true; invitation: PendingInvitation; delivery: InvitationDelivery }
  | { ok: false; reason: "invalid-email" | "invalid-role" | "member-exists" | "not-allowed"; message: string };

export type InviteOptions = {
  /** Who sends e-mail (MAIL_FROM); undefined when e-mail is off. */
  mail: { from: string } | undefined;
  companyName: string;
  /** The site's address the link starts with: PUBLIC_URL, or the request's origin (platform/http/context.ts siteUrl). */
  siteUrl: string;
  /** Wakes this process's outbox worker once the invitation is committed. */
  outbox?: OutboxSignal;
  now?: Date;
};

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function invitationLink(siteUrl: string, token: string): string {
  return `${siteUrl}${INVITATION_PATH}?token=${token}`;
}

/** Deletes the e-mails of an invitation not yet sent: they hold its link. */
async function dropUnsentEmails(trx: Trx, invitationIds: string[]): Promise<void> {
  if (invitationIds.length === 0) return;
  await trx.deleteFrom("email_outbox").where("invitation_id", "in", invitationIds).where("status", "!=", "sent").execute();
}

/** Revokes the open invitations of an address (or the one of an id), with their unsent e-mails; answers how many. */
async function revokeOpen(trx: Trx, column: "id" | "email", value: string, now: Date): Promise<number> {
  const revoked = await trx
    .updateTable("admin_invitations")
    .set({ revoked_at: now.toISOString() })
    .where(column, "=", value)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .returning("id")
    .execute();
  await dropUnsentEmails(
    trx,
    revoked.map((row) => row.id),
  );
  return revoked.length;
}

/** Invites an address with a role; an earlier open invitation of the address is revoked by it. */
export async function inviteMember(db: Db, request: { email: string; role: string }, actor: Actor, options: InviteOptions): Promise<InviteResult> {
  if (!mayManageTeam(actor)) return { ok: false, reason: "not-allowed", message: TEAM_TEXT.notAllowed };
  const email = normalizeEmail(request.email);
  if (email.length > 254 || !isValidEmail(email)) return { ok: false, reason: "invalid-email", message: INVITATION_TEXT.invalidEmail };
  if (!isRole(request.role)) return { ok: false, reason: "invalid-role", message: INVITATION_TEXT.invalidRole };
  const role = request.role;
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const invitation: PendingInvitation = { id: randomUUID(), email, role, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString() };
  const link = invitationLink(options.siteUrl, token);

  const created = await inTransaction(db, async (trx) => {
    // With the team's lock, two owners inviting one address at once take turns (one open invitation per address).
    await lockTeam(trx);
    const member = await trx.selectFrom("admin_users").select("id").where("email", "=", email).executeTakeFirst();
    if (member) return false;
    await revokeOpen(trx, "email", email, now);
    await trx
      .insertInto("admin_invitations")
      .values({
        id: invitation.id,
        email,
        role,
        token_hash: hashToken(token),
        invited_by: actor.kind === "member" ? actor.id : null,
        invited_by_email: actorLabel(actor),
        created_at: now.toISOString(),
        expires_at: invitation.expiresAt,
      })
      .execute();
    if (options.mail) {
      const jobId = randomUUID();
      const message = invitationEmail({
        jobId,
        from: options.mail.from,
        to: email,
        role,
        invitedBy: actorLabel(actor),
        companyName: options.companyName,
        expiresAt: new Date(invitation.expiresAt),
      });
      await enqueueEmail(trx, { id: jobId, kind: "invitation", invitationId: invitation.id, link, message }, now);
    }
    await audit(trx, { actor, action: "member-invited", target: invitation.id, details: { role }, at: now });
    return true;
  });
  if (!created) return { ok: false, reason: "member-exists", message: INVITATION_TEXT.memberExists(email) };
  if (!options.mail) return { ok: true, invitation, delivery: { kind: "link", link, message: INVITATION_TEXT.mailOff(email) } };
  options.outbox?.signal();
  return { ok: true, invitation, delivery: { kind: "queued", message: INVITATION_TEXT.sent(email) } };
}

export type InvitationSummary = PendingInvitation & {
  invitedBy: string;
  createdAt: string;
  /** Past its 72 hours, neither accepted nor revoked: invite again to send a new link. */
  expired: boolean;
  /** Its e-mail; null when e-mail was off (the link was handed over). */
  emailDelivery: { status: OutboxStatus; attempts: number; lastError: string | null; sentAt: string | null } | null;
};

/** The open invitations (not accepted, not revoked; expired ones too, marked), newest first, with their e-mail's state. */
export async function listInvitations(db: Db, now = new Date()): Promise<InvitationSummary[]> {
  const rows = await db
    .selectFrom("admin_invitations as i")
    .leftJoin("email_outbox as o", "o.invitation_id", "i.id")
    .select(["i.id", "i.email", "i.role", "i.invited_by_email", "i.created_at", "i.expires_at", "o.status", "o.attempts", "o.last_error", "o.sent_at"])
    .where("i.accepted_at", "is", null)
    .where("i.revoked_at", "is", null)
    .orderBy("i.created_at", "desc")
    .orderBy("i.id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by_email,
    createdAt: toIsoString(row.created_at),
    expiresAt: toIsoString(row.expires_at),
    expired: new Date(row.expires_at).getTime() <= now.getTime(),
    emailDelivery:
      row.status === null
        ? null
        : { status: row.status, attempts: Number(row.attempts), lastError: row.last_error, sentAt: row.sent_at === null ? null : toIsoString(row.sent_at) },
  }));
}

export type RevokeResult = { ok: true } | { ok: false; reason: "not-allowed" | "not-pending"; message: string };

/** Revokes an open invitation: its link stops working, and an e-mail not yet sent is not sent. */
export async function revokeInvitation(db: Db, invitationId: string, actor: Actor, now = new Date()): Promise<RevokeResult> {
  if (!mayManageTeam(actor)) return { ok: false, reason: "not-allowed", message: TEAM_TEXT.notAllowed };
  const revoked = await inTransaction(db, async (trx) => {
    if ((await revokeOpen(trx, "id", invitationId, now)) === 0) return false;
    await audit(trx, { actor, action: "invitation-revoked", target: invitationId, at: now });
    return true;
  });
  return revoked ? { ok: true } : { ok: false, reason: "not-pending", message: INVITATION_TEXT.notPending };
}

export type LinkRefusal = { ok: false; reason: "unknown" | "expired" | "used" | "revoked" | "member-exists"; message: string };

type Found = { id: string; email: string; role: Role; expires_at: Date | string; accepted_at: Date | string | null; revoked_at: Date | string | null };

function refusalOf(row: Found | undefined, now: Date): LinkRefusal | undefined {
  if (!row) return { ok: false, reason: "unknown", message: INVITATION_TEXT.unknownLink };
  if (row.accepted_at !== null) return { ok: false, reason: "used", message: INVITATION_TEXT.usedLink };
  if (row.revoked_at !== null) return { ok: false, reason: "revoked", message: INVITATION_TEXT.revokedLink };
  if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, reason: "expired", message: INVITATION_TEXT.expiredLink };
  return undefined;
}

const FOUND = ["id", "email", "role", "expires_at", "accepted_at", "revoked_at"] as const;

async function findByToken(db: Db, token: string): Promise<Found | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  return db.selectFrom("admin_invitations").select(FOUND).where("token_hash", "=", hashToken(token)).executeTakeFirst();
}

/** What the link's page shows before anything is typed: whom it invites, as what, until when; or why it does not work. */
export async function checkInvitation(db: Db, token: string, now = new Date()): Promise<({ ok: true } & PendingInvitation) | LinkRefusal> {
  const row = await findByToken(db, token);
  const refusal = refusalOf(row, now);
  if (refusal) return refusal;
  return { ok: true, id: row!.id, email: row!.email, role: row!.role, expiresAt: toIsoString(row!.expires_at) };
}

/** The name a member gives, trimmed; or why it cannot be one. */
export function parseMemberName(value: string | undefined): { name: string } | { problem: string } {
  const name = (value ?? "").trim().replace(/\s+/g, " ");
  if (name === "") return { problem: INVITATION_TEXT.nameMissing };
  if ([...name].length > MAX_NAME_LENGTH) return { problem: INVITATION_TEXT.nameTooLong };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a name with control characters is refused.
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value ?? "")) return { problem: INVITATION_TEXT.nameInvalid };
  return { name };
}

export type AcceptResult =
  | { ok: true; adminId: string; email: string; role: Role; token: string; expiresAt: Date }
  | LinkRefusal
  | { ok: false; reason: "invalid"; errors: { name?: string; password?: string } };

/**
 * Accepts an invitation: the member is created with the invitation's role,
 * the name and password given, and signed in (the session's token for the
 * cookie is returned), all in one transaction with the invitation's use, so
 * a link works once even when opened twice at the same moment. The token is
 * checked before the password is hashed: a wrong link costs a lookup, not a hash.
 */
export async function acceptInvitation(
  db: Db,
  acceptance: { token: string; name: string | undefined; password: string | undefined; ip: string; now?: Date },
): Promise<AcceptResult> {
  const now = acceptance.now ?? new Date();
  const found = await findByToken(db, acceptance.token);
  const refusal = refusalOf(found, now);
  if (refusal) return refusal;
  const invitation = found!;

  const name = parseMemberName(acceptance.name);
  const passwordIssue = passwordProblem(acceptance.password ?? "");
  if ("problem" in name || passwordIssue) {
    return {
      ok: false,
      reason: "invalid",
      errors: { ...("problem" in name ? { name: name.problem } : {}), ...(passwordIssue ? { password: `The password ${passwordIssue}.` } : {}) },
    };
  }
  const passwordHash = await hashPassword(acceptance.password!);
  return inTransaction(db, (trx) => admitMember(trx, invitation.id, { adminId: randomUUID(), passwordHash, name: name.name, ip: acceptance.ip, now }));
}

/**
 * The member an invitation makes, in the caller's transaction: the
 * invitation used (one UPDATE only one acceptance can win, and only while it
 * is open), the member created with its role, signed in, and the audit
 * entry. A refusal when the invitation stopped being usable meanwhile.
 */
export async function admitMember(
  trx: Trx,
  invitationId: string,
  { adminId, passwordHash, name, ip, now }: { adminId: string; passwordHash: string; name: string; ip: string; now: Date },
): Promise<AcceptResult> {
  // Again, inside the transaction: another tab may have used it while the password was hashed.
  // On PostgreSQL the row is locked first, so a second tab waits for the first to finish and then
  // reads the invitation used: otherwise it could read it open, then the first tab's new member,
  // and say "already a member" rather than "used". (SQLite runs one write transaction at a time.)
  let found = trx.selectFrom("admin_invitations").select(FOUND).where("id", "=", invitationId);
  if (dialectOf(trx) === "postgres") found = found.forUpdate();
  const invitation = await found.executeTakeFirst();
  const refused = refusalOf(invitation, now);
  if (refused) return refused;
  const member = await trx.selectFrom("admin_users").select("id").where("email", "=", invitation!.email).executeTakeFirst();
  if (member) return { ok: false, reason: "member-exists", message: INVITATION_TEXT.alreadyMember };
  const used = await trx
    .updateTable("admin_invitations")
    .set({ accepted_at: now.toISOString() })
    .where("id", "=", invitationId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) === 0) {
    const again = await trx.selectFrom("admin_invitations").select(FOUND).where("id", "=", invitationId).executeTakeFirst();
    return refusalOf(again, now) ?? { ok: false, reason: "unknown", message: INVITATION_TEXT.unknownLink };
  }
  const { email, role } = invitation!;
  if (!(await insertMember(trx, { id: adminId, email, passwordHash, role, name, now }))) {
    // Made by the CLI since the check above: nothing of this is committed, and the invitation stays open.
    throw new Error("The invited address became a member while the invitation was being accepted.");
  }
  await trx.updateTable("admin_invitations").set({ accepted_by: adminId }).where("id", "=", invitationId).execute();
  await dropUnsentEmails(trx, [invitationId]);
  const session = await createSession(trx, adminId, now, await takeSignInHistory(trx, adminId, now));
  const actor = memberActor({ adminId, email, role }, ip);
  await audit(trx, { actor, action: "invitation-accepted", target: adminId, details: { role }, at: now });
  return { ok: true, adminId, email, role, token: session.token, expiresAt: session.expiresAt };
}

/**
 * Forgets the links of invitations that can no longer be used (past their
 * 72 hours) in e-mails that were never sent (given up on while the mail
 * server was down): nothing usable stays in the outbox. Run hourly, once for
 * the fleet (boot.server.ts).
 */
export async function forgetDeadInvitationLinks(db: Db, now: Date): Promise<number> {
  const deleted = await db
    .deleteFrom("email_outbox")
    .where("status", "!=", "sent")
    .where("invitation_id", "in", (eb) =>
      eb
        .selectFrom("admin_invitations")
        .select("id")
        .where((inner) => inner.or([inner("expires_at", "<=", now.toISOString()), inner("revoked_at", "is not", null), inner("accepted_at", "is not", null)])),
    )
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
