import type { Enquiry } from "./schema";
import type { SpamReason } from "./spam";

/**
 * The spam rules that look at a submission itself. Pure: the time trap
 * (form-token.server.ts) and the per-IP limit need the database and live
 * elsewhere. A caught submission is stored with the reason and answered as
 * if accepted, so a false positive costs the company a look at the Spam
 * filter, never the visitor a lost message.
 */

/** Counted once per link: "https://www.x" is one link, not two. */
const LINK = /\bhttps?:\/\/(?:www\.)?|\bwww\./gi;
/** BBCode ([url=…], [URL]) and HTML anchors: forum-spam tools paste these; people writing to us do not. */
const LINK_MARKUP = /\[url|<a\s/i;

/** A message may carry a link or two (a listing, a photo album); three or more is what link spam looks like. */
export const MAX_LINKS = 2;

export function countLinks(text: string): number {
  return text.match(LINK)?.length ?? 0;
}

/** Anything at all in the honeypot: people cannot see it, autofill leaves it alone (autocomplete="off"). */
export function honeypotFilled(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** The first content rule the enquiry breaks, or undefined. */
export function contentSpamReason(enquiry: Pick<Enquiry, "name" | "message">): SpamReason | undefined {
  if (countLinks(enquiry.name) > 0) return "link-in-name";
  if (LINK_MARKUP.test(enquiry.message)) return "link-markup";
  if (countLinks(enquiry.message) > MAX_LINKS) return "links";
  return undefined;
}
