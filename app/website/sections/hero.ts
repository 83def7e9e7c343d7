import type { ResponsiveImage } from "~/images/image-files";
import { textValues, type FieldSpec, type Section } from "../fields";

export type SiteHero = {
  /** An uploaded image's URL, or "" for the built-in illustration (decision 030). */
  image: string;
  /** The uploaded image's alt text (required with one). */
  imageAlt: string;
  eyebrow: string;
  headline: string;
  blurb: string;
  promiseTitle: string;
  promiseTagline: string;
  promises: string[];
};

/** An uploaded hero image with its copies, for `<picture>`. */
export type HeroPicture = ResponsiveImage & { src: string; alt: string };

/** What the hero shows when no image is uploaded (public/hero-property.svg, decision 004). */
export const DEFAULT_HERO_IMAGE = {
  src: "/hero-property.svg",
  alt: "Illustration of a Victorian terraced town house with a bay window, a black front door and a small front garden",
  width: 640,
  height: 520,
} as const;

export const MAX_PROMISES = 3;

export const HERO_TEXT = {
  heroAlt: "Please describe the hero image for people who cannot see it.",
} as const;

const FIELDS: FieldSpec[] = [
  {
    name: "hero.image",
    label: "Hero image",
    max: 64,
    required: false,
    type: "image",
    hint: "JPEG, PNG, GIF or WebP under 10 MB, at least 1280 pixels wide. Without one, the illustration of a town house is shown.",
  },
  {
    name: "hero.imageAlt",
    label: "Hero image description (alt text)",
    max: 250,
    required: false,
    multiline: true,
    hint: "What the picture shows, for people who cannot see it.",
  },
  { name: "hero.eyebrow", label: "Line above the headline", max: 80, required: true },
  { name: "hero.headline", label: "Headline", max: 100, required: true },
  { name: "hero.blurb", label: "Introduction", max: 400, required: true, multiline: true },
  { name: "hero.promiseTitle", label: "Pricing promise title", max: 60, required: true },
  { name: "hero.promiseTagline", label: "Pricing promise tagline", max: 140, required: true },
  ...Array.from(
    { length: MAX_PROMISES },
    (_, index): FieldSpec => ({ name: `hero.promises.${index}`, label: `Promise ${index + 1}`, max: 40, required: true }),
  ),
];

export const section: Section<"hero", SiteHero> = {
  label: "Hero",
  defaults: () => ({
    image: "",
    imageAlt: "",
    eyebrow: "For landlords, investors and tenants",
    headline: "Professional Property Management Services",
    blurb:
      "From finding the right tenants to collecting the rent, handling repairs and keeping you on the right side of every regulation, we look after your property so it earns for you without the hassle.",
    promiseTitle: "Transparent Pricing Promise",
    promiseTagline: "What you see is what you pay - guaranteed transparent pricing",
    promises: ["No VAT Added", "No Hidden Fees", "No Surprises"],
  }),
  fields: () => FIELDS,
  values: (content) => {
    const { promises, ...texts } = content.hero;
    const values = textValues("hero", texts);
    promises.forEach((promise, index) => {
      values[`hero.promises.${index}`] = promise;
    });
    return values;
  },
  parse: ({ get, errors }) => {
    if (get("hero.image") && !get("hero.imageAlt") && !errors["hero.imageAlt"]) errors["hero.imageAlt"] = HERO_TEXT.heroAlt;
    return {
      hero: {
        image: get("hero.image"),
        imageAlt: get("hero.imageAlt"),
        eyebrow: get("hero.eyebrow"),
        headline: get("hero.headline"),
        blurb: get("hero.blurb"),
        promiseTitle: get("hero.promiseTitle"),
        promiseTagline: get("hero.promiseTagline"),
        promises: Array.from({ length: MAX_PROMISES }, (_, index) => get(`hero.promises.${index}`)),
      },
    };
  },
};
