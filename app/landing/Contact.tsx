import type { ReactNode } from "react";
import type { ContactActionData } from "~/enquiries/schema";
import { telHref, type Company } from "~/company/company";
import { Island } from "./Island";
import { Icon, type IconName } from "~/components/Icon";
import { CONTAINER, SectionHeader } from "./ui";
import type { SiteContent } from "~/website/content";
import { hoursRows, type SiteHours } from "~/website/sections/hours";

export function Contact({
  company,
  initialResult,
  formToken,
  retentionDays,
  privacyHref,
  texts,
  hours,
}: {
  company: Company;
  texts: SiteContent["contact"];
  hours: SiteHours;
  initialResult: ContactActionData | undefined;
  formToken: string;
  retentionDays: number | undefined;
  privacyHref: string | undefined;
}) {
  return (
    <section id="contact" tabIndex={-1} aria-labelledby="contact-title" className="bg-white py-20 sm:py-28">
      <div className={CONTAINER}>
        <SectionHeader id="contact-title" eyebrow={texts.eyebrow} title={texts.title}>
          {texts.intro}
        </SectionHeader>

        <div className="mt-16 grid gap-10 lg:grid-cols-5">
          <div className="space-y-6 lg:col-span-2">
            <div className="rounded-3xl bg-slate-900 p-8 text-white shadow-xl">
              <h3 className="text-xl font-bold">Contact details</h3>
              <address className="mt-6 space-y-6 not-italic">
                <Detail icon="phone" title="Phone" note={texts.phoneNote}>
                  <a href={telHref(company.phone)} className="font-semibold hover:underline focus-visible:outline-blue-300">
                    {company.phone}
                  </a>
                </Detail>
                <Detail icon="envelope" title="Email" note={texts.emailNote}>
                  <a href={`mailto:${company.email}`} className="font-semibold break-all hover:underline focus-visible:outline-blue-300">
                    {company.email}
                  </a>
                </Detail>
                <Detail icon="mapPin" title="Office">
                  <span className="font-semibold">{company.address}</span>
                </Detail>
              </address>
            </div>

            <div className="rounded-3xl bg-slate-50 p-8 ring-1 ring-slate-200">
              <h3 className="flex items-center gap-3 text-xl font-bold text-slate-900">
                <Icon name="clock" className="size-6 text-blue-700" />
                Business hours
              </h3>
              <dl className="mt-6 divide-y divide-slate-200">
                {hoursRows(hours).map((row) => (
                  <div key={row.days} className="flex justify-between gap-4 py-3">
                    <dt className="text-slate-700">{row.days}</dt>
                    <dd className="font-semibold text-slate-900">{row.hours}</dd>
                  </div>
                ))}
              </dl>
            </div>
          </div>

          <div className="lg:col-span-3">
            <Island name="contactForm" props={{ initialResult, formToken, retentionDays, ...(privacyHref ? { privacyHref } : {}) }} />
          </div>
        </div>
      </div>
    </section>
  );
}

function Detail({ icon, title, note, children }: { icon: IconName; title: string; note?: string; children: ReactNode }) {
  return (
    <div className="flex gap-4">
      <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-white/10 text-blue-300">
        <Icon name={icon} />
      </span>
      <div className="min-w-0">
        <p className="text-sm text-slate-300">{title}</p>
        <p className="mt-0.5 text-lg">{children}</p>
        {note ? <p className="mt-1 text-sm text-slate-300">{note}</p> : null}
      </div>
    </div>
  );
}
