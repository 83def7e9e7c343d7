import { describe, expect, it } from "vitest";
import { WEBSITE_TEXT, parseSection, sectionValues, siteDefaults } from "../content";
import { MAX_PROMISES } from "./hero";

const DEFAULTS = siteDefaults();

describe("the Hero section", () => {
  it("starts with the specification's promises", () => {
    expect(DEFAULTS.hero.promises).toEqual(["No VAT Added", "No Hidden Fees", "No Surprises"]);
    expect(DEFAULTS.hero.promises).toHaveLength(MAX_PROMISES);
  });

  it("asks for the description of an uploaded image", () => {
    const parsed = parseSection("hero", { ...sectionValues("hero", DEFAULTS), "hero.image": "/images/1700000000000-abcdefabcdef.jpg" }, DEFAULTS);
    expect(parsed.ok ? {} : parsed.errors).toEqual({ "hero.imageAlt": WEBSITE_TEXT.heroAlt });
  });

  it("refuses an image address that is not one of the site's uploads", () => {
    const parsed = parseSection(
      "hero",
      { ...sectionValues("hero", DEFAULTS), "hero.image": "https://example.com/a.jpg", "hero.imageAlt": "A house" },
      DEFAULTS,
    );
    expect(parsed.ok ? {} : parsed.errors).toEqual({ "hero.image": WEBSITE_TEXT.fileMissing("Hero image") });
  });

  it("reads exactly its three promises, each required", () => {
    const parsed = parseSection("hero", { ...sectionValues("hero", DEFAULTS), "hero.promises.1": "", "hero.promises.3": "A fourth" }, DEFAULTS);
    expect(parsed.ok ? {} : parsed.errors).toEqual({ "hero.promises.1": WEBSITE_TEXT.fieldRequired("Promise 2") });
  });
});
