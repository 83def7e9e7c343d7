import { PROJECTS_TEXT } from "~/admin/texts";
import type { Notice, ProjectFormState, ProjectsView } from "~/admin/types";
import type { Db } from "~/platform/db/db.server";
import { isUuid } from "~/platform/ids";
import type { Log } from "~/platform/observe/log.server";
import { listAllProjects } from "~/projects/projects.server";
import { SAVED_NOTICES } from "./actions.server";

/**
 * What the Renovation Projects tab shows: every project in display order;
 * ?form=new opens Add New Project, ?edit=<id> Edit Project, ?notice=… says
 * what a save did. A failure to read them is logged and said on the tab.
 */
export async function loadProjectsTab(request: Request, { db, log }: { db: Db; log: Pick<Log, "error"> }): Promise<{ projects: ProjectsView }> {
  const params = new URL(request.url).searchParams;
  try {
    const list = await listAllProjects(db);
    let form: ProjectFormState | undefined;
    let notice: Notice | undefined;
    const editId = params.get("edit");
    if (params.get("form") === "new") form = { mode: "add", displayOrder: list.length };
    else if (editId !== null) {
      const project = isUuid(editId) ? list.find((candidate) => candidate.id === editId) : undefined;
      if (project) form = { mode: "edit", project };
      else notice = { kind: "error", text: PROJECTS_TEXT.notFound };
    }
    const saved = params.get("notice");
    if (saved && Object.hasOwn(SAVED_NOTICES, saved)) notice = { kind: "success", text: SAVED_NOTICES[saved as keyof typeof SAVED_NOTICES] };
    return { projects: { status: "ok", projects: list, form, notice } };
  } catch (error) {
    log.error({ err: error }, "Could not load renovation projects");
    return { projects: { status: "error" } };
  }
}
