import { describe, expect, it } from "vitest";
import { REQUIRED_MESSAGE } from "./schema";
import { VALUATION_TEXT, isUkPostcode, normalisePostcode, parseValuationDetails, validateValuation, valuationRows } from "./valuation";

const REQUEST = {
  address: "14 Albion Street, Leeds",
  postcode: "LS1 6AF",
  propertyType: "terraced",
  bedrooms: "3",
  occupancy: "let",
  letBy: "asap",
  name: "Priya Landlord",
  email: "priya@example.com",
  phone: "0113 496 0000",
  callTime: "any",
};

describe("a UK postcode", () => {
  it.each([
    ["sw1a1aa", "SW1A 1AA"],
    ["  ls1   6af ", "LS1 6AF"],
    ["M1 1AE", "M1 1AE"],
    ["b338th", "B33 8TH"],
    ["cr2 6xh", "CR2 6XH"],
    ["dn55 1pt", "DN55 1PT"],
    ["gir0aa", "GIR 0AA"],
  ])("takes %j as %j", (typed, written) => {
    expect(normalisePostcode(typed)).toBe(written);
    expect(isUkPostcode(normalisePostcode(typed))).toBe(true);
  });

  it.each(["12345", "LS99 ZZZ1", "SW1A", "QA1 1AA", "LS1 6CF", "not a postcode", "W1A 1AA!"])("refuses %j", (typed) => {
    expect(isUkPostcode(normalisePostcode(typed))).toBe(false);
  });
});

describe("the valuation request's validator", () => {
  it("gives a landlord's enquiry with the property's details, the postcode written as Royal Mail does", () => {
    const checked = validateValuation({ ...REQUEST, postcode: "ls16af", message: "  " });
    expect(checked).toEqual({
      success: true,
      data: {
        name: REQUEST.name,
        email: REQUEST.email,
        phone: REQUEST.phone,
        userType: "landlord",
        message: "",
        valuation: { address: REQUEST.address, postcode: "LS1 6AF", propertyType: "terraced", bedrooms: "3", occupancy: "let", letBy: "asap", callTime: "any" },
      },
    });
  });

  it("says a postcode that is not one in the form's own words", () => {
    expect(validateValuation({ ...REQUEST, postcode: "ABC" })).toEqual({ success: false, error: VALUATION_TEXT.postcode, fields: ["postcode"] });
  });

  it("asks for every required field first, the phone included, and refuses a choice not on the list", () => {
    expect(validateValuation({ ...REQUEST, phone: "", occupancy: undefined, postcode: "ABC" })).toEqual({
      success: false,
      error: REQUIRED_MESSAGE,
      fields: ["occupancy", "phone"],
    });
    expect(validateValuation({ ...REQUEST, bedrooms: "__proto__" })).toMatchObject({ success: false, fields: ["bedrooms"] });
    expect(validateValuation({ ...REQUEST, address: "14 Albion\nStreet" })).toMatchObject({ success: false, error: VALUATION_TEXT.address });
    expect(validateValuation(null)).toMatchObject({ success: false, error: REQUIRED_MESSAGE });
  });

  it("labels the details for the card, the CSV and the e-mail, and reads back only sound stored details", () => {
    const checked = validateValuation(REQUEST);
    if (!checked.success) throw new Error(checked.error);
    const details = checked.data.valuation!;
    expect(valuationRows(details)).toEqual([
      ["Property address", "14 Albion Street, Leeds"],
      ["Postcode", "LS1 6AF"],
      ["Property type", "Terraced house"],
      ["Bedrooms", "3"],
      ["Vacant, let or not yet bought", "Let (tenants living there)"],
      ["Would like it let", "As soon as possible"],
      ["Best time to call", "Any time"],
    ]);
    expect(parseValuationDetails(JSON.stringify(details))).toEqual(details);
    expect(parseValuationDetails(JSON.stringify({ ...details, bedrooms: "9" }))).toBeUndefined();
    expect(parseValuationDetails("{not json")).toBeUndefined();
    expect(parseValuationDetails(null)).toBeUndefined();
  });
});
