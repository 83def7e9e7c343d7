import type { Company } from "~/company/company";
import type { SiteContent } from "~/website/content";
import { ABOUT_CAPTION_ICONS } from "./content";
import { Icon } from "~/components/Icon";
import { CONTAINER, SectionHeader } from "./ui";

export function About({ company, about }: { company: Company; about: SiteContent["about"] }) {
  const paragraphs = about.text
    .replaceAll("{company}", company.name)
    .split(/\n\s*\n/)
    .filter(Boolean);
  return (
    <section id="about" tabIndex={-1} aria-labelledby="about-title" className="bg-slate-50 py-20 sm:py-28">
      <div className={`${CONTAINER} grid items-center gap-16 lg:grid-cols-2`}>
        <div>
          <SectionHeader id="about-title" eyebrow={about.eyebrow} title={about.title} align="left" />
          <div className="mt-6 space-y-4 text-lg leading-8 text-slate-600">
            {paragraphs.map((paragraph, index) => (
              <p key={index}>{paragraph}</p>
            ))}
          </div>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2">
            {about.badges.map((badge, index) => (
              <li key={index} className="flex items-center gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
                <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-emerald-800">
                  <Icon name="check" className="size-5" />
                </span>
                <span className="font-semibold text-slate-900">{badge}</span>
              </li>
            ))}
          </ul>
        </div>

        <div className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-blue-700 via-blue-800 to-slate-900 p-8 text-white shadow-2xl sm:p-12">
          <div aria-hidden="true" className="absolute -top-20 -right-20 size-64 rounded-full bg-white/10" />
          <div aria-hidden="true" className="absolute -bottom-24 -left-16 size-72 rounded-full bg-white/5" />
          <Icon name="home" className="relative size-12 text-blue-200" />
          <p className="relative mt-6 text-2xl leading-snug font-semibold text-balance sm:text-3xl">{about.quote}</p>
          <ul className="relative mt-10 grid gap-4 sm:grid-cols-2">
            {about.captions.map((caption, index) => (
              <li key={index} className="rounded-2xl bg-white p-5 text-slate-900 shadow-lg">
                <Icon name={ABOUT_CAPTION_ICONS[index % ABOUT_CAPTION_ICONS.length]!} className="size-8 text-blue-700" />
                <p className="mt-3 text-lg font-bold">{caption.title}</p>
                <p className="text-sm text-slate-600">{caption.subtitle}</p>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
