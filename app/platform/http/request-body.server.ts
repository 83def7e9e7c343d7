import { BodyError, bodyErrorHeaders, mediaType, nodeBodySource, readBytes, readForm, utf8, type BodySource, type UploadedFile } from "./body-reading.server";

/*
 * The one edge where request bodies are read (docs/decisions/025, 036): with a
 * hard size cap, counted as the bytes arrive, so an oversized request never
 * sits in memory, and every body that is not the form (or JSON) asked for
 * becomes a BodyError, a 4xx with a clear message, never an exception: a
 * body that cannot be read as the form is refused with the form's own
 * message. Multipart is split by @remix-run/multipart-parser within its
 * limits and its parts read by us (body-reading.server.ts); a url-encoded
 * form by the platform's URLSearchParams once it is known to be UTF-8; JSON by
 * us. `withBody` turns a refusal into each route's answer in one place.
 */
export { BodyError, bodyErrorHeaders, nodeBodySource, type BodySource, type UploadedFile };

export const CONTACT_BODY_LIMIT = 64 * 1024;
/** Admin forms (sign-in, card actions) are a few short fields. */
export const ADMIN_FORM_LIMIT = 16 * 1024;

function decodeUtf8(bytes: Uint8Array): string {
  const text = utf8(bytes);
  if (text === undefined) throw new BodyError(400, "Request body must be UTF-8 text");
  return text;
}

const tooLargeFor = (limit: number) => () => new BodyError(413, `Request body must be at most ${Math.round(limit / 1024)} KB`);

/** A JSON object body (the API), from a fetch Request or Node's request (nodeBodySource). */
export async function readJsonObject(request: BodySource, limit: number): Promise<Record<string, unknown>> {
  const type = mediaType(request);
  if (type !== "application/json" && !/^application\/[\w.+-]+\+json$/.test(type)) {
    throw new BodyError(415, "Content-Type must be application/json");
  }
  const invalid = () => new BodyError(400, "Request body must be valid JSON");
  const text = decodeUtf8(await readBytes(request, limit, { tooLarge: tooLargeFor(limit), cutOff: invalid }));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid();
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new BodyError(400, "Request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/**
 * At most this many fields in a form. The byte limit is what bounds the work;
 * this only keeps a form of thousands of empty fields out. It must stay above
 * what a real form sends: the inbox's bulk actions send up to 200 ids plus
 * their intent, and one more id than that must reach the route, which refuses
 * it with its own message ("Select at most 200 submissions at a time.").
 */
const MAX_FIELDS = 1000;

/**
 * An HTML form body (urlencoded or multipart, text fields only), as plain
 * string fields; a field sent more than once keeps its first value (see
 * readFormEntries). `unreadable` is the form's own message for a body that
 * cannot be read as it.
 */
export async function readFormFields(request: Request, limit: number, unreadable: string): Promise<Record<string, string>> {
  return firstOfEach(await readFormEntries(request, limit, unreadable));
}

/**
 * An HTML form body's fields in order, repeats included (checkboxes of one
 * name). The form has no file input, so a file part is not this form: refused
 * with `unreadable`, as is text that is not UTF-8 and multipart that does not
 * parse.
 */
export async function readFormEntries(request: Request, limit: number, unreadable: string): Promise<Array<[string, string]>> {
  const type = mediaType(request);
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") {
    throw new BodyError(415, "Content-Type must be application/x-www-form-urlencoded or multipart/form-data");
  }
  return readForm(request, { maxTotalSize: limit, maxParts: MAX_FIELDS, maxFileSize: limit }, { tooLarge: tooLargeFor(limit), unreadable }, () => {
    throw new BodyError(400, unreadable);
  });
}

/** The first value of each name, in a record with no prototype: a field named "__proto__" or "constructor" is just a field. */
export function firstOfEach(entries: ReadonlyArray<[string, string]>): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of entries) {
    if (!Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}

/**
 * A multipart/form-data body with files: each file is capped while it
 * arrives (a 1 GB upload is abandoned after the first 10 MB and never reaches
 * disk), fields are capped in number and size, and only the file fields the
 * caller names are kept, one file each.
 */
export type MultipartLimits = {
  /** The file fields to keep; a file in any other field is refused. */
  fileFields: readonly string[];
  /** A file of this many bytes or more is refused. */
  maxFileBytes: number;
  /** The message of a 413 for a file that is too large. */
  fileTooLarge: string;
  /** Text fields: total bytes. */
  maxFieldBytes: number;
  /** The form's own message for a body that cannot be read as it (a 400). */
  unreadable: string;
};

export type MultipartForm = { fields: Record<string, string>; files: Record<string, UploadedFile> };

export async function readMultipartForm(request: Request, limits: MultipartLimits): Promise<MultipartForm> {
  if (mediaType(request) !== "multipart/form-data") {
    throw new BodyError(415, "Content-Type must be multipart/form-data");
  }
  const files: Record<string, UploadedFile> = Object.create(null);
  const keep = (upload: UploadedFile) => {
    if (!limits.fileFields.includes(upload.field)) throw new BodyError(400, limits.unreadable);
    // A file input left empty still sends a part, with no file name and no bytes (nor is an empty file an image).
    if (upload.bytes.byteLength === 0) return;
    // "One file only": a second file for one field.
    if (Object.hasOwn(files, upload.field)) throw new BodyError(400, "Too many files");
    files[upload.field] = upload;
  };
  const entries = await readForm(
    request,
    {
      // The parser refuses a file larger than maxFileSize: ours refuses one of maxFileBytes ("under 10MB").
      maxFileSize: limits.maxFileBytes - 1,
      maxParts: limits.fileFields.length + 50,
      maxTotalSize: limits.fileFields.length * limits.maxFileBytes + limits.maxFieldBytes + 64 * 1024,
    },
    { tooLarge: () => new BodyError(413, limits.fileTooLarge), unreadable: limits.unreadable },
    keep,
  );
  let fieldBytes = 0;
  for (const [name, value] of entries) fieldBytes += name.length + value.length;
  if (fieldBytes > limits.maxFieldBytes) throw new BodyError(413, "The form's text fields are too long");
  return { fields: firstOfEach(entries), files };
}

/** A refused body, as a route answers it: the status, the message, and the headers a refusal needs. */
export type BodyRefusal = { status: 400 | 413 | 415; message: string; headers: HeadersInit };

/**
 * An action that reads its body first: `read` parses it (one of the readers
 * above), and a BodyError becomes the route's answer through `refuse`, in the
 * route's own shape (JSON for an API, the page's action data for a form).
 */
export function withBody<Args extends { request: Request }, Body, Result>(
  read: (request: Request) => Promise<Body>,
  refuse: (refusal: BodyRefusal, args: Args) => Result,
  handle: (args: Args, body: Body) => Promise<Result>,
): (args: Args) => Promise<Result> {
  return async (args) => {
    let body: Body;
    try {
      body = await read(args.request);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      return refuse({ status: error.status, message: error.message, headers: bodyErrorHeaders(error) }, args);
    }
    return handle(args, body);
  };
}

/** The answer of a JSON API to a refused body: `{ error }` with the status. */
export function jsonRefusal(refusal: BodyRefusal): Response {
  return Response.json({ error: refusal.message }, { status: refusal.status, headers: refusal.headers });
}
