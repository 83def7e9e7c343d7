import type { Actor } from "~/audit/actor";
import { can } from "~/auth/roles";
import { SECTION_LABELS, type SiteContent, type SiteSection } from "./content";

/**
 * The sections the law makes the company answer for (decision 028): the fees
 * on /fees (Consumer Rights Act 2015 s.83), the legal details (company number,
 * redress scheme, client money protection) and the policies. Only an owner
 * may change them (decision 042): an Editor may edit everything else, and may
 * publish, schedule, discard or restore only what leaves these as they are.
 */
export const LEGAL_SECTIONS = ["fees", "legal", "policies"] as const satisfies readonly SiteSection[];

export const LEGAL_DETAILS_TEXT = {
  ownersOnly: `Only an owner can change the ${LEGAL_SECTIONS.map((section) => SECTION_LABELS[section]).join(", ").replace(/, ([^,]*)$/, " and $1")} sections.`,
  draftHasLegalChanges:
    "The draft changes the Fees, Legal details or Policies sections, which only an owner can publish, schedule or discard. Ask an owner.",
  versionHasOtherLegalDetails: "That version has other Fees, Legal details or Policies than the site has now; only an owner can restore it.",
} as const;

export function isLegalSection(section: SiteSection): boolean {
  return (LEGAL_SECTIONS as readonly SiteSection[]).includes(section);
}

/** Do the two contents differ in any of the legal sections? */
export function changesLegalDetails(before: SiteContent, after: SiteContent): boolean {
  return LEGAL_SECTIONS.some((section) => JSON.stringify(before[section]) !== JSON.stringify(after[section]));
}

/** An owner, the CLI (an operator's import) and the server's own jobs may; an Editor may not. */
export function mayChangeLegalDetails(actor: Actor): boolean {
  return actor.kind !== "member" || can(actor.role, "legal-details");
}
