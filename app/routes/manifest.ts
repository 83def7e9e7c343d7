import { servicesContext } from "~/services";
import { publishedSite } from "~/website/website.server";
import type { Route } from "./+types/manifest";

/** The web app manifest, named after the company as the published site names it (a static file could not be). */
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { company } = await publishedSite(services);
  const manifest = {
    name: company.name,
    short_name: company.shortName,
    description: "Professional property management for landlords, property investors and tenants.",
    lang: "en-GB",
    start_url: "/",
    scope: "/",
    display: "browser",
    background_color: "#ffffff",
    theme_color: THEME_COLOR,
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
      { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}

/** The logo's blue (public/logo.svg). */
const THEME_COLOR = "#1d4ed8";
