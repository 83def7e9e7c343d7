import { describe, expect, it } from "vitest";
import { FILE_FIELDS, SECTION_LABELS, SITE_SECTIONS, contentProblems, overDefaults, parseSection, sectionFields, sectionValues, siteDefaults } from "./content";

const DEFAULTS = siteDefaults();

describe("the sections of the Website tab", () => {
  it("lists the twelve sections in the tab's order, with their labels", () => {
    expect(SITE_SECTIONS.map((section) => SECTION_LABELS[section])).toEqual([
      "Company",
      "Hero",
      "Services",
      "Renovations",
      "Pricing",
      "About",
      "Contact",
      "Valuation",
      "Business hours",
      "Fees",
      "Legal details",
      "Policies",
    ]);
  });

  it.each(SITE_SECTIONS)("reads the %s section's form, as the tab shows it, back into the same content", (section) => {
    const parsed = parseSection(section, sectionValues(section, DEFAULTS), DEFAULTS);
    expect(parsed.ok ? parsed.content : parsed.errors).toEqual(DEFAULTS);
  });

  it("gives every field a unique name, within its limit when shown", () => {
    for (const section of SITE_SECTIONS) {
      const fields = sectionFields(section, DEFAULTS);
      expect(new Set(fields.map((spec) => spec.name)).size).toBe(fields.length);
      const values = sectionValues(section, DEFAULTS);
      for (const spec of fields) expect((values[spec.name] ?? "").length).toBeLessThanOrEqual(spec.max);
    }
  });

  it("takes an upload with the Company, Hero and Legal details sections only", () => {
    expect(FILE_FIELDS).toEqual({ company: "company.logo", hero: "hero.image", legal: "legal.cmpCertificate" });
  });

  it("finds nothing wrong with a fresh site, and says when stored content is not an object or not in shape", () => {
    expect(contentProblems(DEFAULTS)).toEqual([]);
    expect(contentProblems("site")).toEqual(["The site content must be an object."]);
    expect(contentProblems({ ...DEFAULTS, hero: { ...DEFAULTS.hero, promises: "No VAT" } })).toEqual(["The site content is not in the expected shape."]);
  });

  it("reads stored content over the defaults, field by field, leaving a section that is not an object at its defaults", () => {
    const stored = { hero: { headline: "Lettings Done Well" }, about: ["not", "an", "object"] };
    const content = overDefaults(stored, DEFAULTS);
    expect(content.hero).toEqual({ ...DEFAULTS.hero, headline: "Lettings Done Well" });
    expect(content.about).toEqual(DEFAULTS.about);
    expect(content.services).toEqual(DEFAULTS.services);
  });
});
