import type { Enquiry } from "./schema";
import type { SpamSignal } from "./spam";

/**
 * The spam rules, and the verdict drawn from all they noticed together
 * (docs/decisions/019). Pure: the signals that need the database (the time
 * trap, the per-address count) are gathered in submit.server.ts.
 *
 * - Strong evidence files a submission under Spam, where nobody is e-mailed:
 *   the hidden honeypot field filled in, a forged or damaged timing token,
 *   link markup (BBCode, HTML anchors) that forum-spam tools paste.
 * - So does a link in the name together with any other signal.
 * - So does the pattern of a link-spam bot: links, sent too fast, from a
 *   connection that has sent several within the hour.
 * - Any other signal alone (too fast, no token on the form, links, a link in
 *   the name) only marks it as possible spam: it stays in the inbox, marked,
 *   and the company is e-mailed about it. A quick genuine person (autofill, a
 *   pasted message) is never filed away.
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

/** Every content rule the enquiry breaks. */
export function contentSignals(enquiry: Pick<Enquiry, "name" | "message">): SpamSignal[] {
  const signals: SpamSignal[] = [];
  if (countLinks(enquiry.name) > 0) signals.push("link-in-name");
  if (LINK_MARKUP.test(enquiry.message)) signals.push("link-markup");
  if (countLinks(enquiry.message) > MAX_LINKS) signals.push("links");
  return signals;
}

const STRONG: ReadonlySet<SpamSignal> = new Set(["honeypot", "bad-token", "link-markup"]);
/** Signals that say something on their own; "repeat-sender" only adds weight to others. */
const MARKING: ReadonlySet<SpamSignal> = new Set(["too-fast", "no-token", "links", "link-in-name"]);

export type SpamVerdict = { kind: "clean" } | { kind: "possible-spam"; signals: SpamSignal[] } | { kind: "spam"; signals: SpamSignal[] };

/** The verdict, with the signals that made it (a repeat sender is named only where it decided). */
export function spamVerdict(signals: readonly SpamSignal[]): SpamVerdict {
  const has = (signal: SpamSignal) => signals.includes(signal);
  const noticed = [...new Set(signals)].filter((signal) => signal !== "repeat-sender");
  if (has("links") && has("too-fast") && has("repeat-sender")) return { kind: "spam", signals: [...noticed, "repeat-sender"] };
  if (noticed.some((signal) => STRONG.has(signal))) return { kind: "spam", signals: noticed };
  if (has("link-in-name") && noticed.length > 1) return { kind: "spam", signals: noticed };
  if (noticed.some((signal) => MARKING.has(signal))) return { kind: "possible-spam", signals: noticed };
  return { kind: "clean" };
}
