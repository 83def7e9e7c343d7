import { FIELD_TEXT, textValues, type FieldSpec, type Section } from "../fields";
import { penceFrom, priceFieldValue } from "../price";

export type SitePlan = {
  name: string;
  /** Whole pence, so £80 and £79.50 are both exact. */
  pricePence: number;
  period: string;
  description: string;
  features: string[];
  buttonText: string;
  popular: boolean;
};

export type SitePricing = {
  title: string;
  intro: string;
  plans: SitePlan[];
  enterpriseQuestion: string;
  enterpriseLink: string;
  enterpriseRest: string;
};

export const MAX_FEATURES = 12;
export const FEATURE_MAX = 120;

export const PRICING_TEXT = {
  tooManyLines: (label: string, max: number) => `${label}: at most ${max} lines.`,
  lineTooLong: (label: string, max: number) => `${label}: each line must be at most ${max} characters.`,
} as const;

/** A plan's fields are named `plans.<index>.<part>`; the radio buttons choosing the popular plan, `popular`. */
function planFields(index: number): FieldSpec[] {
  const which = `Plan ${index + 1}`;
  return [
    { name: `plans.${index}.name`, label: `${which} name`, max: 40, required: true },
    { name: `plans.${index}.price`, label: `${which} price (£)`, max: 12, required: true, hint: "In pounds, such as 80 or 79.50." },
    { name: `plans.${index}.period`, label: `${which} period`, max: 40, required: true },
    { name: `plans.${index}.description`, label: `${which} description`, max: 300, required: true, multiline: true },
    {
      name: `plans.${index}.features`,
      label: `${which} features`,
      max: MAX_FEATURES * (FEATURE_MAX + 1),
      required: true,
      multiline: true,
      hint: `One feature a line, in the order shown; at most ${MAX_FEATURES}.`,
    },
    { name: `plans.${index}.buttonText`, label: `${which} button text`, max: 40, required: true },
  ];
}

export const section: Section<"pricing", SitePricing> = {
  label: "Pricing",
  defaults: () => ({
    title: "Simple, Transparent Pricing",
    intro: "One clear fee per property, and nothing added on top.",
    plans: [
      {
        name: "Gold",
        pricePence: 8000,
        period: "per property",
        description: "Everything a landlord needs for hands-off lettings, with priority service throughout.",
        features: [
          "Automated rent collection and accounting",
          "Priority maintenance and repairs",
          "Tenant communication management",
          "Priority phone and email support",
          "Weekly progress updates",
          "Emergency response coordination",
        ],
        buttonText: "Choose Gold",
        popular: false,
      },
      {
        name: "Platinum",
        pricePence: 12000,
        period: "per property",
        description: "Our complete service for investors who want every detail handled and reported.",
        features: [
          "Complete property management service",
          "Advanced financial reporting and analytics",
          "Legal compliance and documentation",
          "24/7 dedicated support line",
          "Real-time dashboard and insights",
          "Property renovation coordination",
          "Insurance claims management",
          "Dedicated account manager",
        ],
        buttonText: "Choose Platinum",
        popular: true,
      },
    ],
    enterpriseQuestion: "Managing a larger portfolio?",
    enterpriseLink: "Contact us",
    enterpriseRest: "for enterprise pricing.",
  }),
  fields: ({ pricing }) => [
    { name: "pricing.title", label: "Section title", max: 80, required: true },
    { name: "pricing.intro", label: "Section introduction", max: 200, required: true },
    ...pricing.plans.flatMap((_, index) => planFields(index)),
    { name: "pricing.enterpriseQuestion", label: "Enterprise line: question", max: 80, required: true },
    { name: "pricing.enterpriseLink", label: "Enterprise line: link text", max: 40, required: true },
    { name: "pricing.enterpriseRest", label: "Enterprise line: after the link", max: 80, required: true },
  ],
  values: ({ pricing }) => {
    const { plans, ...texts } = pricing;
    const values = textValues("pricing", texts);
    plans.forEach((plan, index) => {
      values[`plans.${index}.name`] = plan.name;
      values[`plans.${index}.price`] = priceFieldValue(plan.pricePence);
      values[`plans.${index}.period`] = plan.period;
      values[`plans.${index}.description`] = plan.description;
      values[`plans.${index}.features`] = plan.features.join("\n");
      values[`plans.${index}.buttonText`] = plan.buttonText;
    });
    values.popular = String(plans.findIndex((plan) => plan.popular));
    return values;
  },
  parse: ({ get, raw, errors, values }, current) => {
    const popular = raw("popular");
    values.popular = popular;
    const plans = current.pricing.plans.map((_, index): SitePlan => {
      const priceName = `plans.${index}.price`;
      const pricePence = penceFrom(get(priceName)) ?? NaN;
      if (!errors[priceName] && Number.isNaN(pricePence)) errors[priceName] = FIELD_TEXT.price(`Plan ${index + 1} price`);
      const featuresName = `plans.${index}.features`;
      const features = get(featuresName)
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean);
      if (!errors[featuresName]) {
        if (features.length > MAX_FEATURES) errors[featuresName] = PRICING_TEXT.tooManyLines(`Plan ${index + 1} features`, MAX_FEATURES);
        else if (features.some((line) => line.length > FEATURE_MAX)) errors[featuresName] = PRICING_TEXT.lineTooLong(`Plan ${index + 1} features`, FEATURE_MAX);
      }
      return {
        name: get(`plans.${index}.name`),
        pricePence: Number.isFinite(pricePence) ? pricePence : 0,
        period: get(`plans.${index}.period`),
        description: get(`plans.${index}.description`),
        features,
        buttonText: get(`plans.${index}.buttonText`),
        popular: popular === String(index),
      };
    });
    return {
      pricing: {
        title: get("pricing.title"),
        intro: get("pricing.intro"),
        plans,
        enterpriseQuestion: get("pricing.enterpriseQuestion"),
        enterpriseLink: get("pricing.enterpriseLink"),
        enterpriseRest: get("pricing.enterpriseRest"),
      },
    };
  },
};
