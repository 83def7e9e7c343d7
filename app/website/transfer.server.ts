import { differencesFromSaved } from "./as-saved";
import { SITE_SECTIONS, contentProblems, overDefaults, type SiteContent } from "./content";

/**
 * The site's content as a file (`npm run admin -- export-site FILE`,
 * `import-site FILE`): what is live, and the draft when it has unpublished
 * changes, as JSON another installation can read. An import is checked as a
 * whole before anything changes.
 */
export const SITE_FILE_FORMAT = "property-management-site";
export const SITE_FILE_VERSION = 1;

export type SiteFile = {
  format: typeof SITE_FILE_FORMAT;
  version: typeof SITE_FILE_VERSION;
  exportedAt: string;
  live: SiteContent;
  /** Present when the draft differs from what is live. */
  draft?: SiteContent;
};

export class SiteFileError extends Error {}

export function siteFile(live: SiteContent, draft: SiteContent | undefined, now: Date): string {
  const file: SiteFile = { format: SITE_FILE_FORMAT, version: SITE_FILE_VERSION, exportedAt: now.toISOString(), live, ...(draft ? { draft } : {}) };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The first few of a list of problems, and how many more there are. */
function firstFew(problems: string[], separator: string): string {
  return `${problems.slice(0, 5).join(separator)}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ""}`;
}

/**
 * A content from a file, read over the defaults (a file from an older
 * release lacks newer fields), and checked as strictly as the Website tab
 * checks a form: every field within its limits, and nothing a save would not
 * store (as-saved.ts), or the whole file is refused.
 */
function contentFrom(value: unknown, defaults: SiteContent, what: string): SiteContent {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new SiteFileError(`The file's ${what} content is missing or not an object.`);
  const stored = value as Record<string, unknown>;
  for (const section of SITE_SECTIONS) {
    const part = stored[section];
    if (part !== undefined && (typeof part !== "object" || part === null || Array.isArray(part)))
      throw new SiteFileError(`The file's ${what} "${section}" section is not an object.`);
  }
  const content = overDefaults(stored, defaults);
  const problems = contentProblems(content);
  if (problems.length) throw new SiteFileError(`The file's ${what} content is not valid: ${firstFew(problems, " ")}`);
  const differences = differencesFromSaved(stored, content);
  if (differences.length)
    throw new SiteFileError(`The file's ${what} content holds what the Website tab would not save: ${firstFew(differences, "; ")}. Nothing was imported.`);
  return content;
}

/** Reads an exported file: the content to import (the draft when it has one, else what was live). */
export function readSiteFile(text: string, defaults: SiteContent): { content: SiteContent; from: "draft" | "live"; exportedAt: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SiteFileError("The file is not JSON: was it made by export-site?");
  }
  const file = value as Partial<SiteFile> | null;
  if (typeof file !== "object" || file === null || file.format !== SITE_FILE_FORMAT)
    throw new SiteFileError("The file is not a site export (its format is not property-management-site).");
  if (file.version !== SITE_FILE_VERSION)
    throw new SiteFileError(`The file is version ${String(file.version)} of the export format; this release reads version ${SITE_FILE_VERSION}.`);
  const exportedAt = typeof file.exportedAt === "string" ? file.exportedAt : "an unknown time";
  // Both are checked: a file whose live part is broken is refused even when it has a draft.
  const live = contentFrom(file.live, defaults, "live");
  if (file.draft !== undefined) return { content: contentFrom(file.draft, defaults, "draft"), from: "draft", exportedAt };
  return { content: live, from: "live", exportedAt };
}
