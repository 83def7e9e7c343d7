import { describe, expect, it } from "vitest";
import { londonDate, officeTimeBetween, officeTimeLabel, type OpeningDay } from "./office-hours";

const open = (opens: string, closes: string): OpeningDay => ({ open: true, opens, closes });
const closed: OpeningDay = { open: false, opens: "", closes: "" };
/** The specification's hours: Monday – Friday 9:00 – 18:00, Saturday 10:00 – 16:00, Sunday closed. */
const WEEK: OpeningDay[] = [...Array.from({ length: 5 }, () => open("09:00", "18:00")), open("10:00", "16:00"), closed];
const HOUR = 3_600_000;
const MINUTE = 60_000;
const between = (from: string, to: string, week = WEEK) => officeTimeBetween(new Date(from), new Date(to), week);

describe("office time between two instants", () => {
  it("counts the whole gap when both fall within one open day", () => {
    // Wednesday 25 Nov 2026, GMT: 10:00 to 11:30.
    expect(between("2026-11-25T10:00:00Z", "2026-11-25T11:30:00Z")).toBe(90 * MINUTE);
  });

  it("counts nothing outside the hours, at night or on a closed Sunday", () => {
    expect(between("2026-11-25T18:30:00Z", "2026-11-26T08:59:00Z")).toBe(0);
    expect(between("2026-11-29T09:00:00Z", "2026-11-29T17:00:00Z")).toBe(0);
    expect(between("2026-11-25T07:00:00Z", "2026-11-25T08:00:00Z")).toBe(0);
  });

  it("counts from opening when an enquiry came in before it, and up to closing when it was answered after", () => {
    expect(between("2026-11-25T06:00:00Z", "2026-11-25T09:45:00Z")).toBe(45 * MINUTE);
    expect(between("2026-11-25T17:00:00Z", "2026-11-25T22:00:00Z")).toBe(HOUR);
  });

  it("spans the night: the evening before closing and the morning after opening", () => {
    // Tuesday 17:30 to Wednesday 9:30: half an hour each side.
    expect(between("2026-11-24T17:30:00Z", "2026-11-25T09:30:00Z")).toBe(HOUR);
  });

  it("spans a weekend: Friday's last hour, Saturday's six, Sunday closed, Monday's first", () => {
    // Friday 27 Nov 17:00 → Monday 30 Nov 10:00.
    expect(between("2026-11-27T17:00:00Z", "2026-11-30T10:00:00Z")).toBe(8 * HOUR);
  });

  it("spans several days and a week's worth", () => {
    // Monday 23 Nov 9:00 → Monday 30 Nov 9:00: five days of 9 hours and Saturday's 6.
    expect(between("2026-11-23T09:00:00Z", "2026-11-30T09:00:00Z")).toBe(51 * HOUR);
  });

  it("reads the hours in UK summer time (BST, UTC+1)", () => {
    // Wednesday 1 Jul 2026: 9:00 in London is 08:00 UTC.
    expect(between("2026-07-01T07:00:00Z", "2026-07-01T09:00:00Z")).toBe(HOUR);
    expect(between("2026-07-01T16:00:00Z", "2026-07-01T18:00:00Z")).toBe(HOUR);
  });

  it("counts a day of the clocks going forward and back by its own offset", () => {
    const everyDay = Array.from({ length: 7 }, () => open("00:30", "03:00"));
    // Sunday 29 Mar 2026 the clocks go from 01:00 GMT to 02:00 BST: 00:30–03:00 local is 1.5 hours.
    expect(between("2026-03-28T23:00:00Z", "2026-03-29T05:00:00Z", everyDay)).toBe(90 * MINUTE);
    // Sunday 25 Oct 2026 the clocks go back from 02:00 BST to 01:00 GMT: 00:30–03:00 local is 3.5 hours.
    expect(between("2026-10-24T22:00:00Z", "2026-10-25T05:00:00Z", everyDay)).toBe(210 * MINUTE);
  });

  it("keeps counting 9:00 – 18:00 across a change of the clocks", () => {
    // Friday 23 Oct (BST) 17:00 London = 16:00Z → Monday 26 Oct (GMT) 10:00 London = 10:00Z: 1 + 6 + 1 hours.
    expect(between("2026-10-23T16:00:00Z", "2026-10-26T10:00:00Z")).toBe(8 * HOUR);
  });

  it("is zero when the answer is not after the enquiry, or every day is closed", () => {
    expect(between("2026-11-25T11:00:00Z", "2026-11-25T10:00:00Z")).toBe(0);
    expect(between("2026-11-25T10:00:00Z", "2026-11-25T10:00:00Z")).toBe(0);
    expect(
      between(
        "2026-11-23T00:00:00Z",
        "2026-12-23T00:00:00Z",
        Array.from({ length: 7 }, () => closed),
      ),
    ).toBe(0);
  });

  it("takes a day whose times are not times as closed", () => {
    const week = [open("nine", "18:00"), ...WEEK.slice(1)];
    // Monday 23 Nov is unreadable; Tuesday counts.
    expect(between("2026-11-23T00:00:00Z", "2026-11-25T00:00:00Z", week)).toBe(9 * HOUR);
  });
});

describe("office time in words", () => {
  it("says minutes and hours as a screen reader reads them", () => {
    expect(officeTimeLabel(20_000)).toBe("under a minute");
    expect(officeTimeLabel(MINUTE)).toBe("1 minute");
    expect(officeTimeLabel(45 * MINUTE)).toBe("45 minutes");
    expect(officeTimeLabel(HOUR)).toBe("1 hour");
    expect(officeTimeLabel(2 * HOUR + 5 * MINUTE)).toBe("2 hours 5 minutes");
    expect(officeTimeLabel(HOUR + MINUTE)).toBe("1 hour 1 minute");
  });
});

describe("the London date of an instant", () => {
  it("is the next day from 23:00 UTC in summer time, the same day in winter", () => {
    expect(londonDate(new Date("2026-07-05T22:59:59.999Z"))).toBe("2026-07-05");
    expect(londonDate(new Date("2026-07-05T23:00:00.000Z"))).toBe("2026-07-06");
    expect(londonDate(new Date("2026-12-31T23:30:00.000Z"))).toBe("2026-12-31");
    expect(londonDate(new Date("2027-01-01T00:00:00.000Z"))).toBe("2027-01-01");
    // The evening before the clocks go back, and the night they do.
    expect(londonDate(new Date("2026-10-24T23:30:00.000Z"))).toBe("2026-10-25");
    expect(londonDate(new Date("2026-10-25T23:30:00.000Z"))).toBe("2026-10-25");
  });
});
