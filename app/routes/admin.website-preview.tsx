import { data } from "react-router";
import { WEBSITE_TEXT_ADMIN } from "~/admin/texts";
import { formTokenFor } from "~/enquiries/form-token.server";
import { LandingPage } from "~/landing/LandingPage";
import { listActiveProjects } from "~/projects/projects.server";
import { requireMember, servicesContext } from "~/services";
import { siteDefaults } from "~/website/content";
import { siteCompany } from "~/website/sections/company";
import { heroPicture, readDraft, readVersion } from "~/website/website.server";
import type { Route } from "./+types/admin.website-preview";

/** Only for the signed-in admin: never indexed, never kept by any cache. */
const PRIVATE_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" };

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Preview | ${loaderData?.company.name ?? "Website"}` }, { name: "robots", content: "noindex, nofollow" }];
}

/** The landing page as it would look with the draft, or with an earlier version (?version=N). */
export const handle = { hydrate: "islands" } as const;

export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  requireMember(args, "website");
  const services = context.get(servicesContext);
  const defaults = siteDefaults(services.company);
  const asked = new URL(request.url).searchParams.get("version");
  const number = asked !== null && /^\d{1,9}$/.test(asked) ? Number(asked) : undefined;
  if (asked !== null && number === undefined) throw data(null, { status: 404, headers: PRIVATE_HEADERS });
  const content = number === undefined ? (await readDraft(services.db, defaults)).content : await readVersion(services.db, number, defaults);
  if (!content) throw data(null, { status: 404, headers: PRIVATE_HEADERS });
  const projects = listActiveProjects(services.db, { publicImagesUrl: services.publicImagesUrl }).catch((error: unknown) => {
    services.log.error({ err: error }, "Could not load renovation projects");
    throw error;
  });
  return data(
    {
      company: siteCompany(services.company, content),
      site: content,
      heroImage: await heroPicture(services.db, content),
      version: number,
      projects,
      formToken: await formTokenFor(services, services.clock.now()),
      retentionDays: services.contact.retentionDays,
    },
    { headers: PRIVATE_HEADERS },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function WebsitePreview({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <div
        role="note"
        className="sticky top-0 z-[70] flex flex-wrap items-center justify-center gap-x-4 gap-y-1 bg-amber-300 px-4 py-2 text-center text-sm font-semibold text-amber-950"
      >
        <span>{loaderData.version === undefined ? WEBSITE_TEXT_ADMIN.previewBanner : WEBSITE_TEXT_ADMIN.previewVersionBanner(loaderData.version)}</span>
        <a href="/admin/website" className="underline underline-offset-2">
          {WEBSITE_TEXT_ADMIN.backToEditor}
        </a>
      </div>
      <LandingPage
        company={loaderData.company}
        site={loaderData.site}
        heroImage={loaderData.heroImage}
        projects={loaderData.projects}
        contactResult={undefined}
        formToken={loaderData.formToken}
        retentionDays={loaderData.retentionDays}
      />
    </>
  );
}
