import { headingFields, textValues, type FieldSpec, type Section } from "../fields";

export type SiteAbout = {
  eyebrow: string;
  title: string;
  /** Paragraphs separated by a blank line; {company} stands for the company's name. */
  text: string;
  badges: string[];
  quote: string;
  captions: Array<{ title: string; subtitle: string }>;
};

const BADGES = 4;
const CAPTIONS = 2;

const FIELDS: FieldSpec[] = [
  ...headingFields("about", { intro: false }),
  {
    name: "about.text",
    label: "Text",
    max: 1500,
    required: true,
    multiline: true,
    hint: "A blank line starts a new paragraph. {company} is replaced by the company's name.",
  },
  ...Array.from({ length: BADGES }, (_, index): FieldSpec => ({ name: `about.badges.${index}`, label: `Badge ${index + 1}`, max: 40, required: true })),
  { name: "about.quote", label: "Quote in the blue panel", max: 140, required: true },
  ...Array.from({ length: CAPTIONS }, (_, index): FieldSpec[] => [
    { name: `about.captions.${index}.title`, label: `Caption ${index + 1}: title`, max: 40, required: true },
    { name: `about.captions.${index}.subtitle`, label: `Caption ${index + 1}: line below`, max: 60, required: true },
  ]).flat(),
];

export const section: Section<"about", SiteAbout> = {
  label: "About",
  defaults: () => ({
    eyebrow: "Who we are",
    title: "Property Management You Can Trust",
    text: [
      "{company} looks after homes for landlords, property investors and tenants. We believe good property management is simple: honest prices, quick answers and well-kept homes.",
      "Our local team handles the day-to-day so you don't have to, from rent and repairs to safety certificates and renovations, and we keep you informed at every step.",
    ].join("\n\n"),
    badges: ["Many Satisfied Clients", "Proven Track Record", "24/7 Support Available", "High Client Satisfaction"],
    quote: "We look after every property as if it were our own.",
    captions: [
      { title: "Certified Agents", subtitle: "Fully Licensed & Insured" },
      { title: "Market Leaders", subtitle: "Top Performance Rating" },
    ],
  }),
  fields: () => FIELDS,
  values: (content) => {
    const { badges, captions, ...texts } = content.about;
    const values = textValues("about", texts);
    badges.forEach((badge, index) => {
      values[`about.badges.${index}`] = badge;
    });
    captions.forEach((caption, index) => {
      values[`about.captions.${index}.title`] = caption.title;
      values[`about.captions.${index}.subtitle`] = caption.subtitle;
    });
    return values;
  },
  parse: ({ get }) => ({
    about: {
      eyebrow: get("about.eyebrow"),
      title: get("about.title"),
      text: get("about.text"),
      badges: Array.from({ length: BADGES }, (_, index) => get(`about.badges.${index}`)),
      quote: get("about.quote"),
      captions: Array.from({ length: CAPTIONS }, (_, index) => ({
        title: get(`about.captions.${index}.title`),
        subtitle: get(`about.captions.${index}.subtitle`),
      })),
    },
  }),
};
