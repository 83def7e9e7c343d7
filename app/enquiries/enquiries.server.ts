import { randomUUID } from "node:crypto";
import type { Company } from "~/company/company";
import type { AppServices } from "~/platform/context";
import type { Db } from "~/platform/db.server";
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
 * Stores an enquiry. Resolves only after the row is committed (and, on
 * SQLite, fsynced): callers acknowledge the visitor after this, never before.
 */
export async function saveEnquiry(db: Db, enquiry: Enquiry, options: SaveEnquiryOptions): Promise<StoredEnquiry> {
  const stored = { id: randomUUID(), createdAt: new Date().toISOString() };
  await db
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
  return stored;
}
