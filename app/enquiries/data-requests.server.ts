import { sql, type SqlBool } from "kysely";
import { purgeErasedData, type Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import type { OutboxKind, OutboxStatus } from "~/platform/db/schema";
import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import { inTransaction } from "~/platform/db/transactions.server";
import { notesOf } from "./notes.server";
import { repliesOf } from "./replies.server";
import type { EnquiryReply } from "./replies";
import type { EnquiryNote } from "./notes";
import { deleteEnquiriesInBatches } from "./enquiries.server";
import type { StoredSubmission } from "./inbox";
import { toSubmission } from "./inbox.server";
import { isValidEmail } from "~/platform/email-address";
import { foldEmail } from "~/platform/email-fold.server";
import { LIMITS } from "./schema";

/**
 * UK GDPR requests about one e-mail address: what is held (the right of
 * access: every enquiry sent with it, spam included, and the e-mails the site
 * wrote about them) and erasing it (the right to erasure). Addresses match
 * whatever their case, as people type them differently from one time to the next.
 */

/** The address asked about, trimmed; undefined when it cannot be an address the contact form took. */
export function parseRequestEmail(value: string | null | undefined): string | undefined {
  const email = (value ?? "").trim();
  // Every stored address passed this check (app/enquiries/schema.ts), so nothing held is out of reach.
  return email !== "" && email.length <= LIMITS.email && isValidEmail(email) ? email : undefined;
}

/** Full Unicode case folding, the same on both backends (email-fold.server.ts), on its own index. */
function ofAddress(email: string) {
  return sql<SqlBool>`${sql.ref("contact_submissions.email_folded")} = ${foldEmail(email)}`;
}

export type DataHeld = {
  /** Every enquiry sent with the address, spam included. */
  submissions: number;
  /** Of those, caught as spam. */
  spam: number;
  /** E-mail jobs (notifications, acknowledgements) about those enquiries. */
  emailJobs: number;
};

export async function summariseDataHeld(db: Db, email: string): Promise<DataHeld> {
  const submissions = db.selectFrom("contact_submissions").where(ofAddress(email));
  const [counts, jobs] = await Promise.all([
    submissions
      .select([
        (eb) => eb.fn.countAll<number | string>().as("submissions"),
        sql<number | string | null>`sum(case when spam_reason is null then 0 else 1 end)`.as("spam"),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("email_outbox")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("submission_id", "in", submissions.select("id"))
      .executeTakeFirstOrThrow(),
  ]);
  return { submissions: Number(counts.submissions), spam: Number(counts.spam ?? 0), emailJobs: Number(jobs.count) };
}

/** An e-mail the site wrote about an enquiry, as the export shows it. */
export type ExportedEmailJob = {
  id: string;
  kind: OutboxKind;
  status: OutboxStatus;
  attempts: number;
  created_at: string;
  /** The last change: the latest attempt, for a job that has been tried. */
  updated_at: string;
  next_attempt_at: string | null;
  sent_at: string | null;
  /** What the e-mail said; its addresses are the company's and the enquiry's own. */
  content: { subject: string; text: string; html: string } | { stored: string };
};

/** A submission as the inbox shows it (spam_reason null for a real enquiry), with the e-mails about it. */
/** `first_response_at`: when the team first answered it (migration 020), kept on the row and so handed over too. */
export type ExportedSubmission = StoredSubmission & {
  first_response_at: string | null;
  email_jobs: ExportedEmailJob[];
  notes: EnquiryNote[];
  replies: EnquiryReply[];
};

export type DataExport = {
  /** The address asked about, as typed (trimmed). */
  email: string;
  exported_at: string;
  about: string;
  submissions: ExportedSubmission[];
};

const ABOUT =
  "Everything this website holds about this e-mail address: each enquiry sent with it through the contact form " +
  "(including any its spam rules caught), where it stands with the company, the team's notes on it and its replies, " +
  "and the e-mails the website wrote about those enquiries, with their delivery status.";

const orNull = (value: Date | string | null) => (value === null ? null : toIsoString(value));

/**
 * The e-mail's words. Its headers are left out: the sender and recipient are
 * the company's own mailboxes (or the enquiry's address, already exported), and
 * the Message-ID is ours.
 */
function emailContent(stored: string): ExportedEmailJob["content"] {
  try {
    const { subject, text, html } = JSON.parse(stored) as { subject: string; text: string; html: string };
    return { subject, text, html };
  } catch {
    return { stored };
  }
}

/**
 * Everything held about the address, newest enquiry first, for the person it
 * belongs to. Read in one transaction with its audit entry (who exported how
 * many enquiries; not whose: the address is not kept).
 */
export async function exportDataHeld(db: Db, email: string, now: Date, actor: Actor): Promise<DataExport> {
  return inTransaction(db, async (trx) => {
    const exported = await readDataHeld(trx, email, now);
    await audit(trx, { actor, action: "data-exported", details: { count: exported.submissions.length }, at: now });
    return exported;
  });
}

async function readDataHeld(db: Db, email: string, now: Date): Promise<DataExport> {
  const rows = await db.selectFrom("contact_submissions").selectAll().where(ofAddress(email)).orderBy("created_at", "desc").orderBy("id", "desc").execute();
  const jobs = await db
    .selectFrom("email_outbox")
    .select(["id", "submission_id", "kind", "status", "attempts", "created_at", "updated_at", "next_attempt_at", "sent_at", "message"])
    .where("submission_id", "in", db.selectFrom("contact_submissions").select("id").where(ofAddress(email)))
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .execute();
  const ids = rows.map((row) => row.id);
  const [notes, replies] = await Promise.all([notesOf(db, ids), repliesOf(db, ids)]);
  const jobsBySubmission = new Map<string, ExportedEmailJob[]>();
  for (const job of jobs) {
    if (job.submission_id === null) continue;
    const list = jobsBySubmission.get(job.submission_id) ?? [];
    list.push({
      id: job.id,
      kind: job.kind,
      status: job.status,
      attempts: Number(job.attempts),
      created_at: toIsoString(job.created_at),
      updated_at: toIsoString(job.updated_at),
      next_attempt_at: orNull(job.next_attempt_at),
      sent_at: orNull(job.sent_at),
      content: emailContent(job.message),
    });
    jobsBySubmission.set(job.submission_id, list);
  }
  return {
    email,
    exported_at: now.toISOString(),
    about: ABOUT,
    submissions: rows.map((row) => ({
      ...toSubmission(row),
      first_response_at: orNull(row.first_response_at),
      email_jobs: jobsBySubmission.get(row.id) ?? [],
      notes: notes.get(row.id) ?? [],
      replies: replies.get(row.id) ?? [],
    })),
  };
}

/**
 * Deletes every enquiry sent with the address and its e-mail jobs, a batch of
 * them per transaction with its own audit entry (an address a flood used may
 * have sent thousands: `deleteEnquiriesInBatches`), leaving no copy in the file (`purged` false: a reader kept
 * SQLite's write-ahead log open, and the copy there goes at its next checkpoint).
 */
export async function eraseDataHeld(db: Db, email: string, actor: Actor): Promise<{ submissions: number; emailJobs: number; purged: boolean }> {
  const erased = await deleteEnquiriesInBatches(
    db,
    () => ofAddress(email),
    (trx, ids) => audit(trx, { actor, action: "data-erased", details: { count: ids.length } }),
  );
  return { ...erased, purged: await purgeErasedData(db) };
}
