import { formTokenFor } from "~/enquiries/form-token.server";
import { Island } from "~/landing/Island";
import { SubPage } from "~/landing/SubPage";
import { siteUrl } from "~/platform/http/context";
import { servicesContext } from "~/services";
import { publishedSite } from "~/website/website.server";
import type { Route } from "./+types/valuation";
import { enquiryFormAction } from "./enquiry-form.server";

/**
 * /valuation: a landlord's request for a free rental valuation (issue 22,
 * decision 057), linked from the hero and the pricing section. Its texts are
 * the Website tab's Valuation section; the form is an island that works
 * without JavaScript, stored through the contact form's own path.
 */
export const handle = { cacheDocument: true, hydrate: "islands" } as const;

export function meta({ loaderData }: Route.MetaArgs) {
  const heading = loaderData?.site.valuation.title ?? "Request a free rental valuation";
  const name = loaderData?.company.name ?? "Property Management";
  return [
    { title: `${heading} | ${name}` },
    { name: "description", content: loaderData?.site.valuation.intro ?? heading },
    ...(loaderData ? [{ tagName: "link", rel: "canonical", href: `${loaderData.siteUrl}/valuation` }] : []),
  ];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const published = await publishedSite(services);
  return {
    company: published.company,
    site: published.content,
    degraded: published.degraded,
    siteUrl: siteUrl(services, request),
    formToken: await formTokenFor(services, services.clock.now()),
    retentionDays: services.contact.retentionDays,
  };
}

/** Headers an action sets (Retry-After on a 429, Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export const action = enquiryFormAction("valuation", [
  "address",
  "postcode",
  "propertyType",
  "bedrooms",
  "occupancy",
  "letBy",
  "name",
  "email",
  "phone",
  "callTime",
  "message",
]);

export default function Valuation({ loaderData, actionData }: Route.ComponentProps) {
  const { company, site, formToken, retentionDays } = loaderData;
  return (
    <SubPage company={company} site={site} title={site.valuation.title} intro={<p>{site.valuation.intro}</p>}>
      <Island
        name="valuationForm"
        props={{ initialResult: actionData, formToken, retentionDays, ...(site.policies.privacy ? { privacyHref: "/privacy" } : {}) }}
      />
    </SubPage>
  );
}
