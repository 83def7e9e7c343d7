import { describe, expect, it } from "vitest";
import { contentProblems, parseSection, sectionValues, siteDefaults } from "../content";
import { HOURS_TEXT, hoursRows, openingHours } from "./hours";

const DEFAULTS = siteDefaults();

describe("the Business hours section", () => {
  it("lists the specification's hours as the page has always shown them, and as schema.org opening hours", () => {
    expect(hoursRows(DEFAULTS.hours)).toEqual([
      { days: "Monday – Friday", hours: "9:00 – 18:00" },
      { days: "Saturday", hours: "10:00 – 16:00" },
      { days: "Sunday", hours: "Closed" },
    ]);
    expect(openingHours(DEFAULTS.hours)).toEqual([
      { days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], opens: "09:00", closes: "18:00" },
      { days: ["Saturday"], opens: "10:00", closes: "16:00" },
    ]);
  });

  it("groups days in a row with the same hours, and opening hours by their times across the week", () => {
    const values = { ...sectionValues("hours", DEFAULTS), "hours.2.opens": "10:00", "hours.5.open": "", "hours.6.open": "" };
    const parsed = parseSection("hours", values, DEFAULTS);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(hoursRows(parsed.content.hours)).toEqual([
      { days: "Monday – Tuesday", hours: "9:00 – 18:00" },
      { days: "Wednesday", hours: "10:00 – 18:00" },
      { days: "Thursday – Friday", hours: "9:00 – 18:00" },
      { days: "Saturday – Sunday", hours: "Closed" },
    ]);
    expect(openingHours(parsed.content.hours)).toEqual([
      { days: ["Monday", "Tuesday", "Thursday", "Friday"], opens: "09:00", closes: "18:00" },
      { days: ["Wednesday"], opens: "10:00", closes: "18:00" },
    ]);
    // A closed day keeps no times.
    expect(parsed.content.hours.days[5]).toEqual({ open: false, opens: "", closes: "" });
  });

  it("refuses an open day without times, a time that is none, and closing before opening", () => {
    const parsed = parseSection(
      "hours",
      {
        ...sectionValues("hours", DEFAULTS),
        "hours.0.opens": "",
        "hours.1.opens": "9am",
        "hours.2.opens": "18:00",
        "hours.2.closes": "09:00",
        "hours.6.open": "on",
      },
      DEFAULTS,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual({
      "hours.0.opens": HOURS_TEXT.times("Monday"),
      "hours.1.opens": HOURS_TEXT.time("Tuesday: opens"),
      "hours.2.closes": HOURS_TEXT.order("Wednesday"),
      "hours.6.opens": HOURS_TEXT.times("Sunday"),
    });
  });

  it("saves the Contact section's phone and e-mail notes with the hours, leaving its other texts as they were", () => {
    const parsed = parseSection(
      "hours",
      { ...sectionValues("hours", DEFAULTS), "contact.phoneNote": "Phone line open 8am – 8pm", "contact.title": "Not this tab's" },
      DEFAULTS,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.content.contact).toEqual({ ...DEFAULTS.contact, phoneNote: "Phone line open 8am – 8pm" });
  });

  it("finds a stored week that is not seven days, or holds a time that is none", () => {
    expect(contentProblems({ ...DEFAULTS, hours: { days: DEFAULTS.hours.days.slice(1) } })).toHaveLength(1);
    expect(contentProblems({ ...DEFAULTS, hours: { days: DEFAULTS.hours.days.map((day) => ({ ...day, opens: day.open ? "nine" : "" })) } })).toContain(
      HOURS_TEXT.time("Monday: opens"),
    );
  });
});
