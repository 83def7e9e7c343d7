import { PROJECTS_TEXT, DASHBOARD_TEXT } from "./texts";
import type { ProjectsView } from "./types";

/** The Renovation Projects tab: every project in display order, as the homepage will show the active ones. */
export function ProjectsPanel({ view }: { view: ProjectsView }) {
  return (
    <section aria-labelledby="projects-heading">
      <h2 id="projects-heading" className="text-2xl font-bold text-slate-900">
        {DASHBOARD_TEXT.projectsTab}
      </h2>
      {view.status === "error" ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800">
          {PROJECTS_TEXT.loadFailure}
        </p>
      ) : view.projects.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">
          {PROJECTS_TEXT.empty}
        </p>
      ) : (
        <ul className="mt-6 space-y-4">
          {view.projects.map((project) => (
            <li key={project.id} className="flex flex-wrap gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="flex gap-2">
                <img src={project.before_image_url} alt={`Before: ${project.title}`} width={96} height={72} loading="lazy" className="h-18 w-24 rounded-md object-cover" />
                <img src={project.after_image_url} alt={`After: ${project.title}`} width={96} height={72} loading="lazy" className="h-18 w-24 rounded-md object-cover" />
              </div>
              <div className="min-w-0 flex-1">
                <h3 className="flex flex-wrap items-center gap-2 text-lg font-semibold text-slate-900">
                  {project.title}
                  <span
                    className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${
                      project.is_active ? "bg-green-100 text-green-900 ring-green-300" : "bg-slate-100 text-slate-800 ring-slate-300"
                    }`}
                  >
                    {project.is_active ? PROJECTS_TEXT.active : PROJECTS_TEXT.inactive}
                  </span>
                </h3>
                <p className="text-sm text-slate-600">{project.category}</p>
                <p className="mt-2 text-slate-800">{project.description}</p>
                <p className="mt-2 flex flex-wrap gap-x-6 text-sm text-slate-700">
                  <span>Duration: {project.duration}</span>
                  <span>Budget: {project.budget}</span>
                  <span>Order: {project.display_order}</span>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
