import { randomUUID } from "node:crypto";
import type { Company } from "~/company/company";
import type { AppServices } from "~/platform/context";
import type { Db } from "~/platform/db.server";
import { acknowledgementEmail, messageIdFor, notificationEmail } from "./emails";
import { enqueueEmail, signalOutbox, type NewOutboxJob } from "./outbox.server";
import type { Enquiry } from "./schema";

export type StoredEnquiry = { id: string; createdAt: string };

export type SaveEnquiryOptions = {
  /** Set when the spam rules caught it: stored apart, and nobody is e-mailed. */
  spamReason?: string;
  /** Who to e-mail; undefined when e-mail is off. */
  mail: AppServices["mail"];
  company: Company;
};

/**
 * Stores an enquiry and, when e-mail is on and it is not spam, its e-mails in
 * the outbox, in one transaction: an enquiry is never stored without its
 * notification, nor a notification queued for an enquiry that failed to
 * store. Resolves only after the commit (and, on SQLite, the fsync): callers
 * acknowledge the visitor after this, never before.
 */
export async function saveEnquiry(db: Db, enquiry: Enquiry, options: SaveEnquiryOptions): Promise<StoredEnquiry> {
  const now = new Date();
  const stored = { id: randomUUID(), createdAt: now.toISOString() };
  const jobs = options.mail && !options.spamReason ? enquiryEmails(stored, enquiry, options.mail, options.company) : [];
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("contact_submissions")
      .values({
        id: stored.id,
        name: enquiry.name,
        email: enquiry.email,
        phone: enquiry.phone ?? null,
        user_type: enquiry.userType,
        message: enquiry.message,
        is_read: false,
        created_at: stored.createdAt,
        spam_reason: options.spamReason ?? null,
      })
      .execute();
    for (const job of jobs) await enqueueEmail(trx, job, now);
  });
  if (jobs.length > 0) signalOutbox();
  return stored;
}

function enquiryEmails(
  stored: StoredEnquiry,
  enquiry: Enquiry,
  mail: NonNullable<AppServices["mail"]>,
  company: Company,
): NewOutboxJob[] {
  const notificationId = randomUUID();
  const jobs: NewOutboxJob[] = [
    {
      id: notificationId,
      submissionId: stored.id,
      kind: "notification",
      message: notificationEmail({ enquiry, receivedAt: stored.createdAt, mail, messageId: messageIdFor(notificationId, mail.from) }),
    },
  ];
  if (mail.acknowledge) {
    const acknowledgementId = randomUUID();
    jobs.push({
      id: acknowledgementId,
      submissionId: stored.id,
      kind: "acknowledgement",
      message: acknowledgementEmail({ enquiry, mail, company, messageId: messageIdFor(acknowledgementId, mail.from) }),
    });
  }
  return jobs;
}
