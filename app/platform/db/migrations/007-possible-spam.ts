import type { Kysely } from "kysely";

/**
 * An enquiry the spam rules noticed something about but did not file away
 * stays in the inbox with what they noticed (docs/decisions/019): null for a
 * clean enquiry, "too-fast", "links+too-fast", … otherwise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("contact_submissions").addColumn("spam_signals", "text").execute();
}
