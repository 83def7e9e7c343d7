import { PLACEHOLDER_COMPANY, type Company } from "~/company/company";
import { imageNameFromUrl, storedNameFromUrl, type ResponsiveImage } from "~/images/image-files";
import { isValidEmail } from "~/platform/email-address";
import type { FieldSpec, SectionErrors } from "./fields";
import { MAX_POLICY_NESTING, policyNesting } from "./policy-text";
import { hoursDefaults, hoursFields, hoursShapeProblems, hoursValues, parseHours, type SiteHours } from "./hours";
import {
  parseRenovations,
  parseServices,
  renovationsDefaults,
  renovationsFields,
  renovationsShapeProblems,
  renovationsValues,
  servicesDefaults,
  servicesFields,
  servicesShapeProblems,
  servicesValues,
  type SiteRenovations,
  type SiteServices,
} from "./services";

/**
 * What the company edits of its own site (issue 15), as typed data: each
 * section of the landing page with its own fields, limits and messages, so
 * an edit can never break the layout. Shared by the browser (labels, limits)
 * and the server (which decides). A fresh site shows the specification's
 * texts: SITE_DEFAULTS.
 */

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

/** A fee as the fees page lists it (Consumer Rights Act 2015 s.83): its amount includes VAT. */
export type SiteFee = {
  name: string;
  /** Including VAT, in whole pence. */
  amountPence: number;
  basis: FeeBasis;
  /** What the fee covers. */
  covers: string;
  /** How it is worked out ("once, at the start of each tenancy", "10% of the monthly rent"). */
  calculation: string;
};
export const FEE_BASES = ["per-property", "per-tenant"] as const;
export type FeeBasis = (typeof FEE_BASES)[number];
export const FEE_BASIS_LABELS: Record<FeeBasis, string> = { "per-property": "Per property", "per-tenant": "Per tenant" };

/** How VAT applies to the prices shown: chosen by the company ("" until it chooses). */
export const VAT_STATUSES = ["", "included", "not-registered"] as const;
export type VatStatus = (typeof VAT_STATUSES)[number];
export const VAT_STATEMENTS: Record<Exclude<VatStatus, "">, string> = {
  included: "All prices include VAT.",
  "not-registered": "We are not VAT registered, so no VAT is added to our prices.",
};

export type SiteContent = {
  company: Pick<Company, "name" | "shortName" | "phone" | "email" | "address"> & {
    /** An uploaded image's URL (`/images/<name>`), or "" for COMPANY_LOGO_URL's logo. */
    logo: string;
  };
  hero: {
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
  services: SiteServices;
  renovations: SiteRenovations;
  pricing: {
    title: string;
    intro: string;
    plans: SitePlan[];
    enterpriseQuestion: string;
    enterpriseLink: string;
    enterpriseRest: string;
  };
  about: {
    eyebrow: string;
    title: string;
    /** Paragraphs separated by a blank line; {company} stands for the company's name. */
    text: string;
    badges: string[];
    quote: string;
    captions: Array<{ title: string; subtitle: string }>;
  };
  /** phoneNote and emailNote are edited with the business hours. */
  contact: { eyebrow: string; title: string; intro: string; phoneNote: string; emailNote: string };
  hours: SiteHours;
  fees: { vatStatus: VatStatus; landlord: SiteFee[]; tenant: SiteFee[] };
  legal: {
    registeredName: string;
    companyNumber: string;
    registeredOffice: string;
    vatNumber: string;
    icoNumber: string;
    redressScheme: string;
    redressNumber: string;
    cmpScheme: string;
    cmpNumber: string;
    /** YYYY-MM-DD, or "". */
    cmpExpires: string;
    /** The certificate itself (SI 2019/386 reg. 4): an uploaded PDF's or image's URL, or "". */
    cmpCertificate: string;
  };
  /** Markdown; "" while a policy is not written (its footer link stays a placeholder). */
  policies: { privacy: string; terms: string; cookies: string };
};

/** One published version, as the history lists it. */
export type VersionSummary = { number: number; publishedAt: string; publishedBy: string; restoredFrom: number | null; live: boolean };

export const SITE_SECTIONS = ["company", "hero", "services", "renovations", "pricing", "about", "contact", "hours", "fees", "legal", "policies"] as const;
export type SiteSection = (typeof SITE_SECTIONS)[number];

export const SECTION_LABELS: Record<SiteSection, string> = {
  company: "Company",
  hero: "Hero",
  services: "Services",
  renovations: "Renovations",
  pricing: "Pricing",
  about: "About",
  contact: "Contact",
  hours: "Business hours",
  fees: "Fees",
  legal: "Legal details",
  policies: "Policies",
};

/** The specification's texts (SPEC §9, §10), with the company from COMPANY_* or the placeholders. */
export function siteDefaults(company: Company = PLACEHOLDER_COMPANY): SiteContent {
  return {
    company: { name: company.name, shortName: company.shortName, phone: company.phone, email: company.email, address: company.address, logo: "" },
    hero: {
      image: "",
      imageAlt: "",
      eyebrow: "For landlords, investors and tenants",
      headline: "Professional Property Management Services",
      blurb:
        "From finding the right tenants to collecting the rent, handling repairs and keeping you on the right side of every regulation, we look after your property so it earns for you without the hassle.",
      promiseTitle: "Transparent Pricing Promise",
      promiseTagline: "What you see is what you pay - guaranteed transparent pricing",
      promises: ["No VAT Added", "No Hidden Fees", "No Surprises"],
    },
    services: servicesDefaults(),
    renovations: renovationsDefaults(),
    pricing: {
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
    },
    about: {
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
    },
    contact: {
      eyebrow: "Get in touch",
      title: "Let's Talk About Your Property",
      intro: "Whether you are a landlord, a property investor or a tenant, send us a message and the right person will get back to you.",
      phoneNote: "Phone line open 9am – 6pm, Monday to Friday",
      emailNote: "We answer every e-mail within 24 hours",
    },
    hours: hoursDefaults(),
    fees: { vatStatus: "", landlord: [], tenant: [] },
    legal: {
      registeredName: "",
      companyNumber: "",
      registeredOffice: "",
      vatNumber: "",
      icoNumber: "",
      redressScheme: "",
      redressNumber: "",
      cmpScheme: "",
      cmpNumber: "",
      cmpExpires: "",
      cmpCertificate: "",
    },
    policies: { privacy: "", terms: "", cookies: "" },
  };
}

export const POLICIES = [
  { key: "privacy", path: "/privacy", title: "Privacy Policy" },
  { key: "terms", path: "/terms", title: "Terms of Service" },
  { key: "cookies", path: "/cookies", title: "Cookie Policy" },
] as const;
export type PolicyKey = (typeof POLICIES)[number]["key"];

/** The company as the site names it: the content's details over the configured ones, and its logo once one is uploaded. */
export function siteCompany(company: Company, content: SiteContent): Company {
  const { logo, ...details } = content.company;
  return { ...company, ...details, logoUrl: logo || company.logoUrl };
}

/** An uploaded hero image with its copies, for `<picture>`. */
export type HeroPicture = ResponsiveImage & { src: string; alt: string };

/** What the hero shows when no image is uploaded (public/hero-property.svg, decision 004). */
export const DEFAULT_HERO_IMAGE = {
  src: "/hero-property.svg",
  alt: "Illustration of a Victorian terraced town house with a bay window, a black front door and a small front garden",
  width: 640,
  height: 520,
} as const;

/** The link to the published certificate, on /fees and in every footer: says whether it opens a PDF. */
export function certificateLinkText(url: string): string {
  return `Our client money protection certificate (${url.endsWith(".pdf") ? "PDF" : "image"})`;
}

/** True once the company has listed a fee: /fees is linked and in the sitemap. */
export function hasFees(fees: SiteContent["fees"]): boolean {
  return fees.landlord.length + fees.tenant.length > 0;
}

/**
 * Stored or imported content read over the defaults, section by section and
 * field by field, so a field added by a later release shows its default until
 * edited. Sections that are not objects are left at their defaults; callers
 * that must refuse them check first.
 */
export function overDefaults(stored: Record<string, unknown>, defaults: SiteContent): SiteContent {
  const merged = { ...defaults } as Record<string, unknown>;
  for (const section of SITE_SECTIONS) {
    const value = stored[section];
    if (value && typeof value === "object" && !Array.isArray(value)) merged[section] = { ...defaults[section], ...value };
  }
  return merged as SiteContent;
}

/** "£80", "£79.50", "£1,250": how a price is shown. */
export function formatPrice(pence: number): string {
  const pounds = Math.floor(pence / 100);
  const rest = pence % 100;
  return `£${pounds.toLocaleString("en-GB")}${rest ? `.${String(rest).padStart(2, "0")}` : ""}`;
}

/** "80", "79.50": a price as the editor's field shows it. */
export function priceFieldValue(pence: number): string {
  const rest = pence % 100;
  return `${Math.floor(pence / 100)}${rest ? `.${String(rest).padStart(2, "0")}` : ""}`;
}

// ---------------------------------------------------------------- fields

export type { FieldSpec, SectionErrors } from "./fields";

export const MAX_PROMISES = 3;
export const MAX_FEATURES = 12;
export const FEATURE_MAX = 120;
export const MAX_PRICE_PENCE = 10_000_000;

export const MAX_FEES = 20;
export const POLICY_MAX = 30_000;

export const WEBSITE_TEXT = {
  fieldRequired: (label: string) => `Please fill in ${label.toLowerCase()}.`,
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
  email: "Please enter a valid email address",
  price: (label: string) => `${label} must be an amount in pounds, such as 80 or 79.50.`,
  tooManyLines: (label: string, max: number) => `${label}: at most ${max} lines.`,
  lineTooLong: (label: string, max: number) => `${label}: each line must be at most ${max} characters.`,
  fixErrors: "Please correct the highlighted fields. Nothing was saved.",
  tooManyFees: (max: number) => `At most ${max} fees in each list.`,
  feeIncomplete: "Please give the fee a name, an amount, what it covers and how it is calculated, or tick Remove.",
  vatStatus: "Please choose how VAT applies to your prices.",
  date: (label: string) => `${label} must be a date, such as 2027-03-31.`,
  fileMissing: (label: string) => `${label}: the uploaded file was not found. Please upload it again.`,
  heroAlt: "Please describe the hero image for people who cannot see it.",
  policyNesting: (label: string, max: number) => `${label}: lists and quotes can be nested at most ${max} deep. Please simplify the structure.`,
} as const;

/** The fields that hold an upload, by section: the form carries each as `<name>` (the current URL), `<name>.file` and `<name>.remove`. */
export const FILE_FIELDS: Partial<Record<SiteSection, string>> = { company: "company.logo", hero: "hero.image", legal: "legal.cmpCertificate" };

/**
 * Tenant fees (Tenant Fees Act 2019, Schedule 1): only rent, a refundable
 * deposit, a holding deposit, changes the tenant asks for, ending a tenancy
 * early, utilities and council tax, and default fees are permitted. These
 * names are the usual banned ones; the editor warns, the law decides.
 */
const BANNED_TENANT_FEE = /referenc|\badmin|inventor|viewing|check[\s-]?(in|out)\b|set[\s-]?up|credit check|renewal|application fee|signing fee/i;

export const TENANT_FEE_WARNING =
  "This looks like a fee the Tenant Fees Act 2019 bans (such as referencing, administration, inventory or viewing fees). Tenants may only be charged rent, a refundable deposit, a holding deposit, changes they ask for (up to £50), ending a tenancy early, utilities and council tax, and default fees for lost keys or rent more than 14 days late.";

export function tenantFeeWarning(fee: Pick<SiteFee, "name" | "covers">): string | undefined {
  return BANNED_TENANT_FEE.test(`${fee.name} ${fee.covers}`) ? TENANT_FEE_WARNING : undefined;
}

const COMPANY_NUMBER = /^(\d{8}|[A-Z]{2}\d{6})$/;
const VAT_NUMBER = /^(GB)?(\d{9}|\d{12})$/;
const ICO_NUMBER = /^Z[A-Z0-9]\d{6}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** One fee row's fields (`list` landlord or tenant, `index` its place; the row after the last adds a fee). */
export function feeRowFields(list: "landlord" | "tenant", index: number): FieldSpec[] {
  const prefix = `fees.${list}.${index}`;
  const which = `${list === "landlord" ? "Landlord" : "Tenant"} fee ${index + 1}`;
  return [
    { name: `${prefix}.name`, label: `${which}: name`, max: 80, required: false },
    { name: `${prefix}.amount`, label: `${which}: amount including VAT (£)`, max: 12, required: false, hint: "In pounds, such as 95 or 79.50." },
    { name: `${prefix}.covers`, label: `${which}: what it covers`, max: 300, required: false, multiline: true },
    { name: `${prefix}.calculation`, label: `${which}: how it is calculated`, max: 200, required: false },
  ];
}

export function sectionFields(section: SiteSection, content: SiteContent): FieldSpec[] {
  if (section === "company") {
    return [
      { name: "company.name", label: "Company name", max: 100, required: true },
      { name: "company.shortName", label: "Short name", max: 40, required: true, hint: "Shown in the header on small screens." },
      { name: "company.phone", label: "Phone", max: 40, required: true, type: "tel" },
      { name: "company.email", label: "Email", max: 254, required: true, type: "email" },
      { name: "company.address", label: "Postal address", max: 200, required: true },
      { name: "company.logo", label: "Logo", max: 64, required: false, type: "image", hint: "JPEG, PNG, GIF or WebP under 10 MB, shown 40 pixels high; a square picture works best." },
    ];
  }
  if (section === "hero") {
    return [
      { name: "hero.image", label: "Hero image", max: 64, required: false, type: "image", hint: "JPEG, PNG, GIF or WebP under 10 MB, at least 1280 pixels wide. Without one, the illustration of a town house is shown." },
      { name: "hero.imageAlt", label: "Hero image description (alt text)", max: 250, required: false, multiline: true, hint: "What the picture shows, for people who cannot see it." },
      { name: "hero.eyebrow", label: "Line above the headline", max: 80, required: true },
      { name: "hero.headline", label: "Headline", max: 100, required: true },
      { name: "hero.blurb", label: "Introduction", max: 400, required: true, multiline: true },
      { name: "hero.promiseTitle", label: "Pricing promise title", max: 60, required: true },
      { name: "hero.promiseTagline", label: "Pricing promise tagline", max: 140, required: true },
      ...Array.from({ length: MAX_PROMISES }, (_, index): FieldSpec => ({ name: `hero.promises.${index}`, label: `Promise ${index + 1}`, max: 40, required: true })),
    ];
  }
  if (section === "about") {
    return [
      { name: "about.eyebrow", label: "Line above the title", max: 60, required: true },
      { name: "about.title", label: "Section title", max: 80, required: true },
      { name: "about.text", label: "Text", max: 1500, required: true, multiline: true, hint: "A blank line starts a new paragraph. {company} is replaced by the company's name." },
      ...Array.from({ length: 4 }, (_, index): FieldSpec => ({ name: `about.badges.${index}`, label: `Badge ${index + 1}`, max: 40, required: true })),
      { name: "about.quote", label: "Quote in the blue panel", max: 140, required: true },
      ...[0, 1].flatMap((index): FieldSpec[] => [
        { name: `about.captions.${index}.title`, label: `Caption ${index + 1}: title`, max: 40, required: true },
        { name: `about.captions.${index}.subtitle`, label: `Caption ${index + 1}: line below`, max: 60, required: true },
      ]),
    ];
  }
  if (section === "contact") {
    return [
      { name: "contact.eyebrow", label: "Line above the title", max: 60, required: true },
      { name: "contact.title", label: "Section title", max: 80, required: true },
      { name: "contact.intro", label: "Introduction", max: 300, required: true, multiline: true },
    ];
  }
  if (section === "hours") {
    return [
      ...hoursFields(),
      { name: "contact.phoneNote", label: "Phone line hours", max: 100, required: true, hint: "Shown under the phone number." },
      { name: "contact.emailNote", label: "How soon you answer e-mails", max: 100, required: true, hint: "Shown under the e-mail address." },
    ];
  }
  if (section === "services") return servicesFields(content.services);
  if (section === "renovations") return renovationsFields();
  if (section === "legal") {
    return [
      { name: "legal.registeredName", label: "Registered company name", max: 120, required: false },
      {
        name: "legal.companyNumber",
        label: "Company number",
        max: 8,
        required: false,
        pattern: { test: COMPANY_NUMBER, message: "Company number is 8 characters, such as 01234567 or SC123456." },
      },
      { name: "legal.registeredOffice", label: "Registered office address", max: 200, required: false },
      {
        name: "legal.vatNumber",
        label: "VAT number",
        max: 16,
        required: false,
        hint: "Only if you are VAT registered.",
        pattern: { test: VAT_NUMBER, message: "VAT number is GB followed by 9 digits, such as GB123456789." },
      },
      {
        name: "legal.icoNumber",
        label: "ICO registration number",
        max: 8,
        required: false,
        pattern: { test: ICO_NUMBER, message: "ICO registration number is 8 characters starting with Z, such as ZA123456." },
      },
      { name: "legal.redressScheme", label: "Redress scheme", max: 120, required: false, hint: "For example The Property Ombudsman." },
      { name: "legal.redressNumber", label: "Redress scheme membership number", max: 40, required: false },
      { name: "legal.cmpScheme", label: "Client money protection scheme", max: 120, required: false, hint: "For example Propertymark Client Money Protection." },
      { name: "legal.cmpNumber", label: "Client money protection membership number", max: 40, required: false },
      { name: "legal.cmpExpires", label: "Client money protection certificate expires on", max: 10, required: false, type: "date", hint: "The dashboard warns you 30 days before." },
      {
        name: "legal.cmpCertificate",
        label: "Client money protection certificate",
        max: 64,
        required: false,
        type: "document",
        hint: "The certificate itself, as a PDF or an image under 10 MB: the law asks for it on your website, and a scheme logo alone is not enough. Published on your fees page.",
      },
    ];
  }
  if (section === "policies") {
    return POLICIES.map(({ key, title }) => ({
      name: `policies.${key}`,
      label: title,
      max: POLICY_MAX,
      required: false,
      multiline: true,
      hint: "Markdown: # for headings, - for lists, [text](https://…) for links. Leave empty to keep the footer link as a placeholder.",
    }));
  }
  if (section === "fees") {
    return (["landlord", "tenant"] as const).flatMap((list) => content.fees[list].flatMap((_, index) => feeRowFields(list, index)).concat(feeRowFields(list, content.fees[list].length)));
  }
  return [
    { name: "pricing.title", label: "Section title", max: 80, required: true },
    { name: "pricing.intro", label: "Section introduction", max: 200, required: true },
    ...content.pricing.plans.flatMap((plan, index): FieldSpec[] => {
      const which = `Plan ${index + 1}`;
      return [
        { name: `plans.${index}.name`, label: `${which} name`, max: 40, required: true },
        { name: `plans.${index}.price`, label: `${which} price (£)`, max: 12, required: true, hint: "In pounds, such as 80 or 79.50." },
        { name: `plans.${index}.period`, label: `${which} period`, max: 40, required: true },
        { name: `plans.${index}.description`, label: `${which} description`, max: 300, required: true, multiline: true },
        { name: `plans.${index}.features`, label: `${which} features`, max: MAX_FEATURES * (FEATURE_MAX + 1), required: true, multiline: true, hint: `One feature a line, in the order shown; at most ${MAX_FEATURES}.` },
        { name: `plans.${index}.buttonText`, label: `${which} button text`, max: 40, required: true },
      ];
    }),
    { name: "pricing.enterpriseQuestion", label: "Enterprise line: question", max: 80, required: true },
    { name: "pricing.enterpriseLink", label: "Enterprise line: link text", max: 40, required: true },
    { name: "pricing.enterpriseRest", label: "Enterprise line: after the link", max: 80, required: true },
  ];
}

/** The section's current values as the form's fields show them. */
export function sectionValues(section: SiteSection, content: SiteContent): Record<string, string> {
  const values: Record<string, string> = Object.create(null);
  if (section === "company") {
    for (const [key, value] of Object.entries(content.company)) values[`company.${key}`] = value;
  } else if (section === "hero") {
    const { promises, ...texts } = content.hero;
    for (const [key, value] of Object.entries(texts)) values[`hero.${key}`] = value;
    promises.forEach((promise, index) => (values[`hero.promises.${index}`] = promise));
  } else if (section === "about") {
    const { badges, captions, ...texts } = content.about;
    for (const [key, value] of Object.entries(texts)) values[`about.${key}`] = value;
    badges.forEach((badge, index) => (values[`about.badges.${index}`] = badge));
    captions.forEach((caption, index) => {
      values[`about.captions.${index}.title`] = caption.title;
      values[`about.captions.${index}.subtitle`] = caption.subtitle;
    });
  } else if (section === "contact") {
    for (const key of ["eyebrow", "title", "intro"] as const) values[`contact.${key}`] = content.contact[key];
  } else if (section === "hours") {
    Object.assign(values, hoursValues(content.hours));
    values["contact.phoneNote"] = content.contact.phoneNote;
    values["contact.emailNote"] = content.contact.emailNote;
  } else if (section === "services") {
    Object.assign(values, servicesValues(content.services));
  } else if (section === "renovations") {
    Object.assign(values, renovationsValues(content.renovations));
  } else if (section === "legal") {
    for (const [key, value] of Object.entries(content.legal)) values[`legal.${key}`] = value;
  } else if (section === "policies") {
    for (const [key, value] of Object.entries(content.policies)) values[`policies.${key}`] = value;
  } else if (section === "fees") {
    values["fees.vatStatus"] = content.fees.vatStatus;
    for (const list of ["landlord", "tenant"] as const) {
      content.fees[list].forEach((fee, index) => {
        const prefix = `fees.${list}.${index}`;
        values[`${prefix}.name`] = fee.name;
        values[`${prefix}.amount`] = priceFieldValue(fee.amountPence);
        values[`${prefix}.basis`] = fee.basis;
        values[`${prefix}.covers`] = fee.covers;
        values[`${prefix}.calculation`] = fee.calculation;
      });
    }
  } else {
    const { plans, ...texts } = content.pricing;
    for (const [key, value] of Object.entries(texts)) values[`pricing.${key}`] = value;
    plans.forEach((plan, index) => {
      values[`plans.${index}.name`] = plan.name;
      values[`plans.${index}.price`] = priceFieldValue(plan.pricePence);
      values[`plans.${index}.period`] = plan.period;
      values[`plans.${index}.description`] = plan.description;
      values[`plans.${index}.features`] = plan.features.join("\n");
      values[`plans.${index}.buttonText`] = plan.buttonText;
    });
    values.popular = String(plans.findIndex((plan) => plan.popular));
  }
  return values;
}

/** Trims, keeps line breaks as \n, drops control characters a browser never sends. */
function clean(value: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (value ?? "").replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").trim();
}

/** "£1,250.50", "80" → pence; undefined when it is not an amount (or more than £100,000). */
function penceFrom(text: string): number | undefined {
  const match = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(text.replace(/^£\s*/, "").replace(/,/g, ""));
  if (!match) return undefined;
  const pence = Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
  return pence <= MAX_PRICE_PENCE ? pence : undefined;
}

function isDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Company and VAT numbers are kept upper-case and without spaces, as they are written on forms. */
function normalised(name: string, value: string): string {
  return name === "legal.companyNumber" || name === "legal.vatNumber" || name === "legal.icoNumber" ? value.replace(/\s+/g, "").toUpperCase() : value;
}

/**
 * Reads one section's form into a new whole content, or says what is wrong
 * with each field (then nothing is to be saved).
 */
export function parseSection(
  section: SiteSection,
  fields: Record<string, string | undefined>,
  current: SiteContent,
): { ok: true; content: SiteContent } | { ok: false; errors: SectionErrors; values: Record<string, string> } {
  const errors: SectionErrors = Object.create(null);
  const values: Record<string, string> = Object.create(null);
  const text: Record<string, string> = Object.create(null);
  for (const spec of sectionFields(section, current)) {
    const value = normalised(spec.name, clean(Object.hasOwn(fields, spec.name) ? fields[spec.name] : undefined));
    values[spec.name] = value;
    text[spec.name] = value;
    if (spec.required && value === "") errors[spec.name] = WEBSITE_TEXT.fieldRequired(spec.label);
    else if (value.length > spec.max) errors[spec.name] = WEBSITE_TEXT.tooLong(spec.label, spec.max);
    else if (spec.type === "email" && !isValidEmail(value)) errors[spec.name] = WEBSITE_TEXT.email;
    else if (spec.type === "date" && value !== "" && !isDate(value)) errors[spec.name] = WEBSITE_TEXT.date(spec.label);
    else if (spec.pattern && value !== "" && !spec.pattern.test.test(value)) errors[spec.name] = spec.pattern.message;
    else if (spec.type === "image" && value !== "" && !imageNameFromUrl(value)) errors[spec.name] = WEBSITE_TEXT.fileMissing(spec.label);
    else if (spec.type === "document" && value !== "" && !storedNameFromUrl(value)) errors[spec.name] = WEBSITE_TEXT.fileMissing(spec.label);
  }
  const get = (name: string) => text[name] ?? "";
  // Fields that are not typed text (a checkbox, a list, the button used), cleaned the same way.
  const raw = (name: string) => clean(Object.hasOwn(fields, name) ? fields[name] : undefined);

  let content: SiteContent;
  if (section === "company") {
    content = {
      ...current,
      company: {
        name: get("company.name"),
        shortName: get("company.shortName"),
        phone: get("company.phone"),
        email: get("company.email"),
        address: get("company.address").replace(/\s*\n\s*/g, ", "),
        logo: get("company.logo"),
      },
    };
  } else if (section === "hero") {
    content = {
      ...current,
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
    if (get("hero.image") && !get("hero.imageAlt") && !errors["hero.imageAlt"]) errors["hero.imageAlt"] = WEBSITE_TEXT.heroAlt;
  } else if (section === "about") {
    content = {
      ...current,
      about: {
        eyebrow: get("about.eyebrow"),
        title: get("about.title"),
        text: get("about.text"),
        badges: Array.from({ length: 4 }, (_, index) => get(`about.badges.${index}`)),
        quote: get("about.quote"),
        captions: [0, 1].map((index) => ({ title: get(`about.captions.${index}.title`), subtitle: get(`about.captions.${index}.subtitle`) })),
      },
    };
  } else if (section === "contact") {
    // Every field named, never current's spread: a key no form has does not ride along into the draft.
    const { phoneNote, emailNote } = current.contact;
    content = { ...current, contact: { eyebrow: get("contact.eyebrow"), title: get("contact.title"), intro: get("contact.intro"), phoneNote, emailNote } };
  } else if (section === "hours") {
    const { eyebrow, title, intro } = current.contact;
    content = {
      ...current,
      hours: parseHours(get, raw, errors, values),
      contact: { eyebrow, title, intro, phoneNote: get("contact.phoneNote"), emailNote: get("contact.emailNote") },
    };
  } else if (section === "services") {
    content = { ...current, services: parseServices(current.services, get, raw, errors, values) };
  } else if (section === "renovations") {
    content = { ...current, renovations: parseRenovations(get) };
  } else if (section === "legal") {
    const legal = Object.fromEntries(sectionFields("legal", current).map((spec) => [spec.name.slice("legal.".length), normalised(spec.name, get(spec.name))]));
    content = { ...current, legal: legal as SiteContent["legal"] };
  } else if (section === "policies") {
    for (const { key, title } of POLICIES) {
      const name = `policies.${key}`;
      if (!errors[name] && policyNesting(get(name)) > MAX_POLICY_NESTING) errors[name] = WEBSITE_TEXT.policyNesting(title, MAX_POLICY_NESTING);
    }
    content = { ...current, policies: { privacy: get("policies.privacy"), terms: get("policies.terms"), cookies: get("policies.cookies") } };
  } else if (section === "fees") {
    const vatStatus = clean(fields["fees.vatStatus"]);
    values["fees.vatStatus"] = vatStatus;
    if (!(VAT_STATUSES as readonly string[]).includes(vatStatus)) errors["fees.vatStatus"] = WEBSITE_TEXT.vatStatus;
    const lists = { landlord: [] as SiteFee[], tenant: [] as SiteFee[] };
    for (const list of ["landlord", "tenant"] as const) {
      for (let index = 0; index <= current.fees[list].length; index++) {
        const prefix = `fees.${list}.${index}`;
        const basis = clean(fields[`${prefix}.basis`]);
        values[`${prefix}.basis`] = basis;
        if (clean(fields[`${prefix}.remove`]) !== "") {
          values[`${prefix}.remove`] = "on";
          continue;
        }
        const row = ["name", "amount", "covers", "calculation"].map((part) => get(`${prefix}.${part}`));
        // The empty row at the end adds a fee only when something is typed in it.
        if (row.every((part) => part === "")) {
          if (index < current.fees[list].length && !errors[`${prefix}.name`]) errors[`${prefix}.name`] = WEBSITE_TEXT.feeIncomplete;
          continue;
        }
        const [name, amount, covers, calculation] = row as [string, string, string, string];
        const pence = penceFrom(amount);
        if ((name === "" || covers === "" || calculation === "" || amount === "") && !errors[`${prefix}.name`]) errors[`${prefix}.name`] = WEBSITE_TEXT.feeIncomplete;
        else if (pence === undefined && !errors[`${prefix}.amount`]) errors[`${prefix}.amount`] = WEBSITE_TEXT.price(`${list === "landlord" ? "Landlord" : "Tenant"} fee ${index + 1} amount`);
        lists[list].push({ name, amountPence: pence ?? 0, basis: basis === "per-tenant" ? "per-tenant" : "per-property", covers, calculation });
      }
      if (lists[list].length > MAX_FEES) errors[`fees.${list}.0.name`] = WEBSITE_TEXT.tooManyFees(MAX_FEES);
    }
    content = { ...current, fees: { vatStatus: vatStatus as VatStatus, ...lists } };
  } else {
    const popular = clean(fields.popular);
    values.popular = popular;
    const plans = current.pricing.plans.map((_, index): SitePlan => {
      const priceName = `plans.${index}.price`;
      const pricePence = penceFrom(get(priceName)) ?? NaN;
      if (!errors[priceName] && Number.isNaN(pricePence)) errors[priceName] = WEBSITE_TEXT.price(`Plan ${index + 1} price`);
      const featuresName = `plans.${index}.features`;
      const features = get(featuresName).split("\n").map((line) => line.trim()).filter(Boolean);
      if (!errors[featuresName]) {
        if (features.length > MAX_FEATURES) errors[featuresName] = WEBSITE_TEXT.tooManyLines(`Plan ${index + 1} features`, MAX_FEATURES);
        else if (features.some((line) => line.length > FEATURE_MAX)) errors[featuresName] = WEBSITE_TEXT.lineTooLong(`Plan ${index + 1} features`, FEATURE_MAX);
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
    content = {
      ...current,
      pricing: {
        title: get("pricing.title"),
        intro: get("pricing.intro"),
        plans,
        enterpriseQuestion: get("pricing.enterpriseQuestion"),
        enterpriseLink: get("pricing.enterpriseLink"),
        enterpriseRest: get("pricing.enterpriseRest"),
      },
    };
  }
  if (Object.keys(errors).length) return { ok: false, errors, values };
  return { ok: true, content };
}

/**
 * A stored content checked as a whole (an import, a version read back): every
 * section's fields within their limits. Returns the problems, none when it is sound.
 */
export function contentProblems(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return ["The site content must be an object."];
  const content = value as SiteContent;
  const problems: string[] = [];
  try {
    const shape = [...servicesShapeProblems(content.services), ...renovationsShapeProblems(content.renovations), ...hoursShapeProblems(content.hours)];
    if (shape.length) return shape;
    for (const section of SITE_SECTIONS) {
      const parsed = parseSection(section, sectionValues(section, content), content);
      if (!parsed.ok) problems.push(...Object.values(parsed.errors));
    }
  } catch {
    problems.push("The site content is not in the expected shape.");
  }
  return problems;
}
