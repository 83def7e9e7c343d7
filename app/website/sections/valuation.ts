import { textValues, type FieldSpec, type Section } from "../fields";

/** The valuation page's texts (/valuation, decision 057), and the link to it from the hero and the pricing section. */
export type SiteValuation = { title: string; intro: string; link: string };

const FIELDS: FieldSpec[] = [
  { name: "valuation.title", label: "Page title", max: 80, required: true },
  { name: "valuation.intro", label: "Introduction", max: 400, required: true, multiline: true },
  {
    name: "valuation.link",
    label: "Link text",
    max: 60,
    required: true,
    hint: "The link to the valuation page from the top of the home page and from the pricing section.",
  },
];

export const section: Section<"valuation", SiteValuation> = {
  label: "Valuation",
  defaults: () => ({
    title: "Request a free rental valuation",
    intro:
      "Tell us about the property and when you would like it let. We will call you at the time that suits you to arrange a free, no-obligation valuation visit.",
    link: "Request a free rental valuation",
  }),
  fields: () => FIELDS,
  values: (content) => textValues("valuation", content.valuation),
  parse: ({ get }) => ({ valuation: { title: get("valuation.title"), intro: get("valuation.intro"), link: get("valuation.link") } }),
};
