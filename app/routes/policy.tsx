import { data } from "react-router";
import { SubPage } from "~/landing/SubPage";
import { siteUrl } from "~/platform/http/context";
import { servicesContext } from "~/services";
import { POLICIES } from "~/website/sections/policies";
import { policyHtml } from "~/website/policy-html.server";
import { publishedSite } from "~/website/website.server";
import type { Route } from "./+types/policy";

/**
 * /privacy, /terms, /cookies (one module, three routes in app/routes.ts): the
 * company's policy in Markdown, as HTML rendered once per text on the server
 * (policy-html.server.ts: no raw HTML, no images, safe links only). 404 while
 * the policy is not written.
 */
export const handle = { cacheDocument: true, hydrate: "islands" } as const;

function policyOf(pathname: string) {
  return POLICIES.find((policy) => policy.path === pathname.replace(/\/+$/, "").toLowerCase());
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: "Page not found" }];
  return [
    { title: `${loaderData.title} | ${loaderData.company.name}` },
    { name: "description", content: `The ${loaderData.title} of ${loaderData.company.name}.` },
    { tagName: "link", rel: "canonical", href: `${loaderData.siteUrl}${loaderData.path}` },
  ];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const policy = policyOf(new URL(request.url).pathname);
  const published = await publishedSite(services);
  const text = policy ? published.content.policies[policy.key] : "";
  if (!policy || !text) throw data(null, { status: 404 });
  return {
    company: published.company,
    site: published.content,
    degraded: published.degraded,
    siteUrl: siteUrl(services, request),
    title: policy.title,
    path: policy.path,
    html: await policyHtml(text),
  };
}

/** Headings, lists and links of the Markdown, in the site's type. */
const PROSE =
  "text-slate-800 leading-7 [&_a]:font-semibold [&_a]:text-blue-700 [&_a]:underline [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-slate-900 [&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-semibold [&_h3]:text-slate-900 [&_li]:mt-1 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-4 [&_strong]:font-semibold [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6";

export default function Policy({ loaderData }: Route.ComponentProps) {
  return (
    <SubPage company={loaderData.company} site={loaderData.site} title={loaderData.title}>
      {/* Our own renderer's output: every text escaped, raw HTML dropped (policy-html.server.ts). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: policy-html.server.ts escapes every text and drops raw HTML. */}
      <div className={PROSE} dangerouslySetInnerHTML={{ __html: loaderData.html }} />
    </SubPage>
  );
}
