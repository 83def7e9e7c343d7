import { SubPage } from "~/landing/SubPage";
import { siteUrl } from "~/platform/http/context";
import { servicesContext } from "~/services";
import type { SiteContent } from "~/website/content";
import { formatPrice } from "~/website/price";
import { FEE_BASIS_LABELS, VAT_STATEMENTS, hasFees, type SiteFee } from "~/website/sections/fees";
import { certificateLinkText } from "~/website/sections/legal";
import { publishedSite } from "~/website/website.server";
import type { Route } from "./+types/fees";

/**
 * /fees: every fee to landlords and to tenants with its amount including VAT
 * (Consumer Rights Act 2015 ss.83-87), the redress scheme and the client money
 * protection scheme: a stable address to give the property portals.
 */
export const handle = { cacheDocument: true, hydrate: "islands" } as const;

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.company.name ?? "Property Management";
  const title = `Fees | ${name}`;
  const description = `Every fee ${name} charges landlords and tenants, with amounts including VAT, and our redress and client money protection schemes.`;
  return [
    { title },
    { name: "description", content: description },
    ...(loaderData ? [{ tagName: "link", rel: "canonical", href: `${loaderData.siteUrl}/fees` }] : []),
  ];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const published = await publishedSite(services);
  return { company: published.company, site: published.content, degraded: published.degraded, siteUrl: siteUrl(services, request) };
}

function FeeTable({ caption, fees }: { caption: string; fees: SiteFee[] }) {
  return (
    // On a phone the table scrolls sideways within this region, which the keyboard can reach and scroll.
    <section
      className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-blue-700"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard to be scrolled (WCAG 2.1.1).
      tabIndex={0}
      aria-label={caption}
    >
      <table className="w-full min-w-[36rem] border-collapse text-left text-slate-800">
        <caption className="mb-3 text-left text-xl font-bold text-slate-900">{caption}</caption>
        <thead>
          <tr className="border-b-2 border-slate-300 text-sm text-slate-700">
            <th scope="col" className="py-2 pr-4 font-semibold">
              Fee
            </th>
            <th scope="col" className="py-2 pr-4 font-semibold">
              Amount (inc. VAT)
            </th>
            <th scope="col" className="py-2 pr-4 font-semibold">
              Charged
            </th>
            <th scope="col" className="py-2 pr-4 font-semibold">
              What it covers
            </th>
            <th scope="col" className="py-2 font-semibold">
              How it is calculated
            </th>
          </tr>
        </thead>
        <tbody>
          {fees.map((fee, index) => (
            <tr key={index} className="border-b border-slate-200 align-top">
              <th scope="row" className="py-3 pr-4 font-semibold">
                {fee.name}
              </th>
              <td className="py-3 pr-4 whitespace-nowrap">{formatPrice(fee.amountPence)}</td>
              <td className="py-3 pr-4 whitespace-nowrap">{FEE_BASIS_LABELS[fee.basis]}</td>
              <td className="py-3 pr-4">{fee.covers}</td>
              <td className="py-3">{fee.calculation}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Schemes({ site }: { site: SiteContent }) {
  const { legal } = site;
  if (!legal.redressScheme && !legal.cmpScheme && !legal.cmpCertificate) return null;
  return (
    <section aria-labelledby="fees-schemes" className="mt-12 rounded-xl bg-slate-50 p-6 ring-1 ring-slate-200">
      <h2 id="fees-schemes" className="text-xl font-bold text-slate-900">
        Redress and client money protection
      </h2>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        {legal.redressScheme ? (
          <div>
            <dt className="font-semibold text-slate-900">Redress scheme</dt>
            <dd className="text-slate-700">{`${legal.redressScheme}${legal.redressNumber ? `, membership number ${legal.redressNumber}` : ""}`}</dd>
          </div>
        ) : null}
        {legal.cmpScheme || legal.cmpCertificate ? (
          <div>
            <dt className="font-semibold text-slate-900">Client money protection</dt>
            {legal.cmpScheme ? (
              <dd className="text-slate-700">{`${legal.cmpScheme}${legal.cmpNumber ? `, membership number ${legal.cmpNumber}` : ""}`}</dd>
            ) : null}
            {legal.cmpCertificate ? (
              <dd className="mt-1">
                {/* The certificate itself (SI 2019/386 reg. 4): a scheme's logo alone is not enough. */}
                <a href={legal.cmpCertificate} className="font-semibold text-blue-800 underline underline-offset-2 hover:text-blue-900">
                  {certificateLinkText(legal.cmpCertificate)}
                </a>
              </dd>
            ) : null}
          </div>
        ) : null}
      </dl>
    </section>
  );
}

export default function Fees({ loaderData }: Route.ComponentProps) {
  const { company, site } = loaderData;
  const { fees } = site;
  const none = !hasFees(fees);
  return (
    <SubPage
      company={company}
      site={site}
      title="Our fees"
      intro={<p>Every fee we charge landlords and tenants, with its amount including VAT.{fees.vatStatus ? ` ${VAT_STATEMENTS[fees.vatStatus]}` : ""}</p>}
    >
      {none ? (
        <p className="text-slate-700">
          Our full list of fees is being prepared. Please{" "}
          <a href="/#contact" className="font-semibold text-blue-700 underline underline-offset-4">
            contact us
          </a>{" "}
          and we will send it to you.
        </p>
      ) : (
        <div className="space-y-12">
          {fees.landlord.length ? <FeeTable caption="Fees to landlords" fees={fees.landlord} /> : null}
          {fees.tenant.length ? <FeeTable caption="Fees to tenants" fees={fees.tenant} /> : null}
        </div>
      )}
      <Schemes site={site} />
    </SubPage>
  );
}
