import { caseFold } from "unicode-case-folding";

/**
 * An e-mail address as it is compared: Unicode compatibility-normalised and
 * fully case-folded (CaseFolding.txt, C and F: "STRASSE@…" and "straße@…"
 * are one address). Computed here, not by the database, whose lower() folds
 * ASCII only on SQLite and follows the collation on PostgreSQL: both backends
 * then agree, as they must when a person asks for their data to be erased.
 */
export function foldEmail(email: string): string {
  return caseFold(email.trim().normalize("NFKC")).normalize("NFKC");
}
