import type { SiteContent } from "~/website/content";
import { DEFAULT_HERO_IMAGE, type HeroPicture } from "~/website/sections/hero";
import { Icon } from "~/components/Icon";
import { ResponsiveImage } from "~/components/ResponsiveImage";
import { CONTAINER, ScrollButton } from "./ui";

const HERO_IMAGE_CLASS = "h-auto w-full rounded-3xl bg-sky-100 shadow-2xl ring-1 ring-slate-900/10";

export function Hero({ hero, image, valuationLink }: { hero: SiteContent["hero"]; image: HeroPicture | undefined; valuationLink: string }) {
  return (
    <section
      id="home"
      tabIndex={-1}
      aria-labelledby="home-title"
      className="relative isolate overflow-hidden bg-gradient-to-b from-blue-50 via-slate-50 to-white pt-16"
    >
      {/* A soft glow as a gradient: a blur filter this size costs a phone a long first paint. */}
      <div aria-hidden="true" className="absolute -top-40 -right-40 -z-10 size-[36rem] rounded-full bg-radial from-blue-200/50 to-transparent to-70%" />
      <div className={`${CONTAINER} grid items-center gap-12 py-14 sm:py-20 lg:grid-cols-2 lg:gap-16 lg:py-24`}>
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-1.5 text-sm font-medium text-blue-800 shadow-sm ring-1 ring-blue-200">
            <Icon name="home" className="size-4" />
            {hero.eyebrow}
          </p>
          <h1 id="home-title" className="mt-6 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl xl:text-6xl">
            {hero.headline}
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-pretty text-slate-600">{hero.blurb}</p>
          <div className="mt-10 flex flex-col gap-4 sm:flex-row">
            <ScrollButton to="services">
              Our Services
              <Icon name="arrowRight" className="size-5" />
            </ScrollButton>
            <ScrollButton to="renovations" variant="secondary">
              View Renovations
            </ScrollButton>
          </div>
          <p className="mt-6">
            <a href="/valuation" className="inline-flex items-center gap-2 font-semibold text-blue-800 underline underline-offset-4 hover:text-blue-950">
              {valuationLink}
              <Icon name="arrowRight" className="size-5" />
            </a>
          </p>
        </div>

        <div className="relative">
          <div aria-hidden="true" className="absolute inset-4 -z-10 rotate-3 rounded-3xl bg-blue-700/10" />
          {image ? (
            <ResponsiveImage
              src={image.src}
              sources={image}
              alt={image.alt}
              width={image.width}
              height={image.height}
              // Half of the 1280 px container from 1024 px (padding 32 px, gap 64 px), the whole column below.
              sizes="(min-width: 1280px) 576px, (min-width: 1024px) calc(50vw - 64px), calc(100vw - 32px)"
              loading="eager"
              priority
              className={HERO_IMAGE_CLASS}
            />
          ) : (
            <img
              src={DEFAULT_HERO_IMAGE.src}
              alt={DEFAULT_HERO_IMAGE.alt}
              width={DEFAULT_HERO_IMAGE.width}
              height={DEFAULT_HERO_IMAGE.height}
              loading="eager"
              fetchPriority="high"
              decoding="async"
              className={HERO_IMAGE_CLASS}
            />
          )}
        </div>
      </div>

      <div className={`${CONTAINER} pb-16 sm:pb-20`}>
        <div className="flex flex-col gap-6 rounded-3xl bg-slate-900 px-6 py-8 text-white shadow-xl sm:px-10 lg:flex-row lg:items-center lg:justify-between">
          <div>
            <h2 className="flex items-center gap-3 text-xl font-bold sm:text-2xl">
              <Icon name="shield" className="size-7 shrink-0 text-emerald-400" />
              {hero.promiseTitle}
            </h2>
            <p className="mt-2 text-slate-300">{hero.promiseTagline}</p>
          </div>
          <ul className="flex flex-wrap gap-3">
            {hero.promises.map((promise, index) => (
              <li key={index} className="inline-flex items-center gap-2 rounded-full bg-white/10 px-4 py-2 text-sm font-semibold ring-1 ring-white/20">
                <Icon name="checkCircle" className="size-5 text-emerald-400" />
                {promise}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
