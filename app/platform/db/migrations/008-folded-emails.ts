import type { Kysely } from "kysely";
import { foldEmail } from "../../email-fold.server";

/**
 * Each enquiry's e-mail address as it is compared for UK GDPR requests
 * (docs/decisions/020): written by the app (email-fold.server.ts), so SQLite
 * and PostgreSQL match the same addresses. Existing rows are folded here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("contact_submissions").addColumn("email_folded", "text").execute();
  const typed = db as unknown as Kysely<{ contact_submissions: { id: string; email: string; email_folded: string | null } }>;
  const rows = await typed.selectFrom("contact_submissions").select(["id", "email"]).execute();
  for (const row of rows) {
    await typed
      .updateTable("contact_submissions")
      .set({ email_folded: foldEmail(row.email) })
      .where("id", "=", row.id)
      .execute();
  }
  await db.schema.createIndex("contact_submissions_email_folded_idx").on("contact_submissions").column("email_folded").execute();
}
