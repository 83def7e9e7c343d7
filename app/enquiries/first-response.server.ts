import type { Db } from "~/platform/db/db.server";

/**
 * The team's first answer to an enquiry (issue 22, decision 060): its first
 * status change or reply. Called inside the transaction that records the
 * answer; sets `first_response_at` only while it is empty, so the first
 * answer wins and a later one (or the same one replayed) moves nothing.
 * Answers whether this was the first.
 */
export async function markFirstResponse(trx: Db, submissionId: string, at: Date): Promise<boolean> {
  const result = await trx
    .updateTable("contact_submissions")
    .set({ first_response_at: at.toISOString() })
    .where("id", "=", submissionId)
    .where("first_response_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
