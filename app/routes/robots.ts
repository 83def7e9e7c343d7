import { siteUrl, siteUrlCacheControl } from "~/platform/http/context";
import { servicesContext } from "~/services";
import type { Route } from "./+types/robots";

/** robots.txt: the public page may be crawled; the admin and its API may not. */
export function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const site = siteUrl(services, request);
  const body = ["User-agent: *", "Disallow: /admin", "Disallow: /api/", "", `Sitemap: ${site}/sitemap.xml`, ""].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": siteUrlCacheControl(services, 3600) },
  });
}
