import { describe, expect, it } from "vitest";
import type { OpeningDay } from "~/company/office-hours";
import { figuresCsv, median, monthlyFigures, periodFigures, weeksOf, within, type FigureRow } from "./figures";

const open = (opens: string, closes: string): OpeningDay => ({ open: true, opens, closes });
const WEEKDAYS: OpeningDay[] = [
  ...Array.from({ length: 5 }, () => open("09:00", "18:00")),
  ...Array.from({ length: 2 }, () => ({ open: false, opens: "", closes: "" })),
];
const row = (createdAt: string, extra: Partial<FigureRow> = {}): FigureRow => ({ createdAt, kind: "contact", status: "new", firstResponseAt: null, ...extra });

describe("the weeks of the figures", () => {
  it("run Monday 00:00 to Monday 00:00 in UK time, in winter (GMT)", () => {
    const { thisWeek, lastWeek } = weeksOf(new Date("2026-11-27T06:00:00.000Z"));
    expect(thisWeek.start.toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(thisWeek.end.toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(lastWeek.start.toISOString()).toBe("2026-11-16T00:00:00.000Z");
  });

  it("and in summer (BST), where Monday begins at 23:00 UTC on Sunday", () => {
    // Sunday 5 July 23:30 BST is still last week's; Monday 6 July 00:30 BST this week's.
    const { thisWeek } = weeksOf(new Date("2026-07-05T23:30:00.000Z"));
    expect(thisWeek.start.toISOString()).toBe("2026-07-05T23:00:00.000Z");
    const earlier = weeksOf(new Date("2026-07-05T22:30:00.000Z"));
    expect(earlier.thisWeek.start.toISOString()).toBe("2026-06-28T23:00:00.000Z");
  });

  it("across the clocks going back: a week of 169 hours", () => {
    // Monday 26 Oct 2026 (GMT); the week before began Monday 19 Oct (BST).
    const { thisWeek, lastWeek } = weeksOf(new Date("2026-10-26T12:00:00.000Z"));
    expect(lastWeek.start.toISOString()).toBe("2026-10-18T23:00:00.000Z");
    expect(thisWeek.start.getTime() - lastWeek.start.getTime()).toBe(169 * 3_600_000);
    expect(within([row("2026-10-25T23:59:00.000Z"), row("2026-10-26T00:00:00.000Z")], thisWeek).map((r) => r.createdAt)).toEqual(["2026-10-26T00:00:00.000Z"]);
  });
});

describe("the figures of a period", () => {
  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([])).toBeUndefined();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 10])).toBe(3.5);
  });

  it("counts by status and answers only the enquiries answered", () => {
    const figures = periodFigures(
      [
        row("2026-11-23T09:00:00.000Z", { status: "instructed", firstResponseAt: "2026-11-23T10:00:00.000Z" }),
        row("2026-11-23T09:00:00.000Z", { status: "contacted", firstResponseAt: "2026-11-23T09:20:00.000Z" }),
        row("2026-11-23T09:00:00.000Z"),
      ],
      WEEKDAYS,
    );
    expect(figures).toMatchObject({
      total: 3,
      byKind: { contact: 3 },
      byStatus: { new: 1, contacted: 1, instructed: 1 },
      answered: 2,
      medianResponseMs: 40 * 60_000,
    });
  });
});

describe("the month-by-month CSV", () => {
  it("lists every month from the first enquiry's to now's, quoted, with a BOM and CRLF, blank where there is nothing to say", () => {
    const months = monthlyFigures(
      [row("2026-09-30T23:30:00.000Z", { status: "instructed", firstResponseAt: "2026-10-01T08:30:00.000Z" }), row("2026-11-02T10:00:00.000Z")],
      WEEKDAYS,
      new Date("2026-11-27T06:00:00.000Z"),
    );
    const csv = figuresCsv(months);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const lines = csv.slice(1).split("\r\n");
    // 30 Sep 23:30 UTC is 1 Oct 00:30 BST: October's; answered at 9:30 BST, 30 office minutes after opening.
    expect(lines.slice(1)).toEqual(['"2026-10","1","1","0","0","0","0","1","0","100","1","30"', '"2026-11","1","1","0","1","0","0","0","0","0","0",""', ""]);
    expect(figuresCsv([])).toBe(`\uFEFF${lines[0]}\r\n`);
  });
});
