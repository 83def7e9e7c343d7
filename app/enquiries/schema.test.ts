import { describe, expect, it } from "vitest";
import { FAILURE_MESSAGE, INVALID_EMAIL_MESSAGE, REQUIRED_MESSAGE, SUCCESS_MESSAGE, USER_TYPES, USER_TYPE_LABELS, validateEnquiry } from "./schema";
import { isValidEmail } from "~/platform/email-address";

const valid = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "020 7946 0001",
  userType: "landlord",
  message: "I have two flats in Camden that need a managing agent.",
};

function errorOf(input: unknown): string {
  const result = validateEnquiry(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.error;
}

function dataOf(input: unknown) {
  const result = validateEnquiry(input);
  if (!result.success) throw new Error(`expected success, got "${result.error}"`);
  return result.data;
}

describe("messages", () => {
  it("are the specification's words", () => {
    expect(REQUIRED_MESSAGE).toBe("Please fill in all required fields");
    expect(INVALID_EMAIL_MESSAGE).toBe("Please enter a valid email address");
    expect(SUCCESS_MESSAGE).toBe("Thank you for your message! We'll get back to you within 24 hours.");
    expect(FAILURE_MESSAGE).toBe("Failed to send message. Please try again.");
  });
});

describe("validateEnquiry: a complete enquiry", () => {
  it("is accepted with every field", () => {
    expect(dataOf(valid)).toEqual(valid);
  });

  it("trims every text field", () => {
    expect(
      dataOf({
        name: "  Ada Lovelace\t",
        email: " ada@example.com  ",
        phone: "  020 7946 0001 ",
        userType: "tenant",
        message: "\n  Hello there  \n",
      }),
    ).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: "020 7946 0001",
      userType: "tenant",
      message: "Hello there",
    });
  });

  it("keeps line breaks inside the message", () => {
    expect(dataOf({ ...valid, message: "Line one\nLine two" }).message).toBe("Line one\nLine two");
  });

  it("ignores fields it does not know", () => {
    expect(dataOf({ ...valid, isAdmin: true, is_read: true })).toEqual(valid);
  });
});

describe("validateEnquiry: phone", () => {
  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["only spaces", "   "],
    ["null", null],
  ])("is optional: %s becomes undefined", (_label, phone) => {
    const input: Record<string, unknown> = { ...valid, phone };
    if (phone === undefined) delete input.phone;
    expect(dataOf(input).phone).toBeUndefined();
  });

  it("is refused when it is not text", () => {
    expect(errorOf({ ...valid, phone: 2079460001 })).toBe("Phone must be text");
  });

  it("is refused when it spans lines", () => {
    expect(errorOf({ ...valid, phone: "020 7946\r\nBcc: x@y.z" })).toBe("Please enter your phone number on a single line");
  });
});

describe("validateEnquiry: required fields", () => {
  it.each(["name", "email", "userType", "message"])("refuses a missing %s", (field) => {
    const input: Record<string, unknown> = { ...valid };
    delete input[field];
    expect(validateEnquiry(input)).toEqual({ success: false, error: REQUIRED_MESSAGE, fields: [field] });
  });

  it.each(["name", "email", "userType", "message"])("refuses an empty %s", (field) => {
    expect(errorOf({ ...valid, [field]: "" })).toBe(REQUIRED_MESSAGE);
  });

  it.each(["name", "email", "message"])("refuses a %s of only white space", (field) => {
    expect(errorOf({ ...valid, [field]: " \t\n " })).toBe(REQUIRED_MESSAGE);
  });

  it.each(["name", "email", "userType", "message"])("refuses a null %s as missing", (field) => {
    expect(errorOf({ ...valid, [field]: null })).toBe(REQUIRED_MESSAGE);
  });

  it("names every missing field, and reports a missing field before any other problem", () => {
    expect(validateEnquiry({ email: "not an address", phone: "1" })).toEqual({
      success: false,
      error: REQUIRED_MESSAGE,
      fields: ["name", "userType", "message"],
    });
  });

  it("refuses an empty object", () => {
    expect(validateEnquiry({})).toEqual({
      success: false,
      error: REQUIRED_MESSAGE,
      fields: ["name", "email", "userType", "message"],
    });
  });
});

describe("validateEnquiry: input that is not an object", () => {
  it.each([
    ["null", null],
    ["undefined", undefined],
    ["an array", [valid]],
    ["a string", JSON.stringify(valid)],
    ["a number", 42],
    ["a boolean", true],
  ])("refuses %s with the required-fields message", (_label, input) => {
    expect(validateEnquiry(input)).toEqual({
      success: false,
      error: REQUIRED_MESSAGE,
      fields: ["name", "email", "userType", "message"],
    });
  });
});

describe("validateEnquiry: wrong JSON types", () => {
  it.each([
    ["name", 42, "Name must be text"],
    ["name", { first: "Ada" }, "Name must be text"],
    ["email", ["ada@example.com"], "Email must be text"],
    ["email", true, "Email must be text"],
    ["message", { text: "hello" }, "Message must be text"],
    ["message", 12.5, "Message must be text"],
  ])("refuses %s = %j", (field, value, message) => {
    expect(validateEnquiry({ ...valid, [field]: value })).toEqual({ success: false, error: message, fields: [field] });
  });

  it.each([1, ["landlord"], { landlord: true }, true])("refuses userType %j as an unknown option", (userType) => {
    expect(errorOf({ ...valid, userType })).toBe("Please choose Landlord, Tenant, Property Investor or Other");
  });
});

describe("validateEnquiry: userType", () => {
  it("offers landlord, tenant, investor (labelled Property Investor) and other", () => {
    expect(USER_TYPES).toEqual(["landlord", "tenant", "investor", "other"]);
    expect(USER_TYPE_LABELS).toEqual({
      landlord: "Landlord",
      tenant: "Tenant",
      investor: "Property Investor",
      other: "Other",
    });
  });

  it.each(USER_TYPES)("accepts %s", (userType) => {
    expect(dataOf({ ...valid, userType }).userType).toBe(userType);
  });

  it.each(["admin", "Landlord", "landlord ", "Property Investor", "__proto__"])("refuses the unknown value %j", (userType) => {
    expect(validateEnquiry({ ...valid, userType })).toEqual({
      success: false,
      error: "Please choose Landlord, Tenant, Property Investor or Other",
      fields: ["userType"],
    });
  });
});

describe("validateEnquiry: e-mail", () => {
  it.each(["ada@example.com", "ada.lovelace+website@mail.example.co.uk", "o'brien@example.ie", "ADA@EXAMPLE.COM", "x@y.z"])("accepts %s", (email) => {
    expect(dataOf({ ...valid, email }).email).toBe(email);
  });

  it.each([
    ["no at sign", "ada.example.com"],
    ["nothing before the at sign", "@example.com"],
    ["nothing after the at sign", "ada@"],
    ["no dot after the at sign", "ada@example"],
    ["a dot at the very end", "ada@example."],
    ["two dots in a row", "ada@example..com"],
    ["two at signs", "ada@@example.com"],
    ["several at signs", "ada@evil.com@example.com"],
    ["a comma (a second recipient)", "ada@example.com,eve@evil.com"],
    ["a comma and a space", "ada@example.com, eve@evil.com"],
    ["a semicolon", "ada@example.com;eve@evil.com"],
    ["CR LF and a Bcc header", "ada@example.com\r\nBcc: eve@evil.com"],
    ["LF and a Bcc header", "ada@example.com\nBcc:eve@evil.com"],
    ["a %0A-decoded newline", decodeURIComponent("ada@example.com%0ABcc%3A%20eve%40evil.com")],
    ["a %0D%0A-decoded newline", decodeURIComponent("ada@example.com%0D%0ACc:eve@evil.com")],
    ["a bare CR", "ada@example.com\rTo: eve@evil.com"],
    ["a closing angle bracket and a second address", "a@b.c>,x@y.z"],
    ["angle brackets", "<ada@example.com>"],
    ["a display name", "Ada <ada@example.com>"],
    ["a space in the local part", "ada lovelace@example.com"],
    ["a space in the domain", "ada@exa mple.com"],
    ["a tab", "ada@example.com\tx"],
    ["a NUL byte", "ada@example.com\u0000x"],
    ["a Unicode line separator", "ada@example.com\u2028Bcc: eve@evil.com"],
    ["quotes", '"ada"@example.com'],
    ["a colon", "ada@example.com:25"],
    ["parentheses (a comment)", "ada(comment)@example.com"],
    ["square brackets", "ada@[127.0.0.1]"],
    ["a backslash", "ada\\@example.com"],
  ])("refuses an address with %s", (_label, email) => {
    expect(validateEnquiry({ ...valid, email })).toEqual({
      success: false,
      error: INVALID_EMAIL_MESSAGE,
      fields: ["email"],
    });
  });

  it("agrees with isValidEmail", () => {
    expect(isValidEmail("ada@example.com")).toBe(true);
    expect(isValidEmail("ada@example.com,eve@evil.com")).toBe(false);
    expect(isValidEmail("ada@example.com\nBcc: eve@evil.com")).toBe(false);
  });
});

describe("validateEnquiry: length caps", () => {
  const emailOfLength = (length: number) => `${"a".repeat(length - "@example.com".length)}@example.com`;

  it("accepts each field at its cap", () => {
    const atCap = {
      name: "N".repeat(200),
      email: emailOfLength(254),
      phone: "1".repeat(40),
      userType: "other",
      message: "m".repeat(20_000),
    };
    expect(dataOf(atCap)).toEqual(atCap);
  });

  it("measures the cap after trimming", () => {
    expect(dataOf({ ...valid, name: `  ${"N".repeat(200)}  ` }).name).toHaveLength(200);
  });

  it("refuses a name over 200 characters", () => {
    expect(validateEnquiry({ ...valid, name: "N".repeat(201) })).toEqual({
      success: false,
      error: "Please keep your name under 200 characters",
      fields: ["name"],
    });
  });

  it("refuses an e-mail address over 254 characters with the e-mail message", () => {
    expect(validateEnquiry({ ...valid, email: emailOfLength(255) })).toEqual({
      success: false,
      error: INVALID_EMAIL_MESSAGE,
      fields: ["email"],
    });
  });

  it("refuses a phone number over 40 characters", () => {
    expect(validateEnquiry({ ...valid, phone: "1".repeat(41) })).toEqual({
      success: false,
      error: "Please keep your phone number under 40 characters",
      fields: ["phone"],
    });
  });

  it("refuses a message over 20,000 characters", () => {
    expect(validateEnquiry({ ...valid, message: "m".repeat(20_001) })).toEqual({
      success: false,
      error: "Please keep your message under 20,000 characters",
      fields: ["message"],
    });
  });
});

describe("validateEnquiry: a name on one line", () => {
  it.each(["Ada\r\nBcc: eve@evil.com", "Ada\nLovelace", "Ada\u0000", "Ada\u001b[31m"])("refuses control characters in %j", (name) => {
    expect(validateEnquiry({ ...valid, name })).toEqual({
      success: false,
      error: "Please enter your name on a single line",
      fields: ["name"],
    });
  });

  it("accepts names with accents, apostrophes and hyphens", () => {
    expect(dataOf({ ...valid, name: "Siân O'Brien-Žukauskaitė" }).name).toBe("Siân O'Brien-Žukauskaitė");
  });
});
