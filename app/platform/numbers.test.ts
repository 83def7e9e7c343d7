import { afterEach, describe, expect, it, vi } from "vitest";
import { groupedDigits } from "./numbers";

describe("groupedDigits", () => {
  it("writes a whole number as en-GB does, thousands grouped with commas", () => {
    const wholes = [0, 7, 42, 999, 1_000, 1_250, 12_345, 100_000, 999_999, 1_000_000, 123_456_789, -1, -1_250, -1_000_000];
    for (const whole of wholes) expect(groupedDigits(whole)).toBe(whole.toLocaleString("en-GB"));
  });

  it("drops a fraction rather than rounding it", () => {
    expect(groupedDigits(1_250.99)).toBe("1,250");
    expect(groupedDigits(-0.5)).toBe("0");
  });
});

describe("the public site formats without ICU (decision 085)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it("makes no date formatter on import, and none to show a price or check an enquiry", async () => {
    const dateFormatters = vi.spyOn(Intl, "DateTimeFormat");
    const numberFormatters = vi.spyOn(Intl, "NumberFormat");
    const localeStrings = vi.spyOn(Number.prototype, "toLocaleString");
    vi.resetModules();
    const dates = await import("./dates");
    const { formatPrice } = await import("~/website/price");
    const { LIMITS, validateEnquiry } = await import("~/enquiries/schema");
    const { VALUATION_TEXT } = await import("~/enquiries/valuation");
    await import("~/enquiries/figures");
    await import("~/auth/invitation-email");

    expect(formatPrice(125_050)).toBe("£1,250.50");
    const long = { name: "Ann Lee", email: "ann@example.com", userType: "landlord", message: "x".repeat(LIMITS.message + 1) };
    expect(validateEnquiry(long)).toMatchObject({ success: false, error: `Please keep your message under ${groupedDigits(LIMITS.message)} characters` });
    expect(VALUATION_TEXT.messageLong).toBe("Please keep your note under 5,000 characters");
    expect(dateFormatters).not.toHaveBeenCalled();
    expect(numberFormatters).not.toHaveBeenCalled();
    expect(localeStrings).not.toHaveBeenCalled();

    // The admin's dates still come from ICU, made once on first use.
    expect(dates.formatSubmittedAt("2026-07-01T14:05:00.000Z")).toBe("1 Jul 2026, 15:05");
    expect(dates.formatSubmittedAt("2026-12-01T14:05:00.000Z")).toBe("1 Dec 2026, 14:05");
    expect(dateFormatters).toHaveBeenCalledTimes(1);
  });
});
