import { describe, expect, it } from "vitest";
import { LIMITS, SETTINGS_PROBLEMS, fillPlaceholders, firstNameOf, parseReply, parseSettings, replySubject } from "./replies";

const values = { firstName: "Ada", company: "Acme Lettings", phone: "020 7946 0000", myName: "Sam" };

describe("reply templates", () => {
  it("fill every placeholder wherever it appears, and leave other braces as written", () => {
    expect(fillPlaceholders("Hello {first name}, {my name} of {company} ({phone}). {company} again. {other}", values)).toBe(
      "Hello Ada, Sam of Acme Lettings (020 7946 0000). Acme Lettings again. {other}",
    );
  });

  it("use the visitor's first word as their first name, and never a name that reads like a web address", () => {
    expect(firstNameOf("  Ada   Lovelace ")).toBe("Ada");
    expect(firstNameOf("Cheap pills at www.spam.example")).toBe("there");
    expect(firstNameOf("visit https://spam.example")).toBe("there");
    expect(firstNameOf("   ")).toBe("there");
  });

  it("put Re: before a subject once", () => {
    expect(replySubject("Your enquiry")).toBe("Re: Your enquiry");
    expect(replySubject("RE: Your enquiry")).toBe("RE: Your enquiry");
  });
});

describe("a reply", () => {
  it("keeps a one-line subject and the text's line ends, without control characters", () => {
    expect(parseReply(" Re:\u0007 hello\r\nthere ", "Hi\r\nthere\u0000\n")).toEqual({ subject: "Re: hello there", body: "Hi\nthere" });
  });

  it("needs a subject and a text, each within its length", () => {
    expect(parseReply("", "Hi")).toHaveProperty("problem");
    expect(parseReply("Hi", " \n ")).toHaveProperty("problem");
    expect(parseReply("x".repeat(LIMITS.subject + 1), "Hi")).toHaveProperty("problem");
    expect(parseReply("Hi", "x".repeat(LIMITS.body + 1))).toHaveProperty("problem");
  });
});

describe("the owner's settings", () => {
  it("keep the templates filled in, drop the empty ones, and take the reasons one a line, once each", () => {
    const parsed = parseSettings(
      {
        "templateName-1": "One",
        "templateSubject-1": "S1",
        "templateBody-1": "B1",
        "templateName-3": "Three",
        "templateSubject-3": "S3",
        "templateBody-3": "B3",
        reasons: " A \n\nB\r\nA",
        acknowledgementText: "",
      },
      LIMITS.templates,
    );
    expect(parsed).toEqual({
      templates: [
        { id: "t1", name: "One", subject: "S1", body: "B1" },
        { id: "t3", name: "Three", subject: "S3", body: "B3" },
      ],
      reasons: ["A", "B"],
      acknowledgement: { on: false, text: "" },
    });
  });

  it("refuse a template half filled in, no reason at all, a reason too long, and the acknowledgement on without its text", () => {
    expect(parseSettings({ "templateName-2": "Two", reasons: "A" }, LIMITS.templates)).toEqual({ problem: SETTINGS_PROBLEMS.template(2) });
    expect(parseSettings({ reasons: "  " }, LIMITS.templates)).toEqual({ problem: SETTINGS_PROBLEMS.noReasons });
    expect(parseSettings({ reasons: "x".repeat(LIMITS.reason + 1) }, LIMITS.templates)).toEqual({ problem: SETTINGS_PROBLEMS.reason });
    expect(parseSettings({ reasons: "A", acknowledgementOn: "on", acknowledgementText: " " }, LIMITS.templates)).toEqual({
      problem: SETTINGS_PROBLEMS.acknowledgement,
    });
  });
});
