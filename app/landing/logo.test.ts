import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { logoSrc, PLACEHOLDER_LOGO_DATA_URL, PLACEHOLDER_LOGO_URL } from "./logo";

const normalised = (svg: string) => svg.replace(/>\s+</g, "><").trim();

describe("the landing page's logo", () => {
  it("is public/logo.svg's picture, carried in the page", () => {
    const file = readFileSync(path.resolve(__dirname, "../../public/logo.svg"), "utf8");
    expect(PLACEHOLDER_LOGO_URL).toBe(PLACEHOLDER_COMPANY.logoUrl);
    expect(decodeURIComponent(PLACEHOLDER_LOGO_DATA_URL.replace(/^data:image\/svg\+xml,/, ""))).toBe(normalised(file));
    expect(logoSrc(PLACEHOLDER_COMPANY.logoUrl)).toBe(PLACEHOLDER_LOGO_DATA_URL);
  });

  it("is a company's own logo from its address", () => {
    expect(logoSrc("https://cdn.example.com/our-logo.png")).toBe("https://cdn.example.com/our-logo.png");
  });
});
