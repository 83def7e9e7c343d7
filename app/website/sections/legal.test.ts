import { describe, expect, it } from "vitest";
import { WEBSITE_TEXT, parseSection, sectionValues, siteDefaults } from "../content";
import { certificateLinkText } from "./legal";

const DEFAULTS = siteDefaults();

const save = (change: Record<string, string>) => parseSection("legal", { ...sectionValues("legal", DEFAULTS), ...change }, DEFAULTS);

describe("the Legal details section", () => {
  it("keeps company, VAT and ICO numbers upper-case and without spaces", () => {
    const parsed = save({ "legal.companyNumber": "sc 123456", "legal.vatNumber": "gb 123 4567 89", "legal.icoNumber": "za123456" });
    expect(parsed.ok && parsed.content.legal).toMatchObject({ companyNumber: "SC123456", vatNumber: "GB123456789", icoNumber: "ZA123456" });
  });

  it("refuses numbers of the wrong form and a date that is none, each with its message", () => {
    const parsed = save({ "legal.companyNumber": "123", "legal.icoNumber": "12345678", "legal.cmpExpires": "2027-02-30" });
    expect(parsed.ok ? {} : parsed.errors).toEqual({
      "legal.companyNumber": "Company number is 8 characters, such as 01234567 or SC123456.",
      "legal.icoNumber": "ICO registration number is 8 characters starting with Z, such as ZA123456.",
      "legal.cmpExpires": WEBSITE_TEXT.date("Client money protection certificate expires on"),
    });
  });

  it("leaves every detail optional", () => {
    expect(save({}).ok).toBe(true);
  });

  it("says whether the certificate's link opens a PDF", () => {
    expect(certificateLinkText("/images/1700000000000-abcdefabcdef.pdf")).toBe("Our client money protection certificate (PDF)");
    expect(certificateLinkText("/images/1700000000000-abcdefabcdef.png")).toBe("Our client money protection certificate (image)");
  });
});
