import { ADDITIONAL_SERVICES, CORE_SERVICES, type Service } from "./content";
import { Icon } from "~/components/Icon";
import { CONTAINER, SectionHeader } from "./ui";

export function Services() {
  return (
    <section id="services" tabIndex={-1} aria-labelledby="services-title" className="bg-white py-20 sm:py-28">
      <div className={CONTAINER}>
        <SectionHeader id="services-title" eyebrow="What we do" title="Complete Property Management Solutions">
          Everything a rental property needs, from the first viewing to the final inventory, handled by one team you
          can reach.
        </SectionHeader>

        <ServiceGroup title="Core Management Services" services={CORE_SERVICES} featured />
        <ServiceGroup title="Additional Services" services={ADDITIONAL_SERVICES} />
      </div>
    </section>
  );
}

function ServiceGroup({ title, services, featured = false }: { title: string; services: Service[]; featured?: boolean }) {
  return (
    <div className="mt-16">
      <h3 className="flex items-center gap-4 text-xl font-bold text-slate-900">
        {title}
        <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
      </h3>
      <ul className="mt-8 grid gap-6 md:grid-cols-3">
        {services.map((service) => (
          <li
            key={service.title}
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
