import { describe, expect, it } from "vitest";
import { WEBSITE_TEXT, parseSection, sectionValues, siteDefaults } from "../content";
import { FEATURE_MAX } from "./pricing";

const DEFAULTS = siteDefaults();

describe("the Pricing section", () => {
  it("reads prices in pounds and pence, and shows them as the site writes prices", () => {
    const parsed = parseSection("pricing", { ...sectionValues("pricing", DEFAULTS), "plans.0.price": "£1,250.5", popular: "0" }, DEFAULTS);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.content.pricing.plans[0]).toMatchObject({ pricePence: 125050, popular: true });
    expect(parsed.content.pricing.plans[1]!.popular).toBe(false);
  });

  it("shows each plan's price and features as its fields do, and which plan is popular", () => {
    const values = sectionValues("pricing", DEFAULTS);
    expect(values["plans.1.price"]).toBe("120");
    expect(values["plans.0.features"]!.split("\n")).toEqual(DEFAULTS.pricing.plans[0]!.features);
    expect(values.popular).toBe("1");
  });

  it("takes one feature a line, leaving out blank lines, and no popular plan when none is chosen", () => {
    const parsed = parseSection(
      "pricing",
      { ...sectionValues("pricing", DEFAULTS), "plans.0.features": "  Rent collection \n\n Repairs\n", popular: "-1" },
      DEFAULTS,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.content.pricing.plans[0]!.features).toEqual(["Rent collection", "Repairs"]);
    expect(parsed.content.pricing.plans.some((plan) => plan.popular)).toBe(false);
  });

  it("refuses a feature line over its limit", () => {
    const parsed = parseSection("pricing", { ...sectionValues("pricing", DEFAULTS), "plans.1.features": "x".repeat(FEATURE_MAX + 1) }, DEFAULTS);
    expect(parsed.ok ? {} : parsed.errors).toEqual({ "plans.1.features": WEBSITE_TEXT.lineTooLong("Plan 2 features", FEATURE_MAX) });
  });
});
