import { headingFields, headingFrom, headingValues, type FieldSpec, type Heading, type Section } from "../fields";

/** The Renovations section (issue 15): its intro and the four cards below the gallery. */
export type SiteRenovations = Heading & {
  /** The four cards below the gallery; their icons stay with their places. */
  cards: Array<{ title: string; description: string }>;
};

export const RENOVATION_CARDS = 4;

export const RENOVATIONS_TEXT = {
  shape: `The renovations section must have ${RENOVATION_CARDS} cards, each with a title and a description.`,
} as const;

const FIELDS: FieldSpec[] = [
  ...headingFields("renovations"),
  ...Array.from({ length: RENOVATION_CARDS }, (_, index): FieldSpec[] => [
    { name: `renovations.cards.${index}.title`, label: `Card ${index + 1}: title`, max: 60, required: true },
    { name: `renovations.cards.${index}.description`, label: `Card ${index + 1}: description`, max: 200, required: true, multiline: true },
  ]).flat(),
];

export const section: Section<"renovations", SiteRenovations> = {
  label: "Renovations",
  defaults: () => ({
    eyebrow: "Our work",
    title: "Before & After: Our Renovation Projects",
    intro: "Real transformations from properties we look after: better homes for tenants and better returns for owners.",
    cards: [
      { title: "Complete Renovations", description: "Whole-property refurbishments planned, priced and project-managed from start to finish." },
      { title: "Interior Design", description: "Practical, durable interiors that appeal to tenants and photograph beautifully." },
      { title: "Maintenance & Repairs", description: "Fast fixes and planned upkeep that protect your property's value between tenancies." },
      { title: "Property Upgrades", description: "New kitchens, bathrooms and energy-efficiency improvements that raise rents and EPC ratings." },
    ],
  }),
  fields: () => FIELDS,
  values: ({ renovations }) => {
    const values = headingValues("renovations", renovations);
    renovations.cards.forEach((card, index) => {
      values[`renovations.cards.${index}.title`] = card.title;
      values[`renovations.cards.${index}.description`] = card.description;
    });
    return values;
  },
  parse: (form) => ({
    renovations: {
      ...headingFrom(form, "renovations"),
      cards: Array.from({ length: RENOVATION_CARDS }, (_, index) => ({
        title: form.get(`renovations.cards.${index}.title`),
        description: form.get(`renovations.cards.${index}.description`),
      })),
    },
  }),
  shapeProblems: ({ renovations }) => (Array.isArray(renovations.cards) && renovations.cards.length === RENOVATION_CARDS ? [] : [RENOVATIONS_TEXT.shape]),
};
