import { describe, expect, it } from "vitest";
import { MAX_PRICE_PENCE, formatPrice, penceFrom, priceFieldValue } from "./price";

describe("prices", () => {
  it("shows whole pounds without pence, and pence with two digits", () => {
    expect([8000, 7950, 125_005].map(formatPrice)).toEqual(["£80", "£79.50", "£1,250.05"]);
    expect([8000, 7950, 125_005].map(priceFieldValue)).toEqual(["80", "79.50", "1250.05"]);
  });

  it("reads an amount in pounds as typed, and nothing else", () => {
    expect(["80", "£79.5", "£ 1,250.05"].map(penceFrom)).toEqual([8000, 7950, 125_005]);
    for (const text of ["", "eighty", "80.123", "-5", "1e3", "100000.01"]) expect(penceFrom(text)).toBeUndefined();
    expect(penceFrom("100000")).toBe(MAX_PRICE_PENCE);
  });
});
