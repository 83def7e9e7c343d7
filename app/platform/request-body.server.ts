import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  parseFormData,
  type FileUpload,
} from "@remix-run/form-data-parser";

/**
 * The one edge where request bodies are read (docs/decisions/025): with a
 * hard size cap, counted as the bytes arrive, so an oversized request never
 * sits in memory, and every malformed body becomes a BodyError, a 4xx with a
 * clear message. Forms (urlencoded and multipart, with or without files) are
 * parsed by @remix-run/form-data-parser within its limits; JSON by us, as
 * that library does not read it. `withBody` turns a refusal into each route's
 * answer in one place.
 */
export class BodyError extends Error {
  override name = "BodyError";
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

export const CONTACT_BODY_LIMIT = 64 * 1024;
/** Admin forms (sign-in, card actions) are a few short fields. */
export const ADMIN_FORM_LIMIT = 16 * 1024;

/** Headers for a refusal: a 413 leaves the rest of the body unread, so the connection must not be reused. */
export function bodyErrorHeaders(error: BodyError): HeadersInit {
  return error.status === 413 ? { Connection: "close" } : {};
}

async function readBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new BodyError(413, `Request body must be at most ${Math.round(limit / 1024)} KB`);
  const declared = Number(request.headers.get("content-length"));
  // An API client is told at once; it reads the answer before it sends more (Expect: 100-continue) or is a script.
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!request.body) return new Uint8Array();

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // Stop reading but keep the socket: cancelling would destroy it before
      // the 413 is sent. The response asks to close the connection instead.
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new BodyError(400, "Request body must be UTF-8 text");
  }
}

function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** A JSON object body (the API). */
export async function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  const type = mediaType(request);
  if (type !== "application/json" && !/^application\/[\w.+-]+\+json$/.test(type)) {
    throw new BodyError(415, "Content-Type must be application/json");
  }
  const text = decodeUtf8(await readBytes(request, limit));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyError(400, "Request body must be valid JSON");
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
 * An HTML form body (urlencoded or multipart), as plain string fields; a
 * field sent more than once keeps its first value (see readFormEntries).
 */
export async function readFormFields(request: Request, limit: number): Promise<Record<string, string>> {
  return firstOfEach(await readFormEntries(request, limit));
}

/** An HTML form body's string fields in order, repeats included (checkboxes of one name); files are left out. */
export async function readFormEntries(request: Request, limit: number): Promise<Array<[string, string]>> {
  const type = mediaType(request);
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") {
    throw new BodyError(415, "Content-Type must be application/x-www-form-urlencoded or multipart/form-data");
  }
  const tooLarge = () => new BodyError(413, `Request body must be at most ${Math.round(limit / 1024)} KB`);
  const form = await parseForm(request, { maxTotalSize: limit, maxParts: MAX_FIELDS, maxFiles: MAX_FIELDS, maxFileSize: limit }, tooLarge, () => null);
  const fields: Array<[string, string]> = [];
  for (const [name, value] of form) {
    if (typeof value === "string") fields.push([name, value]);
  }
  return fields;
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
};

export type UploadedFile = { field: string; filename: string; declaredType: string; bytes: Buffer };

export type MultipartForm = { fields: Record<string, string>; files: Record<string, UploadedFile> };

export async function readMultipartForm(request: Request, limits: MultipartLimits): Promise<MultipartForm> {
  if (!/^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "")) {
    throw new BodyError(415, "Content-Type must be multipart/form-data");
  }
  const files: Record<string, UploadedFile> = Object.create(null);
  const keep = async (upload: FileUpload) => {
    // A file input left empty still sends a part, with no name and no bytes (nor is an empty file an image).
    if (upload.size === 0) return null;
    if (!limits.fileFields.includes(upload.fieldName)) throw new BodyError(400, `Unexpected file field "${upload.fieldName}"`);
    // "One file only": a second file for one field.
    if (Object.hasOwn(files, upload.fieldName)) throw new BodyError(400, "Too many files");
    files[upload.fieldName] = {
      field: upload.fieldName,
      filename: upload.name,
      declaredType: upload.type,
      bytes: Buffer.from(await upload.arrayBuffer()),
    };
    return null;
  };
  const form = await parseForm(
    request,
    {
      // The parser refuses a file larger than maxFileSize: ours refuses one of maxFileBytes ("under 10MB").
      maxFileSize: limits.maxFileBytes - 1,
      maxFiles: limits.fileFields.length,
      maxParts: limits.fileFields.length + 50,
      maxTotalSize: limits.fileFields.length * limits.maxFileBytes + limits.maxFieldBytes + 64 * 1024,
    },
    () => new BodyError(413, limits.fileTooLarge),
    keep,
  );
  const entries: Array<[string, string]> = [];
  let fieldBytes = 0;
  for (const [name, value] of form) {
    if (typeof value !== "string") continue;
    fieldBytes += name.length + value.length;
    entries.push([name, value]);
  }
  if (fieldBytes > limits.maxFieldBytes) throw new BodyError(413, "The form's text fields are too long");
  return { fields: firstOfEach(entries), files };
}

/**
 * A form through the parser, with its refusals as BodyErrors. A body cut off
 * by a limit is read on to its end (up to the limit again), discarding it: a
 * browser still sending its form would see a reset connection, not the
 * refusal. The refusal asks to close the connection (bodyErrorHeaders).
 */
async function parseForm(
  request: Request,
  limits: { maxTotalSize: number; maxParts: number; maxFiles: number; maxFileSize: number },
  tooLarge: () => BodyError,
  uploads: (upload: FileUpload) => Promise<null> | null,
): Promise<FormData> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limits.maxTotalSize) {
    // A form a little over the limit (an 11 MB photo) is read to its end and thrown away, so the
    // browser still sending it gets the refusal, not a reset; a far larger one is cut off at once.
    if (declared <= limits.maxTotalSize * 2) await drain(request, declared);
    throw tooLarge();
  }
  if (!request.body) throw new BodyError(400, "Request body is not valid form data");
  try {
    return await parseFormData(request, limits, uploads);
  } catch (error) {
    const refusal =
      error instanceof BodyError
        ? error
        : error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError
          ? tooLarge()
          : error instanceof MaxFilesExceededError
            ? new BodyError(400, "Too many files")
            : error instanceof MaxPartsExceededError
              ? new BodyError(413, "The form has too many parts")
              : error instanceof MaxHeaderSizeExceededError || error instanceof FormDataParseError
                ? new BodyError(400, "Request body is not valid form data")
                : undefined;
    if (!refusal) throw error;
    await drain(request, limits.maxTotalSize);
    throw refusal;
  }
}

/** Reads and discards what is left of a refused body, up to `limit` bytes; a larger one is left to be cut off. */
async function drain(request: Request, limit: number): Promise<void> {
  if (!request.body || request.body.locked) return;
  const reader = request.body.getReader();
  let received = 0;
  try {
    while (received <= limit) {
      const { done, value } = await reader.read();
      if (done) return;
      received += value.byteLength;
    }
  } catch {
    // The client gave up: nothing left to answer.
  } finally {
    reader.releaseLock();
  }
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
