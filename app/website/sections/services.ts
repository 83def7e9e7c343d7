import { headingFields, headingFrom, headingValues, type FieldSpec, type Heading, type Section, type SectionForm } from "../fields";

/**
 * The Services section (issue 15): two groups of services the company adds,
 * removes and reorders. Each service shows an icon chosen from the site's own
 * set, by name: the landing page draws it, so nothing uploaded or typed
 * becomes markup.
 */

/** The icons a service may show, with the words the editor's list uses (names of app/components/Icon.tsx). */
export const SERVICE_ICONS = {
  pound: "Pound sign",
  wrench: "Spanner",
  users: "People",
  scales: "Scales",
  shield: "Shield",
  bell: "Bell",
  home: "House",
  sparkles: "Sparkles",
  palette: "Paint palette",
  badge: "Badge",
  trophy: "Trophy",
  clock: "Clock",
  phone: "Phone",
  envelope: "Envelope",
  mapPin: "Map pin",
  lock: "Padlock",
  checkCircle: "Tick",
  eye: "Eye",
} as const;
export type ServiceIcon = keyof typeof SERVICE_ICONS;
export const DEFAULT_SERVICE_ICON: ServiceIcon = "checkCircle";

export type SiteService = { title: string; description: string; icon: ServiceIcon };

export type SiteServices = Heading & {
  /** Two groups: the first (core services) shown highlighted. */
  groups: Array<{ title: string; services: SiteService[] }>;
};

export const SERVICE_GROUPS = 2;
export const MAX_SERVICES = 9;

function servicesDefaults(): SiteServices {
  return {
    eyebrow: "What we do",
    title: "Complete Property Management Solutions",
    intro: "Everything a rental property needs, from the first viewing to the final inventory, handled by one team you can reach.",
    groups: [
      {
        title: "Core Management Services",
        services: [
          {
            title: "Rent Collection & Financial Management",
            description: "Rent collected on time, arrears chased promptly and clear monthly statements, so you always know where your money is.",
            icon: "pound",
          },
          {
            title: "Property Maintenance & Repairs",
            description:
              "Vetted local tradespeople, regular inspections and repairs handled from first report to sign-off, keeping your property in good order.",
            icon: "wrench",
          },
          {
            title: "Tenant-Landlord Relations",
            description: "Careful tenant referencing, smooth move-ins and a friendly single point of contact that keeps good tenants happy and staying longer.",
            icon: "users",
          },
        ],
      },
      {
        title: "Additional Services",
        services: [
          {
            title: "Legal Compliance & Documentation",
            description: "Tenancy agreements, deposit protection, gas and electrical safety certificates and Right to Rent checks, all kept current.",
            icon: "scales",
          },
          {
            title: "Property Insurance Coordination",
            description: "The right landlord cover arranged and renewed, and claims handled for you when something goes wrong.",
            icon: "shield",
          },
          {
            title: "24/7 Emergency Response",
            description: "Burst pipe at midnight? Our emergency line is answered around the clock and help is sent straight away.",
            icon: "bell",
          },
        ],
      },
    ],
  };
}

export const SERVICES_TEXT = {
  incomplete: "Please give the service a title and a description, or tick Remove.",
  icon: "Please choose an icon from the list.",
  tooMany: (max: number) => `At most ${max} services in each group.`,
  shape: `The services must be in ${SERVICE_GROUPS} groups, each a list of services with a title, a description and an icon.`,
} as const;

/** A service's form fields are named `services.groups.<group>.services.<index>.<part>`. */
export const servicePrefix = (group: number, index: number) => `services.groups.${group}.services.${index}`;

/** How the editor names a service: "Group 1, service 2", and the row that adds one. */
export function serviceLabel(group: number, index: number, adding: boolean): string {
  return adding ? `New service in group ${group + 1}` : `Group ${group + 1}, service ${index + 1}`;
}

/** A group has a row to add a service while it has room for one. */
function rowsOf(services: SiteServices, group: number): number {
  const count = services.groups[group]?.services.length ?? 0;
  return count < MAX_SERVICES ? count + 1 : count;
}

/** One service row's text fields (the icon is a list, the row's buttons are not fields). */
export function serviceRowFields(services: SiteServices, group: number, index: number): FieldSpec[] {
  const adding = index >= (services.groups[group]?.services.length ?? 0);
  const which = serviceLabel(group, index, adding);
  const prefix = servicePrefix(group, index);
  return [
    { name: `${prefix}.title`, label: `${which}: title`, max: 80, required: false },
    { name: `${prefix}.description`, label: `${which}: description`, max: 300, required: false, multiline: true },
  ];
}

export const servicesHeaderFields = (): FieldSpec[] => headingFields("services");

export function groupTitleField(group: number): FieldSpec {
  return {
    name: `services.groups.${group}.title`,
    label: `Group ${group + 1} title`,
    max: 60,
    required: true,
    ...(group === 0 ? { hint: "This group's services are shown highlighted." } : {}),
  };
}

function servicesFields(services: SiteServices): FieldSpec[] {
  return [
    ...servicesHeaderFields(),
    ...Array.from({ length: SERVICE_GROUPS }, (_, group) => [
      groupTitleField(group),
      ...Array.from({ length: rowsOf(services, group) }, (_, index) => serviceRowFields(services, group, index)).flat(),
    ]).flat(),
  ];
}

function servicesValues(services: SiteServices): Record<string, string> {
  const values = headingValues("services", services);
  services.groups.forEach((group, groupIndex) => {
    values[`services.groups.${groupIndex}.title`] = group.title;
    group.services.forEach((service, index) => {
      const prefix = servicePrefix(groupIndex, index);
      values[`${prefix}.title`] = service.title;
      values[`${prefix}.description`] = service.description;
      values[`${prefix}.icon`] = service.icon;
    });
  });
  return values;
}

const isIcon = (value: string): value is ServiceIcon => Object.hasOwn(SERVICE_ICONS, value);

/** "0.2.up": move the third service of the first group up one place (a Move button of the form). */
export function parseMove(value: string): { group: number; index: number; by: -1 | 1 } | undefined {
  const match = /^(\d)\.(\d{1,2})\.(up|down)$/.exec(value);
  return match ? { group: Number(match[1]), index: Number(match[2]), by: match[3] === "up" ? -1 : 1 } : undefined;
}

/**
 * The services from the form: each group's rows in order, less those ticked
 * Remove, with the one a Move button asked for swapped with its neighbour,
 * and the new row's service at the end when something was typed in it.
 */
function parseServices(form: SectionForm, current: SiteServices): SiteServices {
  const { get, raw, errors, values } = form;
  const move = parseMove(raw("move"));
  const groups = Array.from({ length: SERVICE_GROUPS }, (_, group) => {
    const kept: Array<{ index: number; service: SiteService }> = [];
    for (let index = 0; index < rowsOf(current, group); index++) {
      const prefix = servicePrefix(group, index);
      const existing = index < (current.groups[group]?.services.length ?? 0);
      const icon = raw(`${prefix}.icon`);
      values[`${prefix}.icon`] = icon;
      if (existing && raw(`${prefix}.remove`) !== "") {
        values[`${prefix}.remove`] = "on";
        continue;
      }
      const [title, description] = [get(`${prefix}.title`), get(`${prefix}.description`)];
      // The row that adds a service adds one only when something is typed in it.
      if (!existing && title === "" && description === "") continue;
      if ((title === "" || description === "") && !errors[`${prefix}.title`] && !errors[`${prefix}.description`])
        errors[`${prefix}.title`] = SERVICES_TEXT.incomplete;
      if (!isIcon(icon)) errors[`${prefix}.icon`] = SERVICES_TEXT.icon;
      kept.push({ index, service: { title, description, icon: isIcon(icon) ? icon : DEFAULT_SERVICE_ICON } });
    }
    if (move?.group === group) {
      const from = kept.findIndex((row) => row.index === move.index);
      const to = from + move.by;
      if (from !== -1 && to >= 0 && to < kept.length) [kept[from], kept[to]] = [kept[to]!, kept[from]!];
    }
    if (kept.length > MAX_SERVICES) errors[`services.groups.${group}.title`] = SERVICES_TEXT.tooMany(MAX_SERVICES);
    return { title: get(`services.groups.${group}.title`), services: kept.map((row) => row.service) };
  });
  return { ...headingFrom(form, "services"), groups };
}

/** What stored or imported services must look like beyond their fields. */
function servicesShapeProblems(services: SiteServices): string[] {
  const sound =
    Array.isArray(services.groups) &&
    services.groups.length === SERVICE_GROUPS &&
    services.groups.every((group) => typeof group === "object" && group !== null && Array.isArray(group.services));
  return sound ? [] : [SERVICES_TEXT.shape];
}

/** The tab has its own screen (app/admin/WebsiteServices.tsx): each service's icon list, Remove and Move buttons. */
export const section: Section<"services", SiteServices> = {
  label: "Services",
  defaults: servicesDefaults,
  fields: (content) => servicesFields(content.services),
  values: (content) => servicesValues(content.services),
  parse: (form, current) => ({ services: parseServices(form, current.services) }),
  shapeProblems: (content) => servicesShapeProblems(content.services),
};
