import { siteUrl, siteUrlCacheControl } from "~/platform/context";
import { servicesContext } from "~/services";
import type { Route } from "./+types/sitemap";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** sitemap.xml: the site has one public page, the landing page. */
export function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const home = `${siteUrl(services, request)}/`;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    `  <url><loc>${home.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!)}</loc></url>`,
    "</urlset>",
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": siteUrlCacheControl(services, 3600) },
  });
}
