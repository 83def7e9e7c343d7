import { describe, expect, it } from "vitest";
import { WEBSITE_TEXT, parseSection, sectionValues, siteDefaults, type SiteContent } from "../content";

const DEFAULTS = siteDefaults();

describe("the Contact section", () => {
  it("saves its heading and keeps the notes the Business hours tab edits", () => {
    const parsed = parseSection(
      "contact",
      { ...sectionValues("contact", DEFAULTS), "contact.title": "Talk to Us", "contact.phoneNote": "Not this tab's" },
      DEFAULTS,
    );
    expect(parsed.ok && parsed.content.contact).toEqual({ ...DEFAULTS.contact, title: "Talk to Us" });
  });

  it("names every field it keeps: a key no form has does not ride along", () => {
    const stored = { ...DEFAULTS, contact: { ...DEFAULTS.contact, colour: "red" } } as SiteContent;
    const parsed = parseSection("contact", sectionValues("contact", stored), stored);
    expect(parsed.ok && Object.keys(parsed.content.contact)).toEqual(["eyebrow", "title", "intro", "phoneNote", "emailNote"]);
  });

  it("refuses an empty introduction", () => {
    const parsed = parseSection("contact", { ...sectionValues("contact", DEFAULTS), "contact.intro": "" }, DEFAULTS);
    expect(parsed.ok ? {} : parsed.errors).toEqual({ "contact.intro": WEBSITE_TEXT.fieldRequired("Introduction") });
  });
});
