/**
 * Reading request bodies with a hard size cap. Bodies are read as a stream and
 * abandoned as soon as they pass the cap, so an oversized request never sits
 * in memory, and every malformed body becomes a 4xx with a clear message.
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
 * An HTML form body (urlencoded or multipart), as plain string fields; a
 * field sent more than once keeps its first value (see readFormEntries).
 */
export async function readFormFields(request: Request, limit: number): Promise<Record<string, string>> {
  // No prototype: a field named "__proto__" or "constructor" is just a field.
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of await readFormEntries(request, limit)) {
    if (!Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}

/** An HTML form body's string fields in order, repeats included (checkboxes of one name); files are left out. */
export async function readFormEntries(request: Request, limit: number): Promise<Array<[string, string]>> {
  const type = mediaType(request);
  const bytes = await readBytes(request, limit);
  let entries: Iterable<[string, FormDataEntryValue]>;
  if (type === "application/x-www-form-urlencoded") {
    entries = new URLSearchParams(decodeUtf8(bytes));
  } else if (type === "multipart/form-data") {
    try {
      const buffered = new Request("http://localhost/", {
        method: "POST",
        headers: { "content-type": request.headers.get("content-type") ?? "" },
        body: bytes,
      });
      entries = await buffered.formData();
    } catch {
      throw new BodyError(400, "Request body is not valid form data");
    }
  } else {
    throw new BodyError(415, "Content-Type must be application/x-www-form-urlencoded or multipart/form-data");
  }
  const fields: Array<[string, string]> = [];
  for (const [name, value] of entries) {
    if (typeof value === "string") fields.push([name, value]);
  }
  return fields;
}
