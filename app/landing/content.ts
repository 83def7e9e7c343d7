import type { IconName } from "~/components/Icon";
import type { SectionId } from "./scroll";

/** The landing page's fixed texts; the company's details, the hero and the pricing are edited in the Website tab (app/website/content.ts). */

export const NAV_ITEMS: { id: SectionId; label: string }[] = [
  { id: "home", label: "Home" },
  { id: "services", label: "Services" },
  { id: "renovations", label: "Renovations" },
  { id: "pricing", label: "Pricing" },
  { id: "about", label: "About" },
  { id: "contact", label: "Contact Us" },
];

export type Service = { title: string; description: string; icon: IconName };

export const CORE_SERVICES: Service[] = [
  {
    title: "Rent Collection & Financial Management",
    description:
      "Rent collected on time, arrears chased promptly and clear monthly statements, so you always know where your money is.",
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
    description:
      "Careful tenant referencing, smooth move-ins and a friendly single point of contact that keeps good tenants happy and staying longer.",
    icon: "users",
  },
];

export const ADDITIONAL_SERVICES: Service[] = [
  {
    title: "Legal Compliance & Documentation",
    description:
      "Tenancy agreements, deposit protection, gas and electrical safety certificates and Right to Rent checks, all kept current.",
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
];

export const RENOVATION_SERVICES: Service[] = [
  {
    title: "Complete Renovations",
    description: "Whole-property refurbishments planned, priced and project-managed from start to finish.",
    icon: "home",
  },
  {
    title: "Interior Design",
    description: "Practical, durable interiors that appeal to tenants and photograph beautifully.",
    icon: "palette",
  },
  {
    title: "Maintenance & Repairs",
    description: "Fast fixes and planned upkeep that protect your property's value between tenancies.",
    icon: "wrench",
  },
  {
    title: "Property Upgrades",
    description: "New kitchens, bathrooms and energy-efficiency improvements that raise rents and EPC ratings.",
    icon: "sparkles",
  },
];

/** The icons of the About panel's two captions (their words are edited in the Website tab). */
export const ABOUT_CAPTION_ICONS: IconName[] = ["badge", "trophy"];

/** SPEC §9: Mon-Fri 9:00-18:00, Sat 10:00-16:00, Sun closed. */
export const BUSINESS_HOURS: { days: string; hours: string }[] = [
  { days: "Monday – Friday", hours: "9:00 – 18:00" },
  { days: "Saturday", hours: "10:00 – 16:00" },
  { days: "Sunday", hours: "Closed" },
];
