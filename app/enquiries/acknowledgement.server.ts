import { createHash, randomUUID } from "node:crypto";
import type { Company } from "~/company/company";
import type { Db } from "~/platform/db/db.server";
import { foldEmail } from "~/platform/email-fold.server";
import type { NotificationAddresses } from "~/platform/http/context";
import { takeSlotsIn } from "~/platform/limits/rate-limit.server";
import { acknowledgementEmail, messageIdFor } from "./emails";
import { readEnquirySettings } from "./enquiry-settings.server";
import type { NewOutboxJob } from "./outbox.server";
import type { Enquiry } from "./schema";

/** At most one acknowledgement to an address in this long. */
export const ACKNOWLEDGEMENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The acknowledgement e-mail for a clean enquiry just stored (decision 059),
 * or undefined: only when an owner turned it on, and at most one a day per
 * address (folded, so case does not dodge it), counted in the database under
 * the enquiry's own transaction, so it holds across a fleet and a burst. The
 * caller never asks for spam, possible spam or an enquiry held in a flood.
 * The limit keeps a hash of the address, never the address, and for a day.
 */
export async function acknowledgementJob(
  trx: Db,
  submissionId: string,
  enquiry: Enquiry,
  mail: NotificationAddresses,
  company: Company,
  now: Date,
): Promise<NewOutboxJob | undefined> {
  const { acknowledgement } = await readEnquirySettings(trx);
  if (!acknowledgement.on || acknowledgement.text === "") return undefined;
  const subject = createHash("sha256").update(foldEmail(enquiry.email)).digest("hex");
  const slot = await takeSlotsIn(trx, [{ bucket: "acknowledgement", subject, limit: 1 }], { windowMs: ACKNOWLEDGEMENT_WINDOW_MS, now });
  if (!slot.ok) return undefined;
  const id = randomUUID();
  return {
    id,
    submissionId,
    kind: "acknowledgement",
    message: acknowledgementEmail({ enquiry, mail, company, text: acknowledgement.text, messageId: messageIdFor(id, mail.from) }),
  };
}
