import type { Company } from "~/company/company";
import { textValues, type FieldSpec, type Section } from "../fields";

/** The company's details as the site names it, and its logo. */
export type SiteCompany = Pick<Company, "name" | "shortName" | "phone" | "email" | "address"> & {
  /** An uploaded image's URL (`/images/<name>`), or "" for COMPANY_LOGO_URL's logo. */
  logo: string;
};

const FIELDS: FieldSpec[] = [
  { name: "company.name", label: "Company name", max: 100, required: true },
  { name: "company.shortName", label: "Short name", max: 40, required: true, hint: "Shown in the header on small screens." },
  { name: "company.phone", label: "Phone", max: 40, required: true, type: "tel" },
  { name: "company.email", label: "Email", max: 254, required: true, type: "email" },
  { name: "company.address", label: "Postal address", max: 200, required: true },
  {
    name: "company.logo",
    label: "Logo",
    max: 64,
    required: false,
    type: "image",
    hint: "JPEG, PNG, GIF or WebP under 10 MB, shown 40 pixels high; a square picture works best.",
  },
];

export const section: Section<"company", SiteCompany> = {
  label: "Company",
  // From COMPANY_* (or the placeholders) until the first publish; after that the environment never overwrites the site.
  defaults: ({ name, shortName, phone, email, address }) => ({ name, shortName, phone, email, address, logo: "" }),
  fields: () => FIELDS,
  values: (content) => textValues("company", content.company),
  parse: ({ get }) => ({
    company: {
      name: get("company.name"),
      shortName: get("company.shortName"),
      phone: get("company.phone"),
      email: get("company.email"),
      // An address typed on several lines is shown on one.
      address: get("company.address").replace(/\s*\n\s*/g, ", "),
      logo: get("company.logo"),
    },
  }),
};

/** The company as the site names it: the content's details over the configured ones, and its logo once one is uploaded. */
export function siteCompany(company: Company, content: { company: SiteCompany }): Company {
  const { logo, ...details } = content.company;
  return { ...company, ...details, logoUrl: logo || company.logoUrl };
}
