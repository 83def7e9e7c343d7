import { Suspense } from "react";
import { Await } from "react-router";
import { SAMPLE_PROJECT } from "~/projects/sample";
import type { RenovationProject } from "~/projects/types";
import { Island } from "./Island";
import { RENOVATION_CARD_ICONS } from "./content";
import { Spinner } from "~/components/Spinner";
import { Icon } from "~/components/Icon";
import { CONTAINER, ScrollButton, SectionHeader } from "./ui";
import type { SiteContent } from "~/website/content";

export function Renovations({ projects, texts }: { projects: Promise<RenovationProject[]>; texts: SiteContent["renovations"] }) {
  return (
    <section id="renovations" tabIndex={-1} aria-labelledby="renovations-title" className="bg-slate-50 py-20 sm:py-28">
      <div className={CONTAINER}>
        <SectionHeader id="renovations-title" eyebrow={texts.eyebrow} title={texts.title}>
          {texts.intro}
        </SectionHeader>

        <div className="mt-14">
          <Suspense fallback={<GalleryLoading />}>
            <Await resolve={projects} errorElement={<GalleryUnavailable />}>
              {(list) => (list.length === 0 ? <GalleryEmpty /> : <Island name="gallery" props={{ projects: list }} />)}
            </Await>
          </Suspense>
        </div>

        <ul className="mt-20 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {texts.cards.map((card, index) => (
            <li key={index} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-blue-100 text-blue-800">
                <Icon name={RENOVATION_CARD_ICONS[index % RENOVATION_CARD_ICONS.length]!} />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{card.title}</h3>
              <p className="mt-2 leading-7 text-slate-600">{card.description}</p>
            </li>
          ))}
        </ul>

        <div className="mt-12 flex flex-col items-center gap-4 text-center">
          <p className="text-lg text-slate-700">Planning work on your property? Let&apos;s talk it through.</p>
          <ScrollButton to="contact">
            Get Free Consultation
            <Icon name="arrowRight" className="size-5" />
          </ScrollButton>
        </div>
      </div>
    </section>
  );
}

function GalleryLoading() {
  return (
    <div
      role="status"
      className="flex flex-col items-center justify-center gap-4 rounded-3xl border-2 border-dashed border-slate-300 bg-white px-6 py-24 text-slate-600"
    >
      <Spinner className="size-10 text-blue-700" />
      <p className="font-medium">Loading renovation projects...</p>
    </div>
  );
}

function GalleryEmpty() {
  return (
    <div className="flex flex-col items-center rounded-3xl bg-white px-6 py-16 text-center shadow-sm ring-1 ring-slate-200">
      <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-blue-100 text-blue-800">
        <Icon name="sparkles" className="size-7" />
      </span>
      <h3 className="mt-6 text-2xl font-bold text-slate-900">Property Renovation Services</h3>
      <p className="mt-3 max-w-xl leading-7 text-slate-600">
        Our project gallery is being updated. Check back soon to see our latest before-and-after transformations, or get in touch to talk about your own
        property.
      </p>
    </div>
  );
}

/** The gallery could not be loaded: the bundled sample instead of a hole (the island says so in the console). */
function GalleryUnavailable() {
  return <Island name="gallery" props={{ projects: [SAMPLE_PROJECT], unavailable: true }} />;
}
