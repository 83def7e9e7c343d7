import { describe, expect, it } from "vitest";
import { WEBSITE_TEXT, parseSection, sectionValues, siteDefaults } from "../content";

const DEFAULTS = siteDefaults();

describe("the About section", () => {
  it("saves its text with the paragraphs as typed, its four badges and its two captions", () => {
    const parsed = parseSection(
      "about",
      {
        ...sectionValues("about", DEFAULTS),
        "about.text": "{company} is local.\r\n\r\nWe answer quickly.",
        "about.badges.3": "Family Run",
        "about.captions.1.subtitle": "Since 1998",
      },
      DEFAULTS,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.content.about).toEqual({
      ...DEFAULTS.about,
      text: "{company} is local.\n\nWe answer quickly.",
      badges: [...DEFAULTS.about.badges.slice(0, 3), "Family Run"],
      captions: [DEFAULTS.about.captions[0], { title: "Market Leaders", subtitle: "Since 1998" }],
    });
  });

  it("refuses a caption left empty and a text over its limit", () => {
    const parsed = parseSection("about", { ...sectionValues("about", DEFAULTS), "about.captions.0.title": "", "about.text": "a".repeat(1501) }, DEFAULTS);
    expect(parsed.ok ? {} : parsed.errors).toEqual({
      "about.captions.0.title": WEBSITE_TEXT.fieldRequired("Caption 1: title"),
      "about.text": WEBSITE_TEXT.tooLong("Text", 1500),
    });
  });
});
