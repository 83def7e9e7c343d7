import type { Actor } from "~/audit/actor";
import { can } from "~/auth/roles";
import { OWNER_ONLY_SECTIONS, SECTION_LABELS, type SiteContent, type SiteSection } from "./content";

/**
 * The sections the law makes the company answer for (decision 028): the fees
 * on /fees (Consumer Rights Act 2015 s.83), the legal details (company number,
 * redress scheme, client money protection) and the policies, each marked
 * `ownerOnly` in its module (sections/). Only an owner may change them
 * (decision 042): an Editor may edit everything else, and may publish,
 * schedule, discard or restore only what leaves these as they are.
 */
export const LEGAL_SECTIONS = OWNER_ONLY_SECTIONS;

/** "Fees, Legal details and Policies": the sections' labels, joined with `last`. */
function named(last: "and" | "or"): string {
  return LEGAL_SECTIONS.map((section) => SECTION_LABELS[section])
    .join(", ")
    .replace(/, ([^,]*)$/, ` ${last} $1`);
}

export const LEGAL_DETAILS_TEXT = {
  ownersOnly: `Only an owner can change the ${named("and")} sections.`,
  draftHasLegalChanges: `The draft changes the ${named("or")} sections, which only an owner can publish, schedule or discard. Ask an owner.`,
  versionHasOtherLegalDetails: `That version has other ${named("or")} than the site has now; only an owner can restore it.`,
} as const;

export function isLegalSection(section: SiteSection): boolean {
  return LEGAL_SECTIONS.includes(section);
}

/** Do the two contents differ in any of the legal sections? */
export function changesLegalDetails(before: SiteContent, after: SiteContent): boolean {
  return LEGAL_SECTIONS.some((section) => JSON.stringify(before[section]) !== JSON.stringify(after[section]));
}

/** An owner, the CLI (an operator's import) and the server's own jobs may; an Editor may not. */
export function mayChangeLegalDetails(actor: Actor): boolean {
  return actor.kind !== "member" || can(actor.role, "legal-details");
}
