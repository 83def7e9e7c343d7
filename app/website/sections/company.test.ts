import { describe, expect, it } from "vitest";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { WEBSITE_TEXT, parseSection, sectionValues, siteDefaults } from "../content";
import { siteCompany } from "./company";

const DEFAULTS = siteDefaults();

describe("the Company section", () => {
  it("starts from the configured company, with its standard logo", () => {
    const configured = { ...PLACEHOLDER_COMPANY, name: "Acme Lettings Ltd", shortName: "Acme" };
    expect(siteDefaults(configured).company).toEqual({
      name: "Acme Lettings Ltd",
      shortName: "Acme",
      phone: configured.phone,
      email: configured.email,
      address: configured.address,
      logo: "",
    });
  });

  it("keeps an address typed on several lines on one", () => {
    const parsed = parseSection("company", { ...sectionValues("company", DEFAULTS), "company.address": "1 High Street\r\n  Leeds \n LS1 1AA" }, DEFAULTS);
    expect(parsed.ok && parsed.content.company.address).toBe("1 High Street, Leeds, LS1 1AA");
  });

  it("refuses a missing name and an e-mail address that is none", () => {
    const parsed = parseSection("company", { ...sectionValues("company", DEFAULTS), "company.name": " ", "company.email": "hello at example" }, DEFAULTS);
    expect(parsed.ok ? {} : parsed.errors).toEqual({ "company.name": WEBSITE_TEXT.fieldRequired("Company name"), "company.email": WEBSITE_TEXT.email });
  });

  it("names the site's company from the content, with an uploaded logo over the configured one", () => {
    const content = { ...DEFAULTS, company: { ...DEFAULTS.company, name: "Acme Lettings Ltd" } };
    expect(siteCompany(PLACEHOLDER_COMPANY, content)).toEqual({ ...PLACEHOLDER_COMPANY, name: "Acme Lettings Ltd" });
    expect(siteCompany(PLACEHOLDER_COMPANY, { company: { ...content.company, logo: "/images/abc.png" } }).logoUrl).toBe("/images/abc.png");
  });
});
