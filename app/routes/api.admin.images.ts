import { MAX_IMAGE_BYTES, UPLOAD_TEXT } from "~/images/image-files";
import { saveImage } from "~/images/images.server";
import { ImageError } from "~/images/process.server";
import { requireMember, servicesContext } from "~/services";
import { jsonRefusal, readMultipartForm, withBody } from "~/platform/http/request-body.server";
import type { Log } from "~/platform/observe/log.server";
import type { Actor } from "~/audit/actor";
import type { Route } from "./+types/api.admin.images";

/**
 * POST /api/admin/images: one image (multipart field `file`) into the bucket.
 * Answers 201 `{ url, name, width, height }`, or 4xx `{ error }` in the words
 * the upload area shows after "Upload failed: ". The admin's upload field
 * calls it as soon as a file is chosen, with real progress; the project form
 * then refers to the URL. (Without JavaScript the project form carries the
 * files itself.)
 */
export async function action(args: Route.ActionArgs) {
  if (args.request.method !== "POST") {
    return Response.json({ error: "Use POST to upload an image." }, { status: 405, headers: { Allow: "POST" } });
  }
  // The project form's uploads (Renovation Projects); the Website tab sends its files with its own form.
  requireMember(args, "projects");
  return upload(args);
}

const upload = withBody(
  (request) =>
    readMultipartForm(request, {
      fileFields: ["file"],
      maxFileBytes: MAX_IMAGE_BYTES,
      fileTooLarge: UPLOAD_TEXT.tooLarge,
      maxFieldBytes: 1024,
      unreadable: UPLOAD_TEXT.unreadable,
    }),
  jsonRefusal,
  async (args: Route.ActionArgs, { files }) => {
    const { db, storage, log } = args.context.get(servicesContext);
    const { actor } = requireMember(args, "projects");
    const file = files.file;
    if (!file) return Response.json({ error: "Please choose an image to upload." }, { status: 400 });
    return storeUpload({ db, storage }, log, file.bytes, actor);
  },
);

async function storeUpload(services: Parameters<typeof saveImage>[0], log: Log, bytes: Buffer, actor: Actor): Promise<Response> {
  try {
    const image = await saveImage(services, bytes, actor);
    return Response.json({ url: image.url, name: image.name, width: image.width, height: image.height }, { status: 201, headers: { Location: image.url } });
  } catch (error) {
    if (error instanceof ImageError) return Response.json({ error: error.message }, { status: error.status });
    log.error({ err: error }, "Could not store an uploaded image");
    return Response.json({ error: "The image could not be stored. Please try again." }, { status: 503 });
  }
}
