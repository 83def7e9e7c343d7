import { audit } from "~/audit/audit.server";
import { actorLabel, type Actor } from "~/audit/actor";
import type { Db } from "~/platform/db/db.server";
import { toBoolean } from "~/platform/db/db-values";
import { inTransaction } from "~/platform/db/transactions.server";
import { DEFAULT_SETTINGS, type EnquirySettings, type ReplyTemplate } from "./replies";

/**
 * What an owner keeps for Contact Submissions (decision 059): the reply
 * templates, the Not proceeding reasons and the acknowledgement e-mail. One
 * row, absent until an owner first saves: until then the defaults apply
 * (three templates, the reasons of decision 055, the acknowledgement off).
 */
export async function readEnquirySettings(db: Db): Promise<EnquirySettings> {
  const row = await db.selectFrom("enquiry_settings").selectAll().where("id", "=", 1).executeTakeFirst();
  if (!row) return DEFAULT_SETTINGS;
  return {
    templates: JSON.parse(row.templates) as ReplyTemplate[],
    reasons: JSON.parse(row.reasons) as string[],
    acknowledgement: { on: toBoolean(row.acknowledgement_on), text: row.acknowledgement_text },
  };
}

/** Saves the owner's settings (already checked: parseSettings), with its audit entry, in one transaction. */
export async function saveEnquirySettings(db: Db, settings: EnquirySettings, actor: Actor, now = new Date()): Promise<void> {
  const values = {
    templates: JSON.stringify(settings.templates),
    reasons: JSON.stringify(settings.reasons),
    acknowledgement_on: settings.acknowledgement.on,
    acknowledgement_text: settings.acknowledgement.text,
    updated_at: now.toISOString(),
    updated_by: actorLabel(actor),
  };
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto("enquiry_settings")
      .values({ id: 1, ...values })
      .onConflict((oc) => oc.column("id").doUpdateSet(values))
      .execute();
    await audit(trx, { actor, action: "enquiry-settings-saved", at: now });
  });
}
