import type { SiteContent } from "~/website/content";
import { formatPrice } from "~/website/price";
import { VAT_STATEMENTS, hasFees } from "~/website/sections/fees";
import type { SitePlan } from "~/website/sections/pricing";
import { Icon } from "~/components/Icon";
import { BUTTON_STYLES, CONTAINER, SectionHeader } from "./ui";

export function Pricing({ pricing, fees, valuationLink }: { pricing: SiteContent["pricing"]; fees: SiteContent["fees"]; valuationLink: string }) {
  const feesListed = hasFees(fees);
  return (
    <section id="pricing" tabIndex={-1} aria-labelledby="pricing-title" className="bg-white py-20 sm:py-28">
      <div className={CONTAINER}>
        <SectionHeader id="pricing-title" eyebrow="Plans" title={pricing.title}>
          {pricing.intro}
        </SectionHeader>

        <ul className="mx-auto mt-16 grid max-w-5xl items-start gap-10 lg:grid-cols-2">
          {pricing.plans.map((plan, index) => (
            <PlanCard key={index} plan={plan} vatStatus={fees.vatStatus} />
          ))}
        </ul>

        <p className="mt-12 text-center text-lg text-slate-700">
          {pricing.enterpriseQuestion}{" "}
          <a href="#contact" data-scroll-to="contact" className="font-semibold text-blue-700 underline underline-offset-4 hover:text-blue-900">
            {pricing.enterpriseLink}
          </a>{" "}
          {pricing.enterpriseRest}
        </p>
        <p className="mt-4 text-center text-lg">
          <a href="/valuation" className="font-semibold text-blue-700 underline underline-offset-4 hover:text-blue-900">
            {valuationLink}
          </a>
        </p>
        {fees.vatStatus || feesListed ? (
          <p className="mt-4 text-center text-slate-700">
            {fees.vatStatus ? VAT_STATEMENTS[fees.vatStatus] : null}
            {fees.vatStatus && feesListed ? " " : null}
            {feesListed ? (
              <a href="/fees" className="font-semibold text-blue-700 underline underline-offset-4 hover:text-blue-900">
                See all our fees
              </a>
            ) : null}
          </p>
        ) : null}
      </div>
    </section>
  );
}

const VAT_BESIDE_PRICE = { "": "", included: ", inc. VAT", "not-registered": ", no VAT" } as const;

function PlanCard({ plan, vatStatus }: { plan: SitePlan; vatStatus: SiteContent["fees"]["vatStatus"] }) {
  const popular = plan.popular;
  return (
    <li
      className={
        popular
          ? "relative rounded-3xl bg-slate-900 p-8 text-white shadow-2xl ring-2 ring-blue-600 sm:p-10"
          : "relative rounded-3xl bg-white p-8 text-slate-900 shadow-lg ring-1 ring-slate-200 sm:p-10"
      }
    >
      {popular ? (
        <p className="absolute -top-4 left-1/2 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-blue-600 px-4 py-1.5 text-sm font-semibold whitespace-nowrap text-white shadow-md">
          <Icon name="sparkles" className="size-4" />
          Most Popular
        </p>
      ) : null}
      <h3 className="flex items-center gap-3 text-2xl font-bold">
        <span
          aria-hidden="true"
          className={popular ? "size-3 rounded-full bg-slate-300 ring-4 ring-slate-300/30" : "size-3 rounded-full bg-amber-400 ring-4 ring-amber-400/30"}
        />
        {plan.name}
      </h3>
      <p className={`mt-3 leading-7 ${popular ? "text-slate-300" : "text-slate-600"}`}>{plan.description}</p>
      <p className="mt-8 flex items-baseline gap-2">
        <span className="text-5xl font-extrabold tracking-tight">{formatPrice(plan.pricePence)}</span>
        <span className={popular ? "text-slate-300" : "text-slate-600"}>
          {plan.period}
          {VAT_BESIDE_PRICE[vatStatus]}
        </span>
      </p>
      <ul className="mt-8 space-y-3">
        {plan.features.map((feature, index) => (
          <li key={index} className="flex gap-3">
            <Icon name="check" className={`mt-0.5 size-5 shrink-0 ${popular ? "text-blue-400" : "text-blue-700"}`} />
            <span className={popular ? "text-slate-100" : "text-slate-700"}>{feature}</span>
          </li>
        ))}
      </ul>
      <button type="button" data-scroll-to="contact" className={`mt-10 w-full ${popular ? BUTTON_STYLES.inverted : BUTTON_STYLES.primary}`}>
        {plan.buttonText}
      </button>
    </li>
  );
}
