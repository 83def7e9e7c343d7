import { sql, type Kysely } from "kysely";

/**
 * The kind of an enquiry (issue 22, decision 057): the contact form's
 * ("contact", every existing enquiry) or a landlord's request for a free
 * rental valuation ("valuation"), whose property details are kept as one
 * JSON text in `details` (null for the contact form's). Adding columns
 * rebuilds nothing, so this runs as it is inside a restore's one transaction
 * (decision 040); `details` goes with its row on a delete or an erasure.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("contact_submissions")
    .addColumn("kind", "text", (col) => col.notNull().defaultTo("contact").check(sql`kind in ('contact', 'valuation')`))
    .execute();
  await db.schema.alterTable("contact_submissions").addColumn("details", "text").execute();
}
