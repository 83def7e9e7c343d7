import { servicesContext } from "~/platform/context";
import { listActiveProjects } from "~/projects/projects.server";
import type { Route } from "./+types/api.projects";

/** GET /api/projects: the active projects, in display order. */
export async function loader({ context }: Route.LoaderArgs) {
  const projects = await listActiveProjects(context.get(servicesContext).db);
  return Response.json(projects, { headers: { "Cache-Control": "no-cache" } });
}
