import { describe, expect, it } from "vitest";
import { contentProblems, parseSection, sectionValues, siteDefaults, type SiteContent } from "../content";
import { MAX_SERVICES, SERVICES_TEXT, parseMove, servicePrefix } from "./services";

const DEFAULTS = siteDefaults();

describe("the Services section", () => {
  it("adds, removes and moves services in one save", () => {
    const values = {
      ...sectionValues("services", DEFAULTS),
      [`${servicePrefix(0, 0)}.remove`]: "on",
      [`${servicePrefix(0, 3)}.title`]: "Inventory & Check-in",
      [`${servicePrefix(0, 3)}.description`]: "Photographic inventories at the start and end of every tenancy.",
      [`${servicePrefix(0, 3)}.icon`]: "eye",
      move: "1.2.up",
    };
    const parsed = parseSection("services", values, DEFAULTS);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const titles = parsed.content.services.groups.map((group) => group.services.map((service) => service.title));
    expect(titles).toEqual([
      ["Property Maintenance & Repairs", "Tenant-Landlord Relations", "Inventory & Check-in"],
      ["Legal Compliance & Documentation", "24/7 Emergency Response", "Property Insurance Coordination"],
    ]);
    expect(parsed.content.services.groups[0]!.services[2]!.icon).toBe("eye");
    // The existing services keep their icons.
    expect(parsed.content.services.groups[1]!.services.map((service) => service.icon)).toEqual(["scales", "bell", "shield"]);
  });

  it("refuses a half-filled service, an icon not in the list and too many services", () => {
    const full: SiteContent = {
      ...DEFAULTS,
      services: {
        ...DEFAULTS.services,
        groups: [
          DEFAULTS.services.groups[0]!,
          {
            ...DEFAULTS.services.groups[1]!,
            services: Array.from({ length: MAX_SERVICES }, (_, index) => ({ title: `Service ${index}`, description: "Done well.", icon: "bell" as const })),
          },
        ],
      },
    };
    const parsed = parseSection(
      "services",
      {
        ...sectionValues("services", full),
        [`${servicePrefix(0, 1)}.description`]: "",
        [`${servicePrefix(0, 2)}.icon`]: "script",
        [`${servicePrefix(0, 3)}.title`]: "Only a title",
        [`${servicePrefix(0, 3)}.icon`]: "home",
      },
      full,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual({
      [`${servicePrefix(0, 1)}.title`]: SERVICES_TEXT.incomplete,
      [`${servicePrefix(0, 2)}.icon`]: SERVICES_TEXT.icon,
      [`${servicePrefix(0, 3)}.title`]: SERVICES_TEXT.incomplete,
    });
    // A full group has no row to add one more.
    expect(Object.keys(sectionValues("services", full)).some((name) => name.startsWith(servicePrefix(1, MAX_SERVICES)))).toBe(false);
    const tooMany = {
      ...full,
      services: {
        ...full.services,
        groups: [
          full.services.groups[0]!,
          { ...full.services.groups[1]!, services: [...full.services.groups[1]!.services, full.services.groups[1]!.services[0]!] },
        ],
      },
    };
    expect(contentProblems(tooMany)).toContain(SERVICES_TEXT.tooMany(MAX_SERVICES));
  });

  it("reads a Move button's value, and nothing else as a move", () => {
    expect(parseMove("0.2.up")).toEqual({ group: 0, index: 2, by: -1 });
    expect(parseMove("1.10.down")).toEqual({ group: 1, index: 10, by: 1 });
    for (const value of ["", "0.2", "0.2.left", "12.0.up", "0.123.up"]) expect(parseMove(value)).toBeUndefined();
  });

  it("finds stored services that are not in two groups", () => {
    expect(contentProblems({ ...DEFAULTS, services: { ...DEFAULTS.services, groups: [DEFAULTS.services.groups[0]] } })).toEqual([SERVICES_TEXT.shape]);
  });
});
