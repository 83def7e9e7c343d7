import { PLACEHOLDER_COMPANY, type Company } from "~/company/company";
import { FIELD_TEXT, readForm, type FieldSpec, type Section, type SectionErrors } from "./fields";
import { section as about } from "./sections/about";
import { section as company } from "./sections/company";
import { section as contact } from "./sections/contact";
import { FEES_TEXT, section as fees } from "./sections/fees";
import { HERO_TEXT, section as hero } from "./sections/hero";
import { section as hours } from "./sections/hours";
import { section as legal } from "./sections/legal";
import { POLICIES_TEXT, section as policies } from "./sections/policies";
import { PRICING_TEXT, section as pricing } from "./sections/pricing";
import { section as renovations } from "./sections/renovations";
import { section as services } from "./sections/services";
import { section as valuation } from "./sections/valuation";

/**
 * What the company edits of its own site (issue 15, decisions 027 and 044),
 * as typed data: each section of the landing page with its own fields, limits
 * and messages, so an edit can never break the layout. A fresh site shows the
 * specification's texts: siteDefaults.
 *
 * Each section is a module in sections/ (its type, defaults, fields, values,
 * parsing and checks, with its unit tests beside it), listed once in SECTIONS
 * below, in the order of the Website tab's section tabs. The whole content's
 * type, the defaults, the form's reading and checking (parseSection), the
 * check of stored content (contentProblems), import-site's strict check
 * (as-saved.ts), the uploads the tab takes (FILE_FIELDS) and the tab's list
 * of sections all follow the list: a new section is a new module, its import
 * and its line here. The Website tab draws any section from its fields; a section
 * that needs more than fields has a component of its own, named in
 * app/admin/WebsitePanel.tsx: Fees (WebsiteFees: VAT choice, rows with
 * Charged and Remove), Services (WebsiteServices: icons, Move buttons),
 * Business hours (WebsiteHours: a row a day), Pricing (the popular plan) and
 * Policies (Start from a template, filled in by the route's action).
 */
const SECTIONS = { company, hero, services, renovations, pricing, about, contact, valuation, hours, fees, legal, policies };

export type SiteSection = keyof typeof SECTIONS;

/** The whole content: each section's part, as its module types it. */
export type SiteContent = { [Name in SiteSection]: ReturnType<(typeof SECTIONS)[Name]["defaults"]> };

/** A section as the list calls it, on the whole content. */
const REGISTRY: Record<SiteSection, Section<SiteSection, unknown, SiteContent>> = SECTIONS;

export const SITE_SECTIONS = Object.keys(SECTIONS) as readonly SiteSection[];

export const SECTION_LABELS = Object.fromEntries(SITE_SECTIONS.map((name) => [name, REGISTRY[name].label])) as Record<SiteSection, string>;

/** The sections only an owner may change (each module's `ownerOnly`; legal-sections.ts says what that refuses). */
export const OWNER_ONLY_SECTIONS: readonly SiteSection[] = SITE_SECTIONS.filter((name) => REGISTRY[name].ownerOnly === true);

export type { FieldSpec, SectionErrors } from "./fields";

/** Every message of the Website tab's typed fields, by name: the fields' own and the sections'. */
export const WEBSITE_TEXT = { ...FIELD_TEXT, ...HERO_TEXT, ...PRICING_TEXT, ...FEES_TEXT, ...POLICIES_TEXT } as const;

/** One published version, as the history lists it. */
export type VersionSummary = { number: number; publishedAt: string; publishedBy: string; restoredFrom: number | null; live: boolean };

/** The specification's texts (SPEC §9, §10), with the company from COMPANY_* or the placeholders. */
export function siteDefaults(configured: Company = PLACEHOLDER_COMPANY): SiteContent {
  return Object.fromEntries(SITE_SECTIONS.map((name) => [name, REGISTRY[name].defaults(configured)])) as SiteContent;
}

export function sectionFields(section: SiteSection, content: SiteContent): FieldSpec[] {
  return REGISTRY[section].fields(content);
}

/** The section's current values as the form's fields show them. */
export function sectionValues(section: SiteSection, content: SiteContent): Record<string, string> {
  return REGISTRY[section].values(content);
}

/** The field that holds a section's upload, by section: the form carries it as `<name>` (the current URL), `<name>.file` and `<name>.remove`. */
export const FILE_FIELDS: Partial<Record<SiteSection, string>> = Object.fromEntries(
  SITE_SECTIONS.flatMap((name) => {
    const upload = sectionFields(name, siteDefaults()).find((spec) => spec.type === "image" || spec.type === "document");
    return upload ? [[name, upload.name]] : [];
  }),
);

/**
 * Stored or imported content read over the defaults, section by section and
 * field by field, so a field added by a later release shows its default until
 * edited. Sections that are not objects are left at their defaults; callers
 * that must refuse them check first.
 */
export function overDefaults(stored: Record<string, unknown>, defaults: SiteContent): SiteContent {
  const merged = { ...defaults } as Record<string, unknown>;
  for (const section of SITE_SECTIONS) {
    const value = stored[section];
    if (value && typeof value === "object" && !Array.isArray(value)) merged[section] = { ...defaults[section], ...value };
  }
  return merged as SiteContent;
}

/**
 * Reads one section's form into a new whole content, or says what is wrong
 * with each field (then nothing is to be saved).
 */
export function parseSection(
  section: SiteSection,
  fields: Record<string, string | undefined>,
  current: SiteContent,
): { ok: true; content: SiteContent } | { ok: false; errors: SectionErrors; values: Record<string, string> } {
  const form = readForm(sectionFields(section, current), fields);
  const content = { ...current, ...REGISTRY[section].parse(form, current) };
  if (Object.keys(form.errors).length) return { ok: false, errors: form.errors, values: form.values };
  return { ok: true, content };
}

/**
 * A stored content checked as a whole (an import, a version read back): every
 * section's fields within their limits. Returns the problems, none when it is sound.
 */
export function contentProblems(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return ["The site content must be an object."];
  const content = value as SiteContent;
  const problems: string[] = [];
  try {
    const shape = SITE_SECTIONS.flatMap((name) => REGISTRY[name].shapeProblems?.(content) ?? []);
    if (shape.length) return shape;
    for (const section of SITE_SECTIONS) {
      const parsed = parseSection(section, sectionValues(section, content), content);
      if (!parsed.ok) problems.push(...Object.values(parsed.errors));
    }
  } catch {
    problems.push("The site content is not in the expected shape.");
  }
  return problems;
}
