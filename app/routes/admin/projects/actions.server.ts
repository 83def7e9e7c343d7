import { data, redirect } from "react-router";
import type { Actor } from "~/audit/actor";
import { UPLOAD_TEXT, imageNameFromUrl } from "~/images/image-files";
import { removeImageIfUnused, saveImage, type ImageServices, type StoredImage } from "~/images/images.server";
import { ImageError } from "~/images/process.server";
import type { Log } from "~/platform/observe/log.server";
import type { UploadedFile } from "~/platform/http/request-body.server";
import { PROJECT_FORM_TEXT, parseProjectFields, type ProjectFormErrors, type ProjectFormValues } from "~/projects/project-form";
import { createProject, deleteProject, getProject, moveProject, setProjectActive, updateProject } from "~/projects/projects.server";
import { isUuid as isProjectId } from "~/platform/ids";
import { PROJECTS_TEXT } from "~/admin/texts";
import { tabPath } from "~/admin/tabs";
import type { AdminActionData } from "~/admin/types";

export const PROJECT_INTENTS = ["create-project", "update-project", "toggle-project", "move-project", "delete-project"] as const;
type ProjectIntent = (typeof PROJECT_INTENTS)[number];

/** What a project action needs: the images' services, and the log for what fails. */
type ProjectServices = ImageServices & { log: Pick<Log, "warn" | "error"> };

export function isProjectIntent(intent: string | undefined): intent is ProjectIntent {
  return (PROJECT_INTENTS as readonly string[]).includes(intent ?? "");
}

/** After a save the page shows the list with this notice (?notice=…); a reload does not post again. */
export const SAVED_NOTICES = { "project-created": PROJECTS_TEXT.created, "project-updated": PROJECTS_TEXT.updated } as const;

const notice = (kind: "success" | "error", text: string, status: number) => data<AdminActionData>({ notice: { kind, text } }, { status });

/**
 * The Renovation Projects actions, for the signed-in admin (routes/admin-guard.tsx). Bad input and unknown
 * ids answer 4xx with SPEC §8's message and change nothing; a database
 * failure answers 503. Files of a replaced or deleted project are removed
 * only after the change has committed, and a failed removal is a warning.
 */
export async function handleProjectAction(
  services: ProjectServices,
  intent: ProjectIntent,
  fields: Record<string, string>,
  files: Record<string, UploadedFile>,
  actor: Actor,
) {
  const { db } = services;
  const id = fields.id;
  switch (intent) {
    case "create-project":
    case "update-project":
      return saveProject(services, intent === "update-project" ? id : undefined, fields, files, actor);

    case "toggle-project": {
      if (!isProjectId(id) || (fields.active !== "true" && fields.active !== "false")) {
        return notice("error", PROJECTS_TEXT.statusFailure, 400);
      }
      try {
        if (!(await setProjectActive(db, id, fields.active === "true", actor))) return notice("error", PROJECTS_TEXT.notFound, 404);
      } catch (error) {
        services.log.error({ err: error }, "Could not update a project's status");
        return notice("error", PROJECTS_TEXT.statusFailure, 503);
      }
      return notice("success", fields.active === "true" ? PROJECTS_TEXT.shown : PROJECTS_TEXT.hidden, 200);
    }

    case "move-project": {
      const direction = fields.direction;
      if (!isProjectId(id) || (direction !== "up" && direction !== "down")) {
        return notice("error", PROJECTS_TEXT.orderFailure, 400);
      }
      let result;
      try {
        result = await moveProject(db, id, direction, actor);
      } catch (error) {
        services.log.error({ err: error }, "Could not change the display order");
        return notice("error", PROJECTS_TEXT.orderFailure, 503);
      }
      if (result === "not-found") return notice("error", PROJECTS_TEXT.notFound, 404);
      if (result === "at-edge") {
        return notice("error", direction === "up" ? PROJECTS_TEXT.alreadyFirst : PROJECTS_TEXT.alreadyLast, 409);
      }
      return notice("success", PROJECTS_TEXT.moved, 200);
    }

    case "delete-project": {
      if (!isProjectId(id)) return notice("error", PROJECTS_TEXT.deleteFailure, 400);
      // Without JavaScript nothing has asked yet: the page asks, then posts again with confirmed=yes.
      if (fields.confirmed !== "yes") return data<AdminActionData>({ confirmDelete: id });
      let deleted;
      try {
        deleted = await deleteProject(db, id, actor);
      } catch (error) {
        services.log.error({ err: error }, "Could not delete a project");
        return notice("error", PROJECTS_TEXT.deleteFailure, 503);
      }
      if (!deleted) return notice("error", PROJECTS_TEXT.notFound, 404);
      await removeImageIfUnused(services, deleted.before_image_url);
      await removeImageIfUnused(services, deleted.after_image_url);
      return notice("success", PROJECTS_TEXT.deleted, 200);
    }
  }
}

type Side = "before" | "after";

async function saveProject(
  services: ProjectServices,
  id: string | undefined,
  fields: Record<string, string>,
  files: Record<string, UploadedFile>,
  actor: Actor,
) {
  const { db } = services;
  const refuse = (values: ProjectFormValues, errors: ProjectFormErrors, text: string, status: number) =>
    data<AdminActionData>({ notice: { kind: "error", text }, projectForm: { values, errors } }, { status });

  if (id !== undefined && !isProjectId(id)) return notice("error", PROJECTS_TEXT.saveFailure, 400);
  const { values, errors, message, parsed } = parseProjectFields(fields);

  let existing;
  try {
    existing = id === undefined ? undefined : await getProject(db, id);
  } catch (error) {
    services.log.error({ err: error }, "Could not load a project to save it");
    return refuse(values, errors, PROJECTS_TEXT.saveFailure, 503);
  }
  if (id !== undefined && !existing) return notice("error", PROJECTS_TEXT.notFound, 404);

  // Images: a file sent with the form (no JavaScript), else the URL of an
  // upload made here, else (editing) the image the project already has.
  const uploadedNow: StoredImage[] = [];
  const urls: Record<Side, string> = { before: "", after: "" };
  for (const side of ["before", "after"] as const) {
    const file = files[`${side}_image_file`];
    const url = values[`${side}_image_url`];
    if (file) {
      try {
        const image = await saveImage(services, file.bytes, actor);
        uploadedNow.push(image);
        urls[side] = image.url;
        // Kept in the form if something else is refused, so it is not sent twice.
        values[`${side}_image_url`] = image.url;
      } catch (error) {
        if (!(error instanceof ImageError)) {
          services.log.error({ err: error }, "Could not store an uploaded image");
        }
        errors[`${side}_image`] = UPLOAD_TEXT.failedWith(error instanceof ImageError ? error.message : PROJECTS_TEXT.saveFailure);
      }
    } else if (url !== "") {
      if (existing && url === existing[`${side}_image_url`]) urls[side] = url;
      else if (await isUploadedImage(services, url)) urls[side] = url;
      else values[`${side}_image_url`] = "";
    }
  }
  const imageError = errors.before_image ?? errors.after_image;
  if (message || imageError) return refuse(values, errors, message ?? imageError!, 400);
  if (!urls.before || !urls.after) {
    if (!urls.before) errors.before_image = PROJECT_FORM_TEXT.bothImages;
    if (!urls.after) errors.after_image = PROJECT_FORM_TEXT.bothImages;
    return refuse(values, errors, PROJECT_FORM_TEXT.bothImages, 400);
  }

  const project = { ...parsed!, before_image_url: urls.before, after_image_url: urls.after };
  try {
    if (id === undefined) {
      await createProject(db, project, actor);
    } else {
      const result = await updateProject(db, id, project, actor);
      if (!result) return notice("error", PROJECTS_TEXT.notFound, 404);
      // Replaced images go once the new ones are saved (SPEC §7).
      for (const side of ["before", "after"] as const) {
        const previous = result.previous[`${side}_image_url`];
        if (previous !== urls[side]) await removeImageIfUnused(services, previous);
      }
    }
  } catch (error) {
    services.log.error({ err: error }, "Could not save a project");
    for (const image of uploadedNow) await removeImageIfUnused(services, image.url);
    for (const side of ["before", "after"] as const) {
      if (uploadedNow.some((image) => image.url === values[`${side}_image_url`])) values[`${side}_image_url`] = "";
    }
    return refuse(values, errors, PROJECTS_TEXT.saveFailure, 503);
  }
  return redirect(`${tabPath("projects")}?notice=${id === undefined ? "project-created" : "project-updated"}`);
}

/** An image this server stored (a URL the form may refer to), not any URL the browser sends. */
async function isUploadedImage(services: Omit<ImageServices, "log">, url: string): Promise<boolean> {
  const name = imageNameFromUrl(url);
  if (!name) return false;
  const row = await services.db.selectFrom("images").select("name").where("name", "=", name).executeTakeFirst();
  return row !== undefined;
}
