import { createHash } from "node:crypto";
import type { NotificationAddresses } from "~/platform/http/context";
import type { Db } from "~/platform/db/db.server";
import { TALLY_PERIOD_MS, addToTally, periodStart } from "~/platform/limits/tally.server";
import { floodSummaryEmail, messageIdFor } from "./emails";

/**
 * A flood is held, not turned away (decision 037): over CONTACT_SITE_LIMIT an
 * enquiry is still stored, marked and held apart from the inbox, and instead
 * of its own notification the company gets one summary per 15-minute window,
 * fleet-wide, through the outbox.
 */

/** One summary e-mail per window: the tally's period, so the count it gives is the window's own. */
export const FLOOD_WINDOW_MS = TALLY_PERIOD_MS;
/** A summary is due this long after its window ends, so an enquiry stored at its very end is in the count. */
export const FLOOD_SUMMARY_DELAY_MS = 60_000;

export type FloodMail = {
  mail: NotificationAddresses;
  /** CONTACT_SITE_LIMIT, named in the summary. */
  siteLimit: number;
  /** The admin's Held view on PUBLIC_URL, when set. */
  reviewUrl: string | undefined;
};

/** The summary job of the window that began at `windowStart`: the same id on every instance, so the window has one. */
export function floodSummaryJobId(windowStart: Date): string {
  const hex = createHash("sha256").update(`flood-summary ${windowStart.toISOString()}`).digest("hex");
  // Shaped as a UUID (version 8, "custom"), like every other job id.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Counts an enquiry held at `now` and brings its window's summary e-mail up to
 * date, in the enquiry's own transaction (`trx`): the count and the e-mail are
 * there exactly when the enquiry is. The summary is one outbox row per window
 * (its id says which): the first held enquiry inserts it, due after the window
 * ends; each later one rewrites its text with the new count while it still
 * waits. Enquiries are stored one at a time under the site-wide limit's lock
 * (rate-limit.server.ts), so the counts arrive in order. Answers the count.
 */
export async function holdInFlood(trx: Db, now: Date, summary: FloodMail | undefined): Promise<number> {
  const count = await addToTally(trx, "contact-held", now);
  if (!summary) return count;
  const from = periodStart(now);
  const until = new Date(from.getTime() + FLOOD_WINDOW_MS);
  const id = floodSummaryJobId(from);
  const message = JSON.stringify(
    floodSummaryEmail({
      count,
      from: from.toISOString(),
      until: until.toISOString(),
      siteLimit: summary.siteLimit,
      mail: summary.mail,
      messageId: messageIdFor(id, summary.mail.from),
      reviewUrl: summary.reviewUrl,
    }),
  );
  const at = now.toISOString();
  await trx
    .insertInto("email_outbox")
    .values({
      id,
      // About many enquiries, none of them: it is not deleted with any, and holds nothing a visitor typed.
      submission_id: null,
      kind: "notification",
      message,
      status: "queued",
      attempts: 0,
      next_attempt_at: new Date(until.getTime() + FLOOD_SUMMARY_DELAY_MS).toISOString(),
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) =>
      conflict
        .column("id")
        .doUpdateSet((eb) => ({ message: eb.ref("excluded.message"), updated_at: eb.ref("excluded.updated_at") }))
        .where("email_outbox.status", "=", "queued"),
    )
    .execute();
  return count;
}
