import { useEffect, useRef, useState, type KeyboardEvent, type TouchEvent } from "react";
import type { RenovationProject } from "~/projects/types";
import { Icon, type IconName } from "~/components/Icon";
import { ResponsiveImage } from "~/components/ResponsiveImage";
import type { ResponsiveImage as Sources } from "~/images/image-files";

/** Below this horizontal distance (px) a touch is a tap or a scroll, not a swipe. */
const SWIPE_THRESHOLD = 50;

/**
 * The gallery island (islands.ts). `unavailable`: the projects could not be
 * loaded and these are the bundled sample; the server has logged why, and the
 * browser's console says so too.
 */
export function Gallery({ projects, unavailable = false }: { projects: RenovationProject[]; unavailable?: boolean }) {
  useEffect(() => {
    if (unavailable) console.error("Could not load renovation projects; showing a sample project instead.");
  }, [unavailable]);
  return <ProjectCarousel projects={projects} />;
}

/**
 * Before-and-after carousel. Every slide is in the server's HTML; the inactive
 * ones are `hidden`. All images are lazy: the gallery is below the fold, so
 * even the first slide's images wait until the visitor scrolls towards it,
 * and the hidden slides' until they are shown.
 */
export function ProjectCarousel({ projects }: { projects: RenovationProject[] }) {
  const [requestedIndex, setRequestedIndex] = useState(0);
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const count = projects.length;
  // The list can shrink when the page's data is revalidated.
  const index = Math.min(requestedIndex, count - 1);
  const current = projects[index];
  if (!current) return null;

  const show = (target: number) => setRequestedIndex(((target % count) + count) % count);
  const showPrevious = () => show(index - 1);
  const showNext = () => show(index + 1);

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === "ArrowLeft") {
      event.preventDefault();
      showPrevious();
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      showNext();
    }
  }

  function handleTouchStart(event: TouchEvent<HTMLDivElement>) {
    const touch = event.touches[0];
    touchStart.current = touch ? { x: touch.clientX, y: touch.clientY } : null;
  }

  // Only reads the gesture once it has ended and never cancels it, so the page
  // keeps scrolling under the finger; `touch-pan-y` leaves vertical panning to
  // the browser.
  function handleTouchEnd(event: TouchEvent<HTMLDivElement>) {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    touchStart.current = null;
    if (!start || !touch) return;
    const dx = touch.clientX - start.x;
    const dy = touch.clientY - start.y;
    if (Math.abs(dx) < SWIPE_THRESHOLD || Math.abs(dx) < 2 * Math.abs(dy)) return;
    if (dx < 0) showNext();
    else showPrevious();
  }

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Renovation projects, before and after"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the carousel takes ← and → when focused (WAI-ARIA APG carousel), so Tab must reach it.
      tabIndex={0}
      onKeyDown={handleKeyDown}
      className="rounded-3xl focus-visible:outline-offset-4"
    >
      {/* Above the slide: on a phone a slide is taller than the screen, so the
          controls stay within reach without scrolling past it. */}
      <div className="mb-6 flex items-center justify-between gap-4">
        <p aria-live="polite" aria-atomic="true" className="text-sm font-semibold text-slate-700">
          Project {index + 1} of {count}
          <span className="sr-only">: {current.title}</span>
        </p>
        <div className="flex gap-3">
          <button type="button" aria-label="Previous project" onClick={showPrevious} className={ARROW_BUTTON}>
            <Icon name="chevronLeft" className="size-5" />
          </button>
          <button type="button" aria-label="Next project" onClick={showNext} className={ARROW_BUTTON}>
            <Icon name="chevronRight" className="size-5" />
          </button>
        </div>
      </div>

      <div className="touch-pan-y" onTouchStart={handleTouchStart} onTouchEnd={handleTouchEnd}>
        {projects.map((project, position) => (
          <Slide key={project.id} project={project} label={`${position + 1} of ${count}`} active={position === index} />
        ))}
      </div>

      <ul className="mt-6 flex flex-wrap items-center justify-center gap-1">
        {projects.map((project, position) => (
          <li key={project.id}>
            <button
              type="button"
              aria-label={`Show project ${position + 1} of ${count}: ${project.title}`}
              aria-current={position === index ? "true" : undefined}
              onClick={() => show(position)}
              className="group flex size-7 items-center justify-center rounded-full"
            >
              <span
                className={
                  position === index
                    ? "h-2.5 w-6 rounded-full bg-blue-700 transition-all"
                    : "size-2.5 rounded-full bg-slate-500 transition-all group-hover:bg-slate-700"
                }
              />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

const ARROW_BUTTON =
  "inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-white text-slate-800 shadow-md ring-1 ring-slate-200 transition-colors hover:bg-blue-700 hover:text-white";

function Slide({ project, label, active }: { project: RenovationProject; label: string; active: boolean }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a slide is a group (WAI-ARIA APG carousel), not a <fieldset> of form controls.
    <div
      role="group"
      aria-roledescription="slide"
      aria-label={label}
      hidden={!active}
      className="animate-fade-in overflow-hidden rounded-3xl bg-white shadow-xl ring-1 ring-slate-900/5"
    >
      <div className="grid gap-1 bg-slate-100 sm:grid-cols-2">
        <ProjectImage
          src={project.before_image_url}
          sources={project.before_image_sources}
          alt={project.before_image_alt}
          label="BEFORE"
          labelClassName="bg-slate-900/85 text-white"
        />
        <ProjectImage
          src={project.after_image_url}
          sources={project.after_image_sources}
          alt={project.after_image_alt}
          label="AFTER"
          labelClassName="bg-blue-700 text-white"
        />
      </div>
      <div className="flex flex-col gap-6 p-6 sm:p-8 lg:flex-row lg:items-start lg:justify-between lg:gap-12">
        <div className="max-w-3xl">
          <p className="inline-flex rounded-full bg-blue-50 px-3 py-1 text-sm font-semibold text-blue-800 ring-1 ring-blue-200">{project.category}</p>
          <h3 className="mt-3 text-2xl font-bold tracking-tight text-slate-900">{project.title}</h3>
          <p className="mt-3 leading-7 text-slate-600">{project.description}</p>
        </div>
        <dl className="grid shrink-0 grid-cols-2 gap-4 lg:w-80">
          <ProjectFact icon="clock" label="Duration" value={project.duration} />
          <ProjectFact icon="pound" label="Investment" value={project.budget} />
        </dl>
      </div>
    </div>
  );
}

function ProjectImage({
  src,
  sources,
  alt,
  label,
  labelClassName,
}: {
  src: string;
  sources: Sources | null;
  alt: string;
  label: string;
  labelClassName: string;
}) {
  return (
    <figure className="relative bg-slate-200">
      <ResponsiveImage
        src={src}
        sources={sources}
        alt={alt}
        width={800}
        height={600}
        // Two side by side in a container of at most 1280 px from the sm breakpoint; full width below.
        sizes="(min-width: 1280px) 640px, (min-width: 640px) 50vw, 100vw"
        loading="lazy"
        className="aspect-[4/3] h-auto w-full object-cover"
      />
      <figcaption className={`absolute top-4 left-4 rounded-full px-3 py-1 text-xs font-bold tracking-widest shadow ${labelClassName}`}>{label}</figcaption>
    </figure>
  );
}

function ProjectFact({ icon, label, value }: { icon: IconName; label: string; value: string }) {
  return (
    <div className="rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <dt className="flex items-center gap-2 text-sm font-medium text-slate-600">
        <Icon name={icon} className="size-4" />
        {label}
      </dt>
      <dd className="mt-1 text-lg font-bold text-slate-900">{value}</dd>
    </div>
  );
}
