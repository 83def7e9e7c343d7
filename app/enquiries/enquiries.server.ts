import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Company } from "~/company/company";
import type { NotificationAddresses } from "~/platform/http/context";
import { dialectOf, type Db } from "~/platform/db/db.server";
import { foldEmail } from "~/platform/email-fold.server";
import type { DatabaseSchema } from "~/platform/db/schema";
import { preparedInsert } from "~/platform/db/prepared.server";
import { inTransaction, type Trx } from "~/platform/db/transactions.server";
import { acknowledgementJob } from "./acknowledgement.server";
import { messageIdFor, notificationEmail } from "./emails";
import { holdInFlood, type FloodMail } from "./flood.server";
import { enqueueEmail, type NewOutboxJob, type OutboxSignal } from "./outbox.server";
import type { Enquiry } from "./schema";
import { FLOOD_SIGNAL, joinSignals, type SpamSignal } from "./spam";
import type { SpamVerdict } from "./spam.server";

export type StoredEnquiry = { id: string; createdAt: string };

export type SaveEnquiryOptions = {
  /** What the spam rules made of it: filed under Spam (nobody is e-mailed), possible spam (marked), or clean. */
  verdict?: SpamVerdict;
  /** Who to e-mail; undefined when e-mail is off. */
  mail: NotificationAddresses | undefined;
  company: Company;
  /** Wakes this process's outbox worker once the e-mails are committed. */
  outbox?: OutboxSignal;
  now?: Date;
  /**
   * It arrived over CONTACT_SITE_LIMIT, in a flood (decision 037): unless it is
   * spam, it is held apart from the inbox, marked, and told of only in its
   * window's summary e-mail (the summary's settings; the mail of `mail`).
   */
  flood?: Omit<FloodMail, "mail">;
};

/**
 * Stores an enquiry and, when e-mail is on and it is not spam, its e-mails in
 * the outbox, in one transaction: an enquiry is never stored without its
 * notification, nor a notification queued for an enquiry that failed to
 * store. Resolves only after the commit (and, on SQLite, the fsync): callers
 * acknowledge the visitor after this, never before. Given a transaction
 * (`db` is one: a grouped commit's piece), it writes in it, and committing,
 * and then waking the outbox (`emailsQueued`), is the caller's.
 */
export async function saveEnquiry(db: Db, enquiry: Enquiry, options: SaveEnquiryOptions): Promise<StoredEnquiry> {
  const saved = await db.transaction().execute((trx) => insertEnquiry(trx, enquiry, options));
  if (saved.emails > 0) options.outbox?.signal();
  return { id: saved.id, createdAt: saved.createdAt };
}

export type InsertedEnquiry = StoredEnquiry & {
  /** E-mails queued that are due now (the caller wakes the outbox worker after the commit). */
  emails: number;
  /** Held in a flood, and how many the window has held, this one included. */
  held?: { inWindow: number };
};

/**
 * saveEnquiry's writes, inside a transaction the caller holds (`trx`): the
 * contact form's, with the enquiry's limit places taken in the same one
 * (submit.server.ts).
 */
export async function insertEnquiry(trx: Db, enquiry: Enquiry, options: SaveEnquiryOptions): Promise<InsertedEnquiry> {
  const now = options.now ?? new Date();
  const verdict = options.verdict ?? { kind: "clean" };
  const stored = { id: randomUUID(), createdAt: now.toISOString() };
  const held = options.flood !== undefined && verdict.kind !== "spam";
  const possibleSpam = verdict.kind === "possible-spam";
  const jobs = options.mail && verdict.kind !== "spam" && !held ? enquiryEmails(stored, enquiry, options.mail, possibleSpam) : [];
  // Never for spam, possible spam or an enquiry held in a flood; only when an owner turned it on (decision 059).
  const acknowledgement =
    options.mail && verdict.kind === "clean" && !held ? await acknowledgementJob(trx, stored.id, enquiry, options.mail, options.company, now) : undefined;
  if (acknowledgement) jobs.push(acknowledgement);
  const marks: SpamSignal[] = [...(held ? [FLOOD_SIGNAL] : []), ...(possibleSpam ? verdict.signals : [])];
  await insertSubmission(trx, [
    {
      id: stored.id,
      name: enquiry.name,
      email: enquiry.email,
      email_folded: foldEmail(enquiry.email),
      phone: enquiry.phone ?? null,
      user_type: enquiry.userType,
      message: enquiry.message,
      is_read: false,
      created_at: stored.createdAt,
      spam_reason: verdict.kind === "spam" ? joinSignals(verdict.signals) : null,
      spam_signals: marks.length > 0 ? joinSignals(marks) : null,
      // A valuation request's details, as one JSON text (decision 057).
      ...(enquiry.valuation ? { kind: "valuation" as const, details: JSON.stringify(enquiry.valuation) } : {}),
    },
  ]);
  for (const job of jobs) await enqueueEmail(trx, job, now);
  if (!held) return { ...stored, emails: jobs.length };
  const inWindow = await holdInFlood(trx, now, options.mail && options.flood && { ...options.flood, mail: options.mail });
  return { ...stored, emails: 0, held: { inWindow } };
}

/** Compiled once, not per enquiry (platform/db/prepared.server.ts, decision 065). */
const insertSubmission = preparedInsert("contact_submissions");

function enquiryEmails(stored: StoredEnquiry, enquiry: Enquiry, mail: NotificationAddresses, possibleSpam: boolean): NewOutboxJob[] {
  const notificationId = randomUUID();
  const jobs: NewOutboxJob[] = [
    {
      id: notificationId,
      submissionId: stored.id,
      kind: "notification",
      message: notificationEmail({
        enquiry,
        receivedAt: stored.createdAt,
        mail,
        messageId: messageIdFor(notificationId, mail.from),
        possibleSpam,
      }),
    },
  ];
  return jobs;
}

/** Ids per statement: well under SQLite's and PostgreSQL's limits on bound parameters. */
const ID_BATCH = 500;

/**
 * SQLite's search index (FTS5, migrations 018 and 023) rewrites its pages at
 * each delete so that nothing of a deleted enquiry's words stays in the file
 * ("secure-delete", on by default): about 28 ms an enquiry at 100,000 of them,
 * on the one connection every request shares. The inbox's Delete turns it off
 * for its own transaction (decision 069): the words leave every search at once
 * and the index's pages when FTS5 next merges them. An erasure and the
 * retention rule keep it on. The option is a row of the index's own config
 * table, so it is set and set back inside the transaction. PostgreSQL's index
 * needs nothing of this.
 */
async function setSearchSecureDelete(trx: Trx, on: boolean): Promise<void> {
  if (dialectOf(trx) !== "sqlite") return;
  await sql`insert into contact_submissions_search (contact_submissions_search, rank) values ('secure-delete', ${sql.lit(on ? 1 : 0)})`.execute(trx);
}

/**
 * Deletes the enquiries matching `where` and their e-mail jobs, in one
 * transaction: a job must not outlive its enquiry (it holds the visitor's
 * words). The enquiries go first and the jobs of exactly those after, so an
 * enquiry arriving meanwhile keeps its own job. The one way enquiries are
 * deleted: by the admin, by a UK GDPR erasure, by the retention job; each
 * writes its audit entries through `audited`, in the same transaction.
 * `wipeSearchIndex: false` (the admin's Delete only) leaves the deleted words
 * to the search index's next merge instead of rewriting its pages now.
 */
export async function deleteEnquiries(
  db: Db,
  where: (eb: ExpressionBuilder<DatabaseSchema, "contact_submissions">) => Expression<SqlBool>,
  audited: (trx: Trx, deletedIds: string[]) => Promise<void>,
  { wipeSearchIndex = true }: { wipeSearchIndex?: boolean } = {},
): Promise<{ submissions: number; emailJobs: number }> {
  return inTransaction(db, async (trx) => {
    if (!wipeSearchIndex) await setSearchSecureDelete(trx, false);
    const deleted = await trx.deleteFrom("contact_submissions").where(where).returning("id").execute();
    if (!wipeSearchIndex) await setSearchSecureDelete(trx, true);
    const ids = deleted.map((row) => row.id);
    await audited(trx, ids);
    let emailJobs = 0;
    for (let start = 0; start < ids.length; start += ID_BATCH) {
      const result = await trx
        .deleteFrom("email_outbox")
        .where("submission_id", "in", ids.slice(start, start + ID_BATCH))
        .executeTakeFirst();
      emailJobs += Number(result.numDeletedRows);
    }
    return { submissions: ids.length, emailJobs };
  });
}

/**
 * Enquiries per transaction when many may go at once (the retention rule, an
 * erasure). On SQLite each delete costs ~28 ms at 100,000 enquiries (the
 * search index wipes the enquiry's words from its pages, decision 069), on the
 * one connection every request shares: a backlog's or an address's thousands
 * in one transaction would hold the site up for seconds or minutes.
 */
export const DELETE_BATCH = 20;

/**
 * `deleteEnquiries` of everything matching `where`, oldest first, DELETE_BATCH
 * at a time: each batch one transaction with its own audit entries (through
 * `audited`, called only for a batch that deleted something), and between
 * batches the requests that came meanwhile get a turn. Goes on until nothing
 * matches, so what arrives meanwhile goes too. Safe to run from several
 * instances at once: each row goes once.
 */
export async function deleteEnquiriesInBatches(
  db: Db,
  where: (eb: ExpressionBuilder<DatabaseSchema, "contact_submissions">) => Expression<SqlBool>,
  audited: (trx: Trx, deletedIds: string[]) => Promise<void>,
): Promise<{ submissions: number; emailJobs: number }> {
  const total = { submissions: 0, emailJobs: 0 };
  for (;;) {
    const batch = await db.selectFrom("contact_submissions").select("id").where(where).orderBy("created_at").orderBy("id").limit(DELETE_BATCH).execute();
    if (batch.length === 0) return total;
    const ids = batch.map((row) => row.id);
    const deleted = await deleteEnquiries(
      db,
      (eb) => eb.and([eb("id", "in", ids), where(eb)]),
      async (trx, deletedIds) => {
        if (deletedIds.length > 0) await audited(trx, deletedIds);
      },
    );
    total.submissions += deleted.submissions;
    total.emailJobs += deleted.emailJobs;
    if (batch.length < DELETE_BATCH) return total;
    await nextTurn();
  }
}
