import { describe, expect, it } from "vitest";
import { WEBSITE_TEXT, parseSection, sectionValues, siteDefaults } from "../content";

const DEFAULTS = siteDefaults();

describe("the Valuation section", () => {
  it("starts from the page's own title and saves an edited one", () => {
    expect(DEFAULTS.valuation.title).toBe("Request a free rental valuation");
    const parsed = parseSection("valuation", { ...sectionValues("valuation", DEFAULTS), "valuation.title": "Free valuation" }, DEFAULTS);
    expect(parsed.ok && parsed.content.valuation).toEqual({ ...DEFAULTS.valuation, title: "Free valuation" });
  });

  it("refuses an empty link text, and changes nothing", () => {
    const parsed = parseSection("valuation", { ...sectionValues("valuation", DEFAULTS), "valuation.link": " " }, DEFAULTS);
    expect(parsed.ok ? {} : parsed.errors).toEqual({ "valuation.link": WEBSITE_TEXT.fieldRequired("Link text") });
  });
});
