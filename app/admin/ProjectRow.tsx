import { useEffect, useId, useRef } from "react";
import { Form, Link, useFetcher } from "react-router";
import { Icon, type IconName } from "~/components/Icon";
import { ResponsiveImage } from "~/components/ResponsiveImage";
import type { RenovationProject } from "~/projects/types";
import { PROJECTS_TEXT } from "./texts";
import type { AdminActionData } from "./types";
import { tabPath } from "./tabs";
import { isFocusFallback } from "./NoticeRegion";
import { useHydrated } from "./use-hydrated";
import { rowFetcherKey } from "./RowResults";

/** The Renovation Projects tab: its forms post here, and its links lead here. */
const PROJECTS_PATH = tabPath("projects");

const ACTION_BUTTON =
  "inline-flex min-h-9 items-center gap-1.5 rounded-lg bg-white px-3 py-1.5 text-sm font-medium ring-1 transition-colors disabled:cursor-not-allowed disabled:opacity-50 aria-busy:cursor-wait";

/** One project in the admin's list: what the homepage shows of it, and its actions (SPEC §2). */
export function ProjectRow({
  project,
  isFirst,
  isLast,
  confirmingDelete,
}: {
  project: RenovationProject;
  isFirst: boolean;
  isLast: boolean;
  /** Without JavaScript: this project's delete is waiting for confirmation on the page. */
  confirmingDelete: boolean;
}) {
  // Its answers reach the panel through <RowResults>, which outlives a deleted row.
  const fetcher = useFetcher<AdminActionData>({ key: rowFetcherKey("project", project.id) });
  const titleId = useId();
  const hydrated = useHydrated();
  const pendingIntent = fetcher.formData?.get("intent");
  const pendingDirection = fetcher.formData?.get("direction");
  // Optimistic: the new status shows at once; the server's answer settles it.
  const active = pendingIntent === "toggle-project" ? fetcher.formData?.get("active") === "true" : project.is_active;
  const deleting = pendingIntent === "delete-project";
  const busy = fetcher.state !== "idle";

  // A moved row is taken out of the page and put back: give focus back to the button that was used.
  const moveUp = useRef<HTMLButtonElement>(null);
  const moveDown = useRef<HTMLButtonElement>(null);
  const lastMove = useRef<"up" | "down" | null>(null);
  if (pendingDirection === "up" || pendingDirection === "down") lastMove.current = pendingDirection;
  useEffect(() => {
    if (fetcher.state !== "idle" || !lastMove.current) return;
    const wanted = lastMove.current === "up" ? moveUp.current : moveDown.current;
    const other = lastMove.current === "up" ? moveDown.current : moveUp.current;
    lastMove.current = null;
    const active = document.activeElement;
    if (isFocusFallback(active) || active === wanted || active === other) {
      (wanted && !wanted.disabled ? wanted : other)?.focus();
    }
  }, [fetcher.state, isFirst, isLast]);

  const hidden = (name: string, value: string) => <input type="hidden" name={name} value={value} />;

  return (
    <li>
      <article
        aria-labelledby={titleId}
        aria-busy={deleting || undefined}
        className={`flex flex-col gap-4 rounded-xl border bg-white p-4 shadow-sm transition-opacity sm:flex-row sm:p-5 ${
          active ? "border-slate-200" : "border-dashed border-slate-300 bg-slate-50"
        } ${deleting ? "opacity-60" : ""}`}
      >
        <div className="flex shrink-0 gap-2">
          <Thumbnail src={project.before_image_url} sources={project.before_image_sources} alt={project.before_image_alt} label="Before" />
          <Thumbnail src={project.after_image_url} sources={project.after_image_sources} alt={project.after_image_alt} label="After" />
        </div>

        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={titleId} className="text-lg font-semibold [overflow-wrap:anywhere] text-slate-900">
              {project.title}
            </h3>
            <span
              className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${
                active ? "bg-green-100 text-green-900 ring-green-300" : "bg-slate-200 text-slate-800 ring-slate-400"
              }`}
            >
              {active ? PROJECTS_TEXT.active : PROJECTS_TEXT.inactive}
            </span>
          </div>
          <p className="text-sm text-slate-600">{project.category}</p>
          <p className="mt-2 text-slate-800 [overflow-wrap:anywhere] whitespace-pre-line">{project.description}</p>
          <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
            <div className="flex gap-1">
              <dt>{PROJECTS_TEXT.labels.duration}:</dt>
              <dd className="font-medium text-slate-900">{project.duration}</dd>
            </div>
            <div className="flex gap-1">
              <dt>{PROJECTS_TEXT.labels.budget}:</dt>
              <dd className="font-medium text-slate-900">{project.budget}</dd>
            </div>
            <div className="flex gap-1">
              <dt>{PROJECTS_TEXT.labels.order}:</dt>
              <dd className="font-medium text-slate-900">{project.display_order}</dd>
            </div>
          </dl>

          {confirmingDelete ? (
            <div role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 p-4">
              <p className="text-sm text-red-900">{PROJECTS_TEXT.deleteConfirm}</p>
              <div className="mt-3 flex flex-wrap gap-2">
                <form method="post" action={PROJECTS_PATH}>
                  {hidden("intent", "delete-project")}
                  {hidden("id", project.id)}
                  {hidden("confirmed", "yes")}
                  <button type="submit" className={`${ACTION_BUTTON} bg-red-700 text-white ring-red-700 hover:bg-red-800`}>
                    {PROJECTS_TEXT.delete}
                  </button>
                </form>
                <Link to={PROJECTS_PATH} className={`${ACTION_BUTTON} text-slate-800 ring-slate-300 hover:bg-slate-50`}>
                  {PROJECTS_TEXT.cancel}
                </Link>
              </div>
            </div>
          ) : null}

          <div className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-3">
            <fetcher.Form method="post" action={PROJECTS_PATH} onSubmit={(event) => busy && event.preventDefault()}>
              {hidden("intent", "move-project")}
              {hidden("id", project.id)}
              {hidden("direction", "up")}
              <ActionButton buttonRef={moveUp} icon="chevronUp" label={PROJECTS_TEXT.moveUp} disabled={isFirst} busy={busy} />
            </fetcher.Form>
            <fetcher.Form method="post" action={PROJECTS_PATH} onSubmit={(event) => busy && event.preventDefault()}>
              {hidden("intent", "move-project")}
              {hidden("id", project.id)}
              {hidden("direction", "down")}
              <ActionButton buttonRef={moveDown} icon="chevronDown" label={PROJECTS_TEXT.moveDown} disabled={isLast} busy={busy} />
            </fetcher.Form>
            <fetcher.Form method="post" action={PROJECTS_PATH}>
              {hidden("intent", "toggle-project")}
              {hidden("id", project.id)}
              {hidden("active", active ? "false" : "true")}
              <ActionButton icon={active ? "eyeSlash" : "eye"} label={active ? PROJECTS_TEXT.hide : PROJECTS_TEXT.show} disabled={deleting} />
            </fetcher.Form>
            <Form method="get" action={PROJECTS_PATH} preventScrollReset>
              {hidden("edit", project.id)}
              <ActionButton icon="pencil" label={PROJECTS_TEXT.edit} disabled={deleting} dataEditFor={project.id} />
            </Form>
            <fetcher.Form
              method="post"
              action={PROJECTS_PATH}
              onSubmit={(event) => {
                // Asks with the browser's own dialog; without JavaScript the page asks instead.
                if (!window.confirm(PROJECTS_TEXT.deleteConfirm)) event.preventDefault();
              }}
            >
              {hidden("intent", "delete-project")}
              {hidden("id", project.id)}
              {hydrated ? hidden("confirmed", "yes") : null}
              <ActionButton icon="trash" label={PROJECTS_TEXT.delete} disabled={deleting} danger />
            </fetcher.Form>
          </div>
        </div>
      </article>
    </li>
  );
}

function ActionButton({
  icon,
  label,
  disabled,
  busy,
  danger,
  buttonRef,
  dataEditFor,
}: {
  icon: IconName;
  label: string;
  disabled: boolean;
  /** A request of this row is on its way: unavailable, but still focusable (`disabled` would drop the focus). */
  busy?: boolean;
  danger?: boolean;
  buttonRef?: React.Ref<HTMLButtonElement>;
  /** Marks a row's Edit button, so focus can return to it when its form closes. */
  dataEditFor?: string;
}) {
  return (
    <button
      ref={buttonRef}
      type="submit"
      disabled={disabled}
      aria-disabled={busy || undefined}
      data-edit-for={dataEditFor}
      className={`${ACTION_BUTTON} ${danger ? "text-red-800 ring-red-300 hover:bg-red-50" : "text-slate-800 ring-slate-300 hover:bg-slate-50"}`}
    >
      <Icon name={icon} className="size-4" />
      {label}
    </button>
  );
}

function Thumbnail({ src, sources, alt, label }: { src: string; sources: RenovationProject["before_image_sources"]; alt: string; label: string }) {
  return (
    <figure className="w-28 sm:w-32">
      <ResponsiveImage
        src={src}
        sources={sources}
        alt={alt}
        width={128}
        height={96}
        sizes="128px"
        className="aspect-[4/3] h-auto w-full rounded-md bg-slate-200 object-cover"
      />
      <figcaption className="mt-1 text-center text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</figcaption>
    </figure>
  );
}
