import { redirect } from "react-router";
import { movedTabAddress } from "~/admin/tabs";
import { servicesContext } from "~/services";
import ProjectsTab, { ErrorBoundary } from "./projects/route";
import { loadProjectsTab } from "./projects/view.server";
import type { Route } from "./+types/index";

/**
 * /admin: the dashboard opens on its first tab, Renovation Projects, as it
 * always has (its forms post to /admin/projects). An address from before the
 * tabs were routes (/admin?tab=contacts&filter=unread) has moved for good:
 * 301 to the tab's own (/admin/enquiries?filter=unread), the rest of its query kept.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const moved = movedTabAddress(new URL(request.url));
  if (moved !== undefined) throw redirect(moved, 301);
  return loadProjectsTab(request, context.get(servicesContext));
}

export default ProjectsTab;
export { ErrorBoundary };
