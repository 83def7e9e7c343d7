import { redirect } from "react-router";
import { movedTabAddress, tabPath, tabsAllowed } from "~/admin/tabs";
import { can } from "~/auth/roles";
import { adminContext, requireMember, servicesContext } from "~/services";
import ProjectsTab, { ErrorBoundary } from "./projects/route";
import { loadProjectsTab } from "./projects/view.server";
import type { Route } from "./+types/index";

/**
 * /admin: the dashboard opens on the member's first tab: Renovation Projects,
 * as it always has, for an owner or an Editor (its forms post to
 * /admin/projects); an Enquiries member is sent on to Contact Submissions. An
 * address from before the tabs were routes (/admin?tab=contacts&filter=unread)
 * has moved for good: 301 to the tab's own (/admin/enquiries?filter=unread),
 * the rest of its query kept, where that tab's own role check answers.
 */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const { role } = context.get(adminContext);
  // Every role has a tab.
  const first = tabsAllowed((permission) => can(role, permission))[0]!;
  const moved = movedTabAddress(new URL(request.url), first);
  if (moved !== undefined) throw redirect(moved, 301);
  if (first !== "projects") throw redirect(tabPath(first));
  requireMember(args, "projects");
  return loadProjectsTab(request, context.get(servicesContext));
}

export default ProjectsTab;
export { ErrorBoundary };
