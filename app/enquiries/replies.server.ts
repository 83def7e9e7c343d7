import { randomUUID } from "node:crypto";
import { audit } from "~/audit/audit.server";
import { actorLabel, type Actor } from "~/audit/actor";
import type { Company } from "~/company/company";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import type { NotificationAddresses } from "~/platform/http/context";
import type { OutgoingEmail } from "~/platform/mail/mailer.server";
import { inTransaction } from "~/platform/db/transactions.server";
import { escapeHtml, messageIdFor } from "./emails";
import { markFirstResponse } from "./first-response.server";
import { setEnquiryStatus } from "./inbox.server";
import { enqueueEmail } from "./outbox.server";
import { firstNameOf, type EnquiryReply, type PlaceholderValues, type ReplyDelivery } from "./replies";

/**
 * A member's reply to an enquiry's visitor, sent from the dashboard (issue
 * 22, decision 059): stored with who and when, and queued in the durable
 * outbox in the same transaction, from MAIL_FROM with Reply-To the company's
 * own address and threaded under the company's notification e-mail. A New
 * enquiry becomes Contacted with it (setEnquiryStatus, audited).
 */

export type ReplyTarget = { id: string; name: string; email: string; isSpam: boolean; status: string; notificationJobId: string | undefined };

/** The enquiry a reply answers, and its notification's job (for the threading headers); undefined when there is none. */
export async function replyTarget(db: Db, submissionId: string): Promise<ReplyTarget | undefined> {
  const row = await db
    .selectFrom("contact_submissions")
    .select(["id", "name", "email", "spam_reason", "status"])
    .where("id", "=", submissionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const notification = await db
    .selectFrom("email_outbox")
    .select("id")
    .where("submission_id", "=", submissionId)
    .where("kind", "=", "notification")
    .orderBy("created_at")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return { id: row.id, name: row.name, email: row.email, isSpam: row.spam_reason !== null, status: row.status, notificationJobId: notification?.id };
}

/** What the placeholders become for this member and visitor: the member's name from their account (else their e-mail). */
export async function placeholderValues(db: Db, target: { name: string }, company: Company, memberId: string | undefined): Promise<PlaceholderValues> {
  const member =
    memberId === undefined ? undefined : await db.selectFrom("admin_users").select(["name", "email"]).where("id", "=", memberId).executeTakeFirst();
  return { firstName: firstNameOf(target.name), company: company.name, phone: company.phone, myName: member?.name?.trim() || member?.email || company.name };
}

/** The reply as sent: plain text, and the same in HTML with its line ends kept. */
export function replyEmail(
  reply: { subject: string; body: string },
  to: string,
  mail: NotificationAddresses,
  messageId: string,
  inReplyTo: string | undefined,
) {
  const html = `<!doctype html>
<html lang="en-GB">
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;background:#ffffff;">
<div style="white-space:pre-line;">${escapeHtml(reply.body)}</div>
</body>
</html>
`;
  const email: OutgoingEmail = {
    from: mail.from,
    to: [to],
    // The visitor's answer comes back to the company's mailbox, not the sending address.
    replyTo: mail.notifyTo[0],
    subject: reply.subject,
    text: `${reply.body}\n`,
    html,
    messageId,
    ...(inReplyTo ? { inReplyTo } : {}),
  };
  return email;
}

export type SendReplyResult = { ok: true; replyId: string; jobId: string; to: string } | { ok: false; reason: "not-found" | "spam" };

/**
 * Stores the reply and queues its e-mail in one transaction, and moves a New
 * enquiry to Contacted; the caller wakes the outbox after the commit. A spam
 * enquiry is never replied to from here.
 */
export async function sendReply(
  db: Db,
  submissionId: string,
  reply: { subject: string; body: string },
  { actor, mail }: { actor: Actor; mail: NotificationAddresses },
  now = new Date(),
): Promise<SendReplyResult> {
  return inTransaction(db, async (trx): Promise<SendReplyResult> => {
    const target = await replyTarget(trx, submissionId);
    if (!target) return { ok: false, reason: "not-found" };
    if (target.isSpam) return { ok: false, reason: "spam" };
    const jobId = randomUUID();
    const threadedUnder = target.notificationJobId === undefined ? undefined : messageIdFor(target.notificationJobId, mail.from);
    const message = replyEmail(reply, target.email, mail, messageIdFor(jobId, mail.from), threadedUnder);
    await enqueueEmail(trx, { id: jobId, kind: "reply", submissionId, message }, now);
    const replyId = randomUUID();
    await trx
      .insertInto("enquiry_replies")
      .values({
        id: replyId,
        submission_id: submissionId,
        author_id: actor.kind === "member" ? actor.id : null,
        author_label: actorLabel(actor),
        subject: reply.subject,
        body: reply.body,
        created_at: now.toISOString(),
        outbox_job_id: jobId,
      })
      .execute();
    await audit(trx, { actor, action: "enquiry-replied", target: submissionId, at: now });
    // A reply is a response to the visitor whatever the status: the first one counts in the team's figures (decision 060).
    await markFirstResponse(trx, submissionId, now);
    if (target.status === "new") await setEnquiryStatus(trx, submissionId, { status: "contacted" }, actor, now);
    return { ok: true, replyId, jobId, to: target.email };
  });
}

function deliveryOf(status: string | null): ReplyDelivery {
  if (status === "sent") return "sent";
  if (status === "failed") return "failing";
  if (status === null) return "not-sent";
  return "queued";
}

/**
 * The replies to these enquiries, oldest first, by enquiry, each with its
 * delivery state from its outbox job: for the card, the lead's timeline and
 * the team's figures (the first reply's time).
 */
export async function repliesOf(db: Db, submissionIds: string[]): Promise<Map<string, EnquiryReply[]>> {
  const replies = new Map<string, EnquiryReply[]>();
  if (submissionIds.length === 0) return replies;
  const rows = await db
    .selectFrom("enquiry_replies as r")
    .leftJoin("email_outbox as o", "o.id", "r.outbox_job_id")
    .select(["r.id", "r.submission_id", "r.author_label", "r.subject", "r.body", "r.created_at", "o.status", "o.sent_at"])
    .where("r.submission_id", "in", submissionIds)
    .orderBy("r.created_at")
    .orderBy("r.id")
    .execute();
  for (const row of rows) {
    const list = replies.get(row.submission_id) ?? [];
    list.push({
      id: row.id,
      author: row.author_label,
      subject: row.subject,
      body: row.body,
      createdAt: toIsoString(row.created_at),
      delivery: deliveryOf(row.status),
      sentAt: row.sent_at === null ? null : toIsoString(row.sent_at),
    });
    replies.set(row.submission_id, list);
  }
  return replies;
}
