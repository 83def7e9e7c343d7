import type { FieldSpec, Section, SectionForm } from "../fields";
import type { SiteContact } from "./contact";

/**
 * The company's business hours (issue 15) as data: for each day of the week,
 * open or closed and from when to when. The Contact section shows them
 * grouped ("Monday – Friday  9:00 – 18:00"), the structured data lists them
 * as schema.org opening hours. The phone line's hours and the reply time are
 * texts of the Contact section (contact.phoneNote, contact.emailNote), edited
 * beside the hours.
 */

export const WEEK = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export type DayOfWeek = (typeof WEEK)[number];

/** One day: `opens` and `closes` as 24-hour "HH:MM" while open, "" while closed. */
export type DayHours = { open: boolean; opens: string; closes: string };

export type SiteHours = { days: DayHours[] };

/** SPEC §9: Mon-Fri 9:00-18:00, Sat 10:00-16:00, Sun closed. */
function hoursDefaults(): SiteHours {
  const day = (opens: string, closes: string): DayHours => ({ open: true, opens, closes });
  return { days: [...Array.from({ length: 5 }, () => day("09:00", "18:00")), day("10:00", "16:00"), { open: false, opens: "", closes: "" }] };
}

export const HOURS_TEXT = {
  times: (day: DayOfWeek) => `Please give ${day}'s opening and closing times, or untick Open.`,
  time: (label: string) => `${label} must be a time, such as 09:00.`,
  order: (day: DayOfWeek) => `On ${day}, the closing time must be after the opening time.`,
} as const;

/** "9:00", "09:00"; a browser that sends seconds sends ":00" after them. */
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(?::00)?$/;

/** "9:00" or "09:00" → "09:00"; undefined when it is not a time of day. */
function timeOfDay(value: string): string | undefined {
  const match = TIME.exec(value);
  return match ? `${match[1]!.padStart(2, "0")}:${match[2]}` : undefined;
}

const prefix = (index: number) => `hours.${index}`;

const FIELDS: FieldSpec[] = [
  ...WEEK.flatMap((day, index): FieldSpec[] => [
    { name: `${prefix(index)}.opens`, label: `${day}: opens`, max: 8, required: false, type: "time" },
    { name: `${prefix(index)}.closes`, label: `${day}: closes`, max: 8, required: false, type: "time" },
  ]),
  { name: "contact.phoneNote", label: "Phone line hours", max: 100, required: true, hint: "Shown under the phone number." },
  { name: "contact.emailNote", label: "How soon you answer e-mails", max: 100, required: true, hint: "Shown under the e-mail address." },
];

/** The tab "Business hours": the days, and the Contact section's two notes; its own screen is app/admin/WebsiteHours.tsx. */
export const section: Section<"hours", SiteHours, { hours: SiteHours; contact: SiteContact }> = {
  label: "Business hours",
  defaults: hoursDefaults,
  fields: () => FIELDS,
  values: (content) => {
    const values: Record<string, string> = Object.create(null);
    WEEK.forEach((_, index) => {
      const day = content.hours.days[index]!;
      values[`${prefix(index)}.open`] = day.open ? "on" : "";
      values[`${prefix(index)}.opens`] = day.opens;
      values[`${prefix(index)}.closes`] = day.closes;
    });
    values["contact.phoneNote"] = content.contact.phoneNote;
    values["contact.emailNote"] = content.contact.emailNote;
    return values;
  },
  parse: (form, current) => {
    const { eyebrow, title, intro } = current.contact;
    return { hours: parseHours(form), contact: { eyebrow, title, intro, phoneNote: form.get("contact.phoneNote"), emailNote: form.get("contact.emailNote") } };
  },
  shapeProblems: (content) => hoursShapeProblems(content.hours),
};

/** The week from the form. A closed day keeps no times; an open one needs both, the closing after the opening. */
function parseHours({ get, raw, errors, values }: SectionForm): SiteHours {
  const days = WEEK.map((day, index): DayHours => {
    const open = raw(`${prefix(index)}.open`) !== "";
    values[`${prefix(index)}.open`] = open ? "on" : "";
    if (!open) return { open: false, opens: "", closes: "" };
    const [opensName, closesName] = [`${prefix(index)}.opens`, `${prefix(index)}.closes`];
    if (errors[opensName] || errors[closesName]) return { open, opens: "", closes: "" };
    const [opensText, closesText] = [get(opensName), get(closesName)];
    if (opensText === "" || closesText === "") {
      errors[opensText === "" ? opensName : closesName] = HOURS_TEXT.times(day);
      return { open, opens: "", closes: "" };
    }
    const [opens, closes] = [timeOfDay(opensText), timeOfDay(closesText)];
    if (opens === undefined) errors[opensName] = HOURS_TEXT.time(`${day}: opens`);
    if (closes === undefined) errors[closesName] = HOURS_TEXT.time(`${day}: closes`);
    if (opens !== undefined && closes !== undefined && closes <= opens) errors[closesName] = HOURS_TEXT.order(day);
    return { open, opens: opens ?? "", closes: closes ?? "" };
  });
  return { days };
}

/** What a stored or imported week must look like beyond its fields: seven days. */
function hoursShapeProblems(hours: SiteHours): string[] {
  return Array.isArray(hours.days) &&
    hours.days.length === WEEK.length &&
    hours.days.every((day) => typeof day === "object" && day !== null && typeof day.open === "boolean")
    ? []
    : ["The business hours must list the seven days of the week, each open or closed."];
}

/** "09:00" → "9:00", as the page writes times. */
function shownTime(time: string): string {
  return time.replace(/^0(\d)/, "$1");
}

/** The week as the Contact section lists it: days in a row with the same hours are one line ("Monday – Friday"). */
export function hoursRows(hours: SiteHours): Array<{ days: string; hours: string }> {
  const rows: Array<{ first: number; last: number; hours: string }> = [];
  hours.days.forEach((day, index) => {
    const shown = day.open ? `${shownTime(day.opens)} – ${shownTime(day.closes)}` : "Closed";
    const previous = rows.at(-1);
    if (previous && previous.hours === shown) previous.last = index;
    else rows.push({ first: index, last: index, hours: shown });
  });
  return rows.map((row) => ({ days: row.first === row.last ? WEEK[row.first]! : `${WEEK[row.first]} – ${WEEK[row.last]}`, hours: row.hours }));
}

/** The open days grouped by their hours, in the week's order, for schema.org's OpeningHoursSpecification. */
export function openingHours(hours: SiteHours): Array<{ days: DayOfWeek[]; opens: string; closes: string }> {
  const groups: Array<{ days: DayOfWeek[]; opens: string; closes: string }> = [];
  hours.days.forEach((day, index) => {
    if (!day.open) return;
    const same = groups.find((group) => group.opens === day.opens && group.closes === day.closes);
    if (same) same.days.push(WEEK[index]!);
    else groups.push({ days: [WEEK[index]!], opens: day.opens, closes: day.closes });
  });
  return groups;
}
