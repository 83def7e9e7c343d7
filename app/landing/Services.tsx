import { Icon } from "~/components/Icon";
import type { SiteContent } from "~/website/content";
import type { SiteService } from "~/website/sections/services";
import { CONTAINER, SectionHeader } from "./ui";

export function Services({ services }: { services: SiteContent["services"] }) {
  return (
    <section id="services" tabIndex={-1} aria-labelledby="services-title" className="bg-white py-20 sm:py-28">
      <div className={CONTAINER}>
        <SectionHeader id="services-title" eyebrow={services.eyebrow} title={services.title}>
          {services.intro}
        </SectionHeader>

        {services.groups.map((group, index) =>
          // A group the company emptied is left out rather than shown as a heading over nothing.
          group.services.length ? <ServiceGroup key={index} title={group.title} services={group.services} featured={index === 0} /> : null,
        )}
      </div>
    </section>
  );
}

function ServiceGroup({ title, services, featured = false }: { title: string; services: SiteService[]; featured?: boolean }) {
  return (
    <div className="mt-16">
      <h3 className="flex items-center gap-4 text-xl font-bold text-slate-900">
        {title}
        <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
      </h3>
      <ul className="mt-8 grid gap-6 md:grid-cols-3">
        {services.map((service, index) => (
          <li
            key={index}
            className={
              featured
                ? "rounded-2xl bg-white p-8 shadow-md ring-1 ring-slate-200 transition-shadow hover:shadow-xl"
                : "rounded-2xl bg-slate-50 p-8 ring-1 ring-slate-200 transition-shadow hover:shadow-md"
            }
          >
            <span
              className={
                featured
                  ? "inline-flex size-12 items-center justify-center rounded-xl bg-blue-700 text-white shadow-sm"
                  : "inline-flex size-12 items-center justify-center rounded-xl bg-blue-100 text-blue-800"
              }
            >
              <Icon name={service.icon} />
            </span>
            <h4 className="mt-6 text-lg font-semibold text-slate-900">{service.title}</h4>
            <p className="mt-3 leading-7 text-slate-600">{service.description}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
