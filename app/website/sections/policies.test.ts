import { describe, expect, it } from "vitest";
import { WEBSITE_TEXT, parseSection, sectionValues, siteDefaults } from "../content";
import { MAX_POLICY_NESTING, POLICY_MAX, TEMPLATE_NOTICE, policyNesting, policyTemplate } from "./policies";

const DEFAULTS = siteDefaults();

describe("how deep a policy nests", () => {
  it.each([
    ["plain text", "We keep what we need.\n\nNothing more.", 0],
    ["a list", "- a\n- b", 1],
    ["a list in a list", "- a\n  - b\n    - c", 3],
    ["an ordered list in a list", "1. a\n   - b", 2],
    ["quotes", "> > > a", 3],
    ["a list in a quote", "> - a\n>   - b", 3],
    ["a line of quote marks", ">".repeat(5000), 5000],
    ["tabs", "-\ta\n\t- b", 3],
  ])("counts %s", (_label, text, depth) => {
    expect(policyNesting(text)).toBe(depth);
  });

  it("allows the nesting a policy needs", () => {
    expect(policyNesting("1. Your rights\n   - to see what we hold\n     - and to have a copy\n   - to have it corrected")).toBeLessThanOrEqual(
      MAX_POLICY_NESTING,
    );
  });
});

describe("the Policies section", () => {
  it("saves each policy as typed, and refuses one over the limit or nested deeper than a page shows", () => {
    const deep = Array.from({ length: MAX_POLICY_NESTING + 1 }, (_, depth) => `${"  ".repeat(depth)}- level ${depth + 1}`).join("\n");
    const parsed = parseSection(
      "policies",
      { "policies.privacy": "# Privacy\n\nWe keep little.", "policies.terms": deep, "policies.cookies": "x".repeat(POLICY_MAX + 1) },
      DEFAULTS,
    );
    expect(parsed.ok ? {} : parsed.errors).toEqual({
      "policies.terms": WEBSITE_TEXT.policyNesting("Terms of Service", MAX_POLICY_NESTING),
      "policies.cookies": WEBSITE_TEXT.tooLong("Cookie Policy", POLICY_MAX),
    });
    const saved = parseSection("policies", { ...sectionValues("policies", DEFAULTS), "policies.privacy": "# Privacy\n\nWe keep little." }, DEFAULTS);
    expect(saved.ok && saved.content.policies).toEqual({ privacy: "# Privacy\n\nWe keep little.", terms: "", cookies: "" });
  });

  it("makes templates from the company's details, each marked as a template", () => {
    const content = { ...DEFAULTS, legal: { ...DEFAULTS.legal, registeredName: "Acme Lettings Ltd", companyNumber: "01234567", icoNumber: "ZA123456" } };
    const privacy = policyTemplate("privacy", { content, retentionDays: 180 });
    expect(privacy.startsWith(TEMPLATE_NOTICE)).toBe(true);
    expect(privacy).toContain("Acme Lettings Ltd (company number 01234567)");
    expect(privacy).toContain("ZA123456");
    expect(privacy).toContain("We delete an enquiry 180 days after we receive it");
    expect(policyTemplate("cookies", { content, retentionDays: undefined })).toContain(`Ask us at ${DEFAULTS.company.email}.`);
  });
});
