/**
 * Who the company is. The specification leaves name, logo and contact details
 * open, so these defaults are deliberately obvious placeholders: the phone
 * number is from Ofcom's range reserved for drama, the e-mail uses the
 * example.com domain. Override each with a COMPANY_* environment variable.
 */
export type Company = {
  name: string;
  shortName: string;
  phone: string;
  email: string;
  address: string;
  logoUrl: string;
};

export const PLACEHOLDER_COMPANY: Company = {
  name: "Example Property Management Ltd",
  shortName: "Example Property",
  phone: "020 7946 0000",
  email: "hello@example.com",
  address: "1 Example Street, London EC1A 1AA",
  logoUrl: "/logo.svg",
};

/** The company as configured: each COMPANY_* value given, else the placeholder; the short name falls back to the name. */
export function companyFrom(overrides: Partial<Record<keyof Company, string | undefined>>): Company {
  return {
    name: overrides.name ?? PLACEHOLDER_COMPANY.name,
    shortName: overrides.shortName ?? overrides.name ?? PLACEHOLDER_COMPANY.shortName,
    phone: overrides.phone ?? PLACEHOLDER_COMPANY.phone,
    email: overrides.email ?? PLACEHOLDER_COMPANY.email,
    address: overrides.address ?? PLACEHOLDER_COMPANY.address,
    logoUrl: overrides.logoUrl ?? PLACEHOLDER_COMPANY.logoUrl,
  };
}

/** "020 7946 0000" → "+442079460000" for tel: links. */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, "");
  return `tel:${digits.startsWith("0") ? `+44${digits.slice(1)}` : digits}`;
}
