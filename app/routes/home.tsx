import { useContext } from "react";
import { UNSAFE_FrameworkContext } from "react-router";
import type { Company } from "~/company/company";
import { formTokenFor } from "~/enquiries/form-token.server";
import { LandingPage } from "~/landing/LandingPage";
import { siteUrl } from "~/platform/http/context";
import { servicesContext } from "~/services";
import { jsonForScript } from "~/platform/http/json-script";
import { listActiveProjects } from "~/projects/projects.server";
import type { SiteContent } from "~/website/content";
import { formatPrice } from "~/website/price";
import { openingHours } from "~/website/sections/hours";
import { publishedSite } from "~/website/website.server";
import type { Route } from "./+types/home";
import { enquiryFormAction } from "./enquiry-form.server";

const DESCRIPTION =
  "Property management for landlords, property investors and tenants: rent collection, maintenance, tenant relations, legal compliance and renovations. No VAT added, no hidden fees.";

/** The social-card picture in public/ (made from hero-property.svg and the logo). */
const SHARE_IMAGE = {
  path: "/og-image.png",
  width: 1200,
  height: 630,
  alt: "Illustration of a Victorian terraced town house beside the company logo",
};

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: "Property Management" }, { name: "description", content: DESCRIPTION }];
  const { company, siteUrl } = loaderData;
  const title = `${company.name} | Professional Property Management Services`;
  const pageUrl = `${siteUrl}/`;
  const image = `${siteUrl}${SHARE_IMAGE.path}`;
  return [
    { title },
    { name: "description", content: DESCRIPTION },
    { tagName: "link", rel: "canonical", href: pageUrl },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: company.name },
    { property: "og:locale", content: "en_GB" },
    { property: "og:title", content: title },
    { property: "og:description", content: DESCRIPTION },
    { property: "og:url", content: pageUrl },
    { property: "og:image", content: image },
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: String(SHARE_IMAGE.width) },
    { property: "og:image:height", content: String(SHARE_IMAGE.height) },
    { property: "og:image:alt", content: SHARE_IMAGE.alt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: DESCRIPTION },
    { name: "twitter:image", content: image },
    { name: "twitter:image:alt", content: SHARE_IMAGE.alt },
  ];
}

/**
 * JSON-LD is data, not code, so the CSP does not apply to it; it still carries
 * the nonce (from where React Router's own <Scripts> takes it) so that every
 * script element of the page does, which keeps that rule simple to check.
 * React Router's meta `script:ld+json` cannot take a nonce, hence this element.
 */
function StructuredData({ value }: { value: object }) {
  const nonce = useContext(UNSAFE_FrameworkContext)?.nonce;
  // The browser hides a nonce from the DOM and React Router has none to give in the browser: not a mismatch.
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD, escaped for a script element by jsonForScript (no "<", no line separators).
      dangerouslySetInnerHTML={{ __html: jsonForScript(value) }}
    />
  );
}

/** schema.org structured data: the company as a local business, as the published site names it. */
function localBusiness(company: Company, site: SiteContent, siteUrl: string) {
  const prices = site.pricing.plans.map((plan) => plan.pricePence);
  const hours = openingHours(site.hours);
  return {
    "@context": "https://schema.org",
    // A LocalBusiness subtype for agencies that let and manage property.
    "@type": "RealEstateAgent",
    "@id": `${siteUrl}/#business`,
    name: company.name,
    alternateName: company.shortName === company.name ? undefined : company.shortName,
    description: DESCRIPTION,
    url: `${siteUrl}/`,
    telephone: company.phone,
    email: company.email,
    address: postalAddress(company.address),
    // COMPANY_LOGO_URL is free text: one that is no URL must not break the page.
    logo: URL.canParse(company.logoUrl, `${siteUrl}/`) ? new URL(company.logoUrl, `${siteUrl}/`).href : `${siteUrl}/icon-512.png`,
    image: `${siteUrl}${SHARE_IMAGE.path}`,
    priceRange: prices.length ? `${formatPrice(Math.min(...prices))}–${formatPrice(Math.max(...prices))}` : undefined,
    areaServed: { "@type": "Country", name: "United Kingdom" },
    // The published business hours; a week with no open day has none to give.
    openingHoursSpecification: hours.length
      ? hours.map(({ days, opens, closes }) => ({
          "@type": "OpeningHoursSpecification",
          dayOfWeek: days.map((day) => `https://schema.org/${day}`),
          opens,
          closes,
        }))
      : undefined,
  };
}

/**
 * COMPANY_ADDRESS is one line. "1 Example Street, London EC1A 1AA" (or
 * "…, London, EC1A 1AA") splits into street, town and postcode; anything
 * else is kept whole as the street address.
 */
function postalAddress(address: string) {
  const parts = /^(.+?),\s*([^,]+?)(?:,\s*|\s+)([A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})$/i.exec(address.trim());
  return {
    "@type": "PostalAddress",
    ...(parts ? { streetAddress: parts[1], addressLocality: parts[2], postalCode: parts[3]!.toUpperCase() } : { streetAddress: address }),
    addressCountry: "GB",
  };
}

/** The page is the same for every visitor: rendered once per version of the public data (platform/http/page-cache.server.ts). */
export const handle = { cacheDocument: true, hydrate: "islands" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { db, contact } = services;
  const published = await publishedSite(services);
  // Not awaited: the gallery shows its loading state while the projects are on
  // their way during client-side navigation. The server waits for it before
  // sending a document, so the projects are always in the HTML.
  const projects = listActiveProjects(db, { publicImagesUrl: services.publicImagesUrl }).catch((error: unknown) => {
    services.log.error({ err: error }, "Could not load renovation projects");
    throw error;
  });
  return {
    company: published.company,
    site: published.content,
    heroImage: published.hero,
    // The defaults shown because the published content could not be read: not a page to keep.
    degraded: published.degraded,
    // One value per origin (PUBLIC_URL or the request's), so the cached document stays shared.
    siteUrl: siteUrl(services, request),
    projects,
    formToken: await formTokenFor(services, services.clock.now()),
    retentionDays: contact.retentionDays,
  };
}

/** Headers an action sets (Retry-After on a 429, Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** The contact form posted as an HTML form: works with and without JavaScript. */
export const action = enquiryFormAction("contact", ["name", "email", "phone", "userType", "message"]);

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <LandingPage
        company={loaderData.company}
        site={loaderData.site}
        heroImage={loaderData.heroImage}
        projects={loaderData.projects}
        contactResult={actionData}
        formToken={loaderData.formToken}
        retentionDays={loaderData.retentionDays}
      />
      <StructuredData value={localBusiness(loaderData.company, loaderData.site, loaderData.siteUrl)} />
    </>
  );
}
