import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { ProjectsPanel } from "~/admin/ProjectsPanel";
import { FORM_TEXT } from "~/admin/texts";
import type { AdminActionData } from "~/admin/types";
import { MAX_IMAGE_BYTES, UPLOAD_TEXT } from "~/images/image-files";
import { firstOfEach, readFormEntries, readMultipartForm, withBody, type UploadedFile } from "~/platform/http/request-body.server";
import { requireMember, servicesContext } from "~/services";
import { handleProjectAction, isProjectIntent } from "./actions.server";
import { loadProjectsTab } from "./view.server";
import type { Route } from "./+types/route";

/** The Renovation Projects tab (/admin/projects, and /admin itself). */
export async function loader(args: Route.LoaderArgs) {
  requireMember(args, "projects");
  return loadProjectsTab(args.request, args.context.get(servicesContext));
}

/** Headers an action sets (Retry-After on a 429, Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** The admin's text fields: a project's description is the longest. */
const PROJECT_FIELDS_LIMIT = 64 * 1024;

/**
 * A project's actions, by the form field `intent`: create, update, show or
 * hide, move, delete. A project form without JavaScript is multipart and
 * carries its two images; with JavaScript the images were uploaded already
 * and the form refers to them. Outside the role: 403 before the body is read.
 */
export async function action(args: Route.ActionArgs) {
  requireMember(args, "projects");
  return projectAction(args);
}

const projectAction = withBody(
  readProjectForm,
  (refusal) => data<AdminActionData>({ notice: { kind: "error", text: refusal.message } }, { status: refusal.status, headers: refusal.headers }),
  async (args: Route.ActionArgs, { fields, files }) => {
    const { actor } = requireMember(args, "projects");
    const { db, storage, log } = args.context.get(servicesContext);
    if (!isProjectIntent(fields.intent)) return data<AdminActionData>({ notice: { kind: "error", text: "Unknown action." } }, { status: 400 });
    return handleProjectAction({ db, storage, log }, fields.intent, fields, files, actor);
  },
);

/** Multipart with the two images (a project form without JavaScript), or a plain form. */
async function readProjectForm(request: Request): Promise<{ fields: Record<string, string>; files: Record<string, UploadedFile> }> {
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    return readMultipartForm(request, {
      fileFields: ["before_image_file", "after_image_file"],
      maxFileBytes: MAX_IMAGE_BYTES,
      fileTooLarge: UPLOAD_TEXT.failedWith(UPLOAD_TEXT.tooLarge),
      maxFieldBytes: PROJECT_FIELDS_LIMIT,
      unreadable: FORM_TEXT.notUnderstood,
    });
  }
  return { fields: firstOfEach(await readFormEntries(request, PROJECT_FIELDS_LIMIT, FORM_TEXT.notUnderstood)), files: {} };
}

export default function ProjectsTab({ loaderData, actionData }: Route.ComponentProps) {
  return <ProjectsPanel view={loaderData.projects} actionData={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
