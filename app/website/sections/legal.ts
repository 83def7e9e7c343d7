import { textValues, type FieldSpec, type Section } from "../fields";

/** The company's registration and memberships, in the footer and on /fees (decision 028). */
export type SiteLegal = {
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

const COMPANY_NUMBER = /^(\d{8}|[A-Z]{2}\d{6})$/;
const VAT_NUMBER = /^(GB)?(\d{9}|\d{12})$/;
const ICO_NUMBER = /^Z[A-Z0-9]\d{6}$/;

/** Company, VAT and ICO numbers are kept upper-case and without spaces, as they are written on forms. */
const compact = (value: string) => value.replace(/\s+/g, "").toUpperCase();

const FIELDS: FieldSpec[] = [
  { name: "legal.registeredName", label: "Registered company name", max: 120, required: false },
  {
    name: "legal.companyNumber",
    label: "Company number",
    max: 8,
    required: false,
    normalise: compact,
    pattern: { test: COMPANY_NUMBER, message: "Company number is 8 characters, such as 01234567 or SC123456." },
  },
  { name: "legal.registeredOffice", label: "Registered office address", max: 200, required: false },
  {
    name: "legal.vatNumber",
    label: "VAT number",
    max: 16,
    required: false,
    hint: "Only if you are VAT registered.",
    normalise: compact,
    pattern: { test: VAT_NUMBER, message: "VAT number is GB followed by 9 digits, such as GB123456789." },
  },
  {
    name: "legal.icoNumber",
    label: "ICO registration number",
    max: 8,
    required: false,
    normalise: compact,
    pattern: { test: ICO_NUMBER, message: "ICO registration number is 8 characters starting with Z, such as ZA123456." },
  },
  { name: "legal.redressScheme", label: "Redress scheme", max: 120, required: false, hint: "For example The Property Ombudsman." },
  { name: "legal.redressNumber", label: "Redress scheme membership number", max: 40, required: false },
  { name: "legal.cmpScheme", label: "Client money protection scheme", max: 120, required: false, hint: "For example Propertymark Client Money Protection." },
  { name: "legal.cmpNumber", label: "Client money protection membership number", max: 40, required: false },
  {
    name: "legal.cmpExpires",
    label: "Client money protection certificate expires on",
    max: 10,
    required: false,
    type: "date",
    hint: "The dashboard warns you 30 days before.",
  },
  {
    name: "legal.cmpCertificate",
    label: "Client money protection certificate",
    max: 64,
    required: false,
    type: "document",
    hint: "The certificate itself, as a PDF or an image under 10 MB: the law asks for it on your website, and a scheme logo alone is not enough. Published on your fees page.",
  },
];

/** The details by name, each from its field (every field named, never a stored object's spread: a key no form has does not ride along). */
const detailsFrom = (value: (field: string) => string) =>
  Object.fromEntries(FIELDS.map((spec) => [spec.name.slice("legal.".length), value(spec.name)])) as SiteLegal;

export const section: Section<"legal", SiteLegal> = {
  label: "Legal details",
  // Company number, redress scheme, client money protection.
  ownerOnly: true,
  // All empty: the company fills in what applies to it.
  defaults: () => detailsFrom(() => ""),
  fields: () => FIELDS,
  values: (content) => textValues("legal", content.legal),
  parse: ({ get }) => ({ legal: detailsFrom(get) }),
};

/** The link to the published certificate, on /fees and in every footer: says whether it opens a PDF. */
export function certificateLinkText(url: string): string {
  return `Our client money protection certificate (${url.endsWith(".pdf") ? "PDF" : "image"})`;
}
