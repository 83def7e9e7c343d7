import { useCallback, useEffect, useRef, useState } from "react";
import { Form, useLocation } from "react-router";
import { Icon } from "~/components/Icon";
import { NoticeRegion } from "./NoticeRegion";
import { ProjectForm } from "./ProjectForm";
import { ProjectRow } from "./ProjectRow";
import { RowResults } from "./RowResults";
import { DASHBOARD_TEXT, PROJECTS_TEXT } from "./texts";
import type { AdminActionData, ProjectsView } from "./types";
import { tabPath } from "./tabs";

/** The Renovation Projects tab: its forms post here, and its links lead here. */
const PROJECTS_PATH = tabPath("projects");

/** The Renovation Projects tab: Add Project, the form when open, and every project in display order. */
export function ProjectsPanel({ view, actionData }: { view: ProjectsView; actionData: AdminActionData | undefined }) {
  const [fetched, setFetched] = useState<AdminActionData>();
  const onResult = useCallback((result: AdminActionData) => setFetched(result), []);
  const location = useLocation();
  const projects = view.status === "ok" ? view.projects : [];
  const form = view.status === "ok" ? view.form : undefined;
  // The newest word wins: a row action's answer, else the page's (a save, or no JavaScript).
  const notice = fetched?.notice ?? actionData?.notice ?? (view.status === "ok" ? view.notice : undefined);

  // A new page (a save, Add, Edit, Cancel) starts without the last row action's notice.
  useEffect(() => setFetched(undefined), [location.key]);

  // A form closed without a word (Cancel): back to the button that opened it.
  const addButton = useRef<HTMLButtonElement>(null);
  const formKey = form ? (form.mode === "edit" ? form.project.id : "new") : undefined;
  const lastForm = useRef(formKey);
  useEffect(() => {
    const previous = lastForm.current;
    lastForm.current = formKey;
    if (!previous || formKey || notice) return;
    if (document.activeElement !== document.body && document.activeElement !== null) return;
    const opener = previous === "new" ? addButton.current : document.querySelector<HTMLElement>(`[data-edit-for="${previous}"]`);
    opener?.focus();
  }, [formKey, notice]);

  return (
    <section aria-labelledby="projects-heading">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="projects-heading" className="text-2xl font-bold text-slate-900">
          {DASHBOARD_TEXT.projectsTab}
        </h2>
        {/* Hidden while a form is open: a second form would throw away what is typed in the first. */}
        {form ? null : (
          <Form method="get" action={PROJECTS_PATH} preventScrollReset>
            <input type="hidden" name="form" value="new" />
            <button
              ref={addButton}
              type="submit"
              className="inline-flex items-center gap-2 rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white shadow-sm hover:bg-blue-800"
            >
              <Icon name="plus" className="size-5" />
              {PROJECTS_TEXT.add}
            </button>
          </Form>
        )}
      </div>

      <NoticeRegion notice={notice} watch={projects} className="mt-4" />
      <RowResults kind="project" onResult={onResult} />

      {form ? <ProjectForm key={form.mode === "edit" ? form.project.id : "new"} state={form} refused={actionData?.projectForm} /> : null}

      {view.status === "error" ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800">
          {PROJECTS_TEXT.loadFailure}
        </p>
      ) : projects.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">{PROJECTS_TEXT.empty}</p>
      ) : (
        <ul aria-label={DASHBOARD_TEXT.projectsTab} className="mt-6 space-y-4">
          {projects.map((project, index) => (
            <ProjectRow
              key={project.id}
              project={project}
              isFirst={index === 0}
              isLast={index === projects.length - 1}
              confirmingDelete={actionData?.confirmDelete === project.id}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
