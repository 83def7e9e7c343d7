import { describe, expect, it } from "vitest";
import { WEBSITE_TEXT, contentProblems, parseSection, sectionValues, siteDefaults } from "../content";
import { RENOVATIONS_TEXT } from "./renovations";

const DEFAULTS = siteDefaults();

describe("the Renovations section", () => {
  it("saves its intro and four cards, in their places", () => {
    const parsed = parseSection(
      "renovations",
      { ...sectionValues("renovations", DEFAULTS), "renovations.cards.2.title": "Repairs", "renovations.intro": "  Homes we improved.  " },
      DEFAULTS,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.content.renovations.intro).toBe("Homes we improved.");
    expect(parsed.content.renovations.cards.map((card) => card.title)).toEqual(["Complete Renovations", "Interior Design", "Repairs", "Property Upgrades"]);
  });

  it("refuses a card without its description", () => {
    const parsed = parseSection("renovations", { ...sectionValues("renovations", DEFAULTS), "renovations.cards.3.description": "" }, DEFAULTS);
    expect(parsed.ok ? {} : parsed.errors).toEqual({ "renovations.cards.3.description": WEBSITE_TEXT.fieldRequired("Card 4: description") });
  });

  it("finds stored content without its four cards", () => {
    expect(contentProblems({ ...DEFAULTS, renovations: { ...DEFAULTS.renovations, cards: DEFAULTS.renovations.cards.slice(1) } })).toEqual([
      RENOVATIONS_TEXT.shape,
    ]);
  });
});
