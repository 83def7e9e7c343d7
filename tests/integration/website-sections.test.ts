/**
 * The Services, Renovations and Business hours sections of the Website tab
 * (issue 15): a fresh site shows the specification's texts; services are
 * edited, added, removed and reordered; bad input is refused field by field
 * and changes nothing; publishing shows them on / and in the structured
 * data; export-site and import-site carry them, and a file from before them
 * still imports with the defaults. On SQLite and PostgreSQL.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { WEBSITE_TEXT, sectionValues, siteDefaults } from "~/website/content";
import { HOURS_TEXT } from "~/website/sections/hours";
import { SERVICES_TEXT, servicePrefix } from "~/website/sections/services";
import { readDraft, readLive } from "~/website/website.server";
import { runAdmin } from "../support/admin-cli";
import { backends } from "../support/backends";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

const DEFAULTS = siteDefaults();

/** The texts of the page a visitor reads, as they appear in the HTML (React escapes & and ' in text). */
const html = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;");

function structuredData(page: string): { openingHoursSpecification?: Array<{ dayOfWeek: string[]; opens: string; closes: string }> } {
  return JSON.parse(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(page)![1]!);
}

beforeAll(() => assertBuilt());

describe.each(backends)("services, renovations and business hours on $name", (backend) => {
  const site = useSite(backend);
  const page = (path: string, headers: Record<string, string> = {}) => site.get(path, headers);
  const post = (fields: Record<string, string>, url = "/admin/website") => site.postForm(url, fields);
  const draft = () => readDraft(site.db, DEFAULTS);
  const save = async (section: "services" | "renovations" | "hours", change: Record<string, string>) => {
    const current = await draft();
    // Posted where the tab's form is, so the refused form is drawn again in the answer.
    return post(
      { intent: "save-section", section, revision: String(current.revision), ...sectionValues(section, current.content), ...change },
      `/admin/website?section=${section}`,
    );
  };
  const publish = async () => expect((await post({ intent: "publish", revision: String((await draft()).revision) })).status).toBe(302);

  it("a fresh site shows the specification's services, renovation cards and business hours", async () => {
    const home = (await page("/")).text;
    for (const text of [
      "Complete Property Management Solutions",
      "Core Management Services",
      "Rent Collection & Financial Management",
      "Property Maintenance & Repairs",
      "Tenant-Landlord Relations",
      "Additional Services",
      "Legal Compliance & Documentation",
      "Property Insurance Coordination",
      "24/7 Emergency Response",
      "Complete Renovations",
      "Interior Design",
      "Maintenance & Repairs",
      "Property Upgrades",
      "Phone line open 9am – 6pm, Monday to Friday",
      "We answer every e-mail within 24 hours",
    ]) {
      expect(home).toContain(html(text));
    }
    expect(home).toMatch(/Monday – Friday<\/dt><dd[^>]*>9:00 – 18:00<\/dd>.*Saturday<\/dt><dd[^>]*>10:00 – 16:00<\/dd>.*Sunday<\/dt><dd[^>]*>Closed<\/dd>/s);
    expect(structuredData(home).openingHoursSpecification).toEqual([
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"].map((day) => `https://schema.org/${day}`),
        opens: "09:00",
        closes: "18:00",
      },
      { "@type": "OpeningHoursSpecification", dayOfWeek: ["https://schema.org/Saturday"], opens: "10:00", closes: "16:00" },
    ]);
  });

  it("saves the three sections to the draft from the Website tab's forms: the preview shows them, / does not", async () => {
    const services = await save("services", {
      "services.title": "Everything Your Property Needs",
      [`${servicePrefix(0, 1)}.title`]: "Repairs Within 48 Hours",
      [`${servicePrefix(1, 3)}.title`]: "Energy Performance Advice",
      [`${servicePrefix(1, 3)}.description`]: "What to improve before the EPC rules change.",
      [`${servicePrefix(1, 3)}.icon`]: "sparkles",
      [`${servicePrefix(1, 1)}.remove`]: "on",
      move: "0.2.up",
    });
    expect(services.status).toBe(302);
    expect(services.headers.location).toBe("/admin/website?section=services&notice=saved&moved=0.1.up");
    expect(await save("renovations", { "renovations.intro": "Homes we have turned around.", "renovations.cards.1.title": "Interiors That Let" })).toMatchObject(
      { status: 302 },
    );
    expect(
      await save("hours", {
        "hours.5.open": "",
        "hours.0.closes": "17:30",
        "contact.phoneNote": "Phone line open 8am – 8pm, every weekday",
        "contact.emailNote": "We answer within one working day",
      }),
    ).toMatchObject({ status: 302 });

    const content = (await draft()).content;
    expect(content.services.title).toBe("Everything Your Property Needs");
    expect(content.services.groups.map((group) => group.services.map((service) => service.title))).toEqual([
      ["Rent Collection & Financial Management", "Tenant-Landlord Relations", "Repairs Within 48 Hours"],
      ["Legal Compliance & Documentation", "24/7 Emergency Response", "Energy Performance Advice"],
    ]);
    expect(content.renovations.cards[1]).toEqual({ title: "Interiors That Let", description: DEFAULTS.renovations.cards[1]!.description });
    expect(content.hours.days[0]).toEqual({ open: true, opens: "09:00", closes: "17:30" });
    expect(content.hours.days[5]!.open).toBe(false);
    expect(content.contact).toMatchObject({
      ...DEFAULTS.contact,
      phoneNote: "Phone line open 8am – 8pm, every weekday",
      emailNote: "We answer within one working day",
    });

    const preview = (await page("/admin/website/preview", { cookie: site.cookie })).text;
    for (const text of [
      "Everything Your Property Needs",
      "Energy Performance Advice",
      "Homes we have turned around.",
      "Interiors That Let",
      "Phone line open 8am – 8pm, every weekday",
    ])
      expect(preview).toContain(text);
    expect(preview).toMatch(
      /Monday<\/dt><dd[^>]*>9:00 – 17:30<\/dd>.*Tuesday – Friday<\/dt><dd[^>]*>9:00 – 18:00<\/dd>.*Saturday – Sunday<\/dt><dd[^>]*>Closed<\/dd>/s,
    );
    const home = (await page("/")).text;
    for (const text of ["Everything Your Property Needs", "Energy Performance Advice", "Interiors That Let"]) expect(home).not.toContain(text);
    expect(home).toContain(html("Property Insurance Coordination"));
  });

  it("refuses bad input with a message for each field, and changes nothing", async () => {
    const before = await draft();
    const services = await save("services", {
      "services.title": "",
      [`${servicePrefix(0, 0)}.description`]: "",
      [`${servicePrefix(0, 1)}.icon`]: "evil",
      [`${servicePrefix(1, 3)}.title`]: "x".repeat(81),
    });
    expect(services.status).toBe(400);
    for (const message of [
      WEBSITE_TEXT.fixErrors,
      WEBSITE_TEXT.fieldRequired("Section title"),
      SERVICES_TEXT.incomplete,
      SERVICES_TEXT.icon,
      WEBSITE_TEXT.tooLong("New service in group 2: title", 80),
    ]) {
      expect(services.text).toContain(html(message));
    }
    const renovations = await save("renovations", { "renovations.cards.3.description": "" });
    expect(renovations.status).toBe(400);
    expect(renovations.text).toContain(WEBSITE_TEXT.fieldRequired("Card 4: description"));
    const hours = await save("hours", { "hours.1.opens": "18:00", "hours.1.closes": "08:00", "hours.6.open": "on", "contact.phoneNote": "" });
    expect(hours.status).toBe(400);
    for (const message of [HOURS_TEXT.order("Tuesday"), HOURS_TEXT.times("Sunday"), WEBSITE_TEXT.fieldRequired("Phone line hours")])
      expect(hours.text).toContain(html(message));
    expect(await draft()).toEqual(before);
  });

  it("publishes them: / shows the services in their order, the cards and the hours, and the structured data has the new hours", async () => {
    await publish();
    const home = (await page("/")).text;
    const order = [
      "Rent Collection & Financial Management",
      "Tenant-Landlord Relations",
      "Repairs Within 48 Hours",
      "Legal Compliance & Documentation",
      "24/7 Emergency Response",
      "Energy Performance Advice",
    ].map((title) => home.indexOf(html(title)));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(home).not.toContain("Property Insurance Coordination");
    for (const text of ["Homes we have turned around.", "Interiors That Let", "Phone line open 8am – 8pm, every weekday", "We answer within one working day"])
      expect(home).toContain(text);
    expect(home).toMatch(/Saturday – Sunday<\/dt><dd[^>]*>Closed<\/dd>/);
    expect(structuredData(home).openingHoursSpecification).toEqual([
      { "@type": "OpeningHoursSpecification", dayOfWeek: ["https://schema.org/Monday"], opens: "09:00", closes: "17:30" },
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Tuesday", "Wednesday", "Thursday", "Friday"].map((day) => `https://schema.org/${day}`),
        opens: "09:00",
        closes: "18:00",
      },
    ]);
  });

  it("shows script and markup typed into the new fields as text, never runs it", async () => {
    const attack = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    expect((await save("services", { [`${servicePrefix(0, 0)}.title`]: attack, [`${servicePrefix(1, 0)}.description`]: attack })).status).toBe(302);
    expect((await save("renovations", { "renovations.cards.0.description": attack })).status).toBe(302);
    expect((await save("hours", { "contact.emailNote": attack })).status).toBe(302);
    await publish();
    for (const response of [
      await page("/"),
      await page("/admin/website?section=services", { cookie: site.cookie }),
      await page("/admin/website/preview", { cookie: site.cookie }),
    ]) {
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(attack);
      expect(response.text).not.toContain("<img src=x");
      expect(response.text).toContain("&lt;script&gt;");
    }
  });

  it("export-site and import-site carry the three sections; a file from before them imports with their defaults; a bad one changes nothing", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "site-sections-"));
    const other = await backend.createDatabase({ migrated: true });
    try {
      const file = path.join(dir, "site.json");
      expect((await runAdmin(site.database.env, ["export-site", file])).code).toBe(0);
      const exported = JSON.parse(await readFile(file, "utf8"));
      const otherDb = other.open();

      const broken = path.join(dir, "broken.json");
      const badServices = {
        ...exported.live.services,
        groups: [{ title: "One", services: [{ title: "A", description: "B", icon: "javascript:alert(1)" }] }, exported.live.services.groups[1]],
      };
      for (const live of [
        { ...exported.live, services: badServices },
        { ...exported.live, hours: { days: exported.live.hours.days.slice(0, 6) } },
      ]) {
        await writeFile(broken, JSON.stringify({ ...exported, live }));
        const refused = await runAdmin(other.env, ["import-site", broken, "--publish"]);
        expect(refused.code).toBe(1);
        expect((await readLive(otherDb.db, DEFAULTS)).version).toBeUndefined();
        expect((await readDraft(otherDb.db, DEFAULTS)).revision).toBe(0);
      }

      expect((await runAdmin(other.env, ["import-site", file, "--publish"])).code).toBe(0);
      expect((await readLive(otherDb.db, DEFAULTS)).content).toEqual((await readLive(site.db, DEFAULTS)).content);

      // A file exported before these sections existed: they come out as the defaults, the rest as written.
      const old = structuredClone(exported);
      for (const section of ["services", "renovations", "hours"]) delete old.live[section];
      const { phoneNote: _phone, emailNote: _email, ...oldContact } = old.live.contact;
      old.live.contact = oldContact;
      const oldFile = path.join(dir, "old.json");
      await writeFile(oldFile, JSON.stringify(old));
      const imported = await runAdmin(other.env, ["import-site", oldFile, "--publish"]);
      expect(imported.code).toBe(0);
      const live = (await readLive(otherDb.db, DEFAULTS)).content;
      expect({ services: live.services, renovations: live.renovations, hours: live.hours }).toEqual({
        services: DEFAULTS.services,
        renovations: DEFAULTS.renovations,
        hours: DEFAULTS.hours,
      });
      expect(live.contact).toEqual(DEFAULTS.contact);
      expect(live.company).toEqual(exported.live.company);
    } finally {
      await other.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
    // Five runs of the admin command, each a Node start: slow when the machine is busy.
  }, 120_000);
});
