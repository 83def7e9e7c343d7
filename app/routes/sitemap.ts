import { siteUrl, siteUrlCacheControl } from "~/platform/http/context";
import { servicesContext } from "~/services";
import { hasFees } from "~/website/sections/fees";
import { POLICIES } from "~/website/sections/policies";
import { publishedSite } from "~/website/website.server";
import type { Route } from "./+types/sitemap";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** sitemap.xml: the landing page, the valuation request's page, /fees once there are fees, and each policy the company has written. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const origin = siteUrl(services, request);
  const { content } = await publishedSite(services);
  const paths = [
    "/",
    "/valuation",
    ...(hasFees(content.fees) ? ["/fees"] : []),
    ...POLICIES.filter((policy) => content.policies[policy.key] !== "").map((policy) => policy.path),
  ];
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...paths.map((path) => `  <url><loc>${`${origin}${path}`.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!)}</loc></url>`),
    "</urlset>",
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": siteUrlCacheControl(services, 3600) },
  });
}
