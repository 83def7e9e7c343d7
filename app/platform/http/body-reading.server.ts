// The subpaths, not the package's index: its SuperHeaders class extends the global Headers as it
// loads, which loads all of undici (a tenth of a cold start, ~12 MB of RSS) before anything needs it.
import { ContentDisposition } from "@remix-run/headers/content-disposition";
import { ContentType } from "@remix-run/headers/content-type";
import {
  MaxFileSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  MultipartParser,
  getMultipartBoundary,
  type MultipartPart,
} from "@remix-run/multipart-parser";
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";

/**
 * Reading a request's body (docs/decisions/025, 036): its bytes under a cap
 * counted as they arrive, and a form's fields and files, with every way a body
 * can fail to be what was asked for a BodyError, never an exception. The
 * routes' readers are in request-body.server.ts.
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

/** Headers for a refusal: a 413 leaves the rest of the body unread, so the connection must not be reused. */
export function bodyErrorHeaders(error: BodyError): HeadersInit {
  return error.status === 413 ? { Connection: "close" } : {};
}

/**
 * The body's chunks as they arrive. A stream that breaks (the client gave up,
 * or sent less than it declared) is a refusal, `cutOff`, not an exception:
 * the client is answered if it is still there, and the log has one line.
 */
export async function* chunksOf(body: ReadableStream<Uint8Array>, cutOff: () => BodyError): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch {
        throw cutOff();
      }
      if (result.done) return;
      yield result.value;
    }
  } finally {
    // Releasing, not cancelling: cancelling would destroy the socket before a refusal is sent.
    reader.releaseLock();
  }
}

/**
 * What a body is read from: a fetch Request (React Router's routes) or, for a
 * route Express answers itself, Node's request (nodeBodySource), whose bytes
 * are read as they arrive without the Request it would cost to make.
 */
export type BodySource = { headers: { get(name: string): string | null }; body: ReadableStream<Uint8Array> | Readable | null };

/** Node's request as a BodySource. */
export function nodeBodySource(request: IncomingMessage): BodySource {
  return {
    headers: {
      get: (name) => {
        const value = request.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    body: request,
  };
}

/**
 * chunksOf for Node's request. Not `for await (… of stream)`: leaving that
 * loop early (a body over its limit) destroys the stream, and with it the
 * socket, before the refusal is sent. A request that ends before its end (the
 * client gave up) is `cutOff`.
 */
async function* nodeChunksOf(stream: Readable, cutOff: () => BodyError): AsyncGenerator<Uint8Array> {
  let failed = false;
  const onError = () => {
    failed = true;
  };
  stream.on("error", onError);
  try {
    for (;;) {
      const chunk = stream.read() as Buffer | null;
      if (chunk !== null) {
        yield chunk;
        continue;
      }
      if (stream.readableEnded) return;
      if (failed || stream.destroyed) throw cutOff();
      await new Promise<void>((resolve) => {
        const wake = () => {
          for (const event of WAKE_EVENTS) stream.off(event, wake);
          resolve();
        };
        for (const event of WAKE_EVENTS) stream.on(event, wake);
      });
    }
  } finally {
    stream.off("error", onError);
  }
}

const WAKE_EVENTS = ["readable", "end", "close", "error"] as const;

export async function readBytes(
  request: BodySource,
  limit: number,
  refusals: { tooLarge: () => BodyError; cutOff: () => BodyError },
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length"));
  // An API client is told at once; it reads the answer before it sends more (Expect: 100-continue) or is a script.
  if (Number.isFinite(declared) && declared > limit) throw refusals.tooLarge();
  if (!request.body) return new Uint8Array();

  const chunks: Uint8Array[] = [];
  let total = 0;
  const body = request.body instanceof ReadableStream ? chunksOf(request.body, refusals.cutOff) : nodeChunksOf(request.body, refusals.cutOff);
  for await (const chunk of body) {
    total += chunk.byteLength;
    // Stop reading but keep the socket; the response asks to close the connection instead.
    if (total > limit) throw refusals.tooLarge();
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as text, or undefined when they are not UTF-8 (a lone surrogate, an overlong form, a cut-off sequence). */
export function utf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function mediaType(request: BodySource): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

export type UploadedFile = { field: string; filename: string; declaredType: string; bytes: Buffer };

export type FormLimits = { maxTotalSize: number; maxParts: number; maxFileSize: number };
export type FormRefusals = { tooLarge: () => BodyError; unreadable: string };

/**
 * A form's text fields in order, its files handed to `onFile` as they are
 * read, with every refusal a BodyError: the limits' own (413), and the form's
 * `unreadable` message (400) for anything that cannot be this form. A body
 * cut off by a limit is read on to its end (up to the limit again),
 * discarding it: a browser still sending its form would see a reset
 * connection, not the refusal. The refusal asks to close the connection
 * (bodyErrorHeaders).
 */
export async function readForm(
  request: Request,
  limits: FormLimits,
  refusals: FormRefusals,
  onFile: (upload: UploadedFile) => void,
): Promise<Array<[string, string]>> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limits.maxTotalSize) {
    // A form a little over the limit (an 11 MB photo) is read to its end and thrown away, so the
    // browser still sending it gets the refusal, not a reset; a far larger one is cut off at once.
    if (declared <= limits.maxTotalSize * 2) await drain(request, declared);
    throw refusals.tooLarge();
  }
  const unreadable = () => new BodyError(400, refusals.unreadable);
  if (!request.body) throw unreadable();
  try {
    return mediaType(request) === "multipart/form-data"
      ? await readMultipartFields(request, limits, unreadable, onFile)
      : await readUrlEncodedFields(request, limits, { tooLarge: refusals.tooLarge, cutOff: unreadable });
  } catch (error) {
    const refusal =
      error instanceof BodyError
        ? error
        : error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError
          ? refusals.tooLarge()
          : error instanceof MaxPartsExceededError
            ? new BodyError(413, "The form has too many parts")
            : // Anything else the parser finds (no boundary, a part cut off, a header over 8 KB) is not a form.
              error instanceof MultipartParseError
              ? unreadable()
              : undefined;
    if (!refusal) throw error;
    await drain(request, limits.maxTotalSize);
    throw refusal;
  }
}

/** A run of percent escapes (`%C3%A9`): together they must be UTF-8, as a browser writes them. */
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * A url-encoded form: its bytes must be UTF-8 and so must what its escapes
 * stand for (URLSearchParams would quietly turn either into U+FFFD, and the
 * form would be stored as something nobody sent).
 */
async function readUrlEncodedFields(
  request: Request,
  limits: FormLimits,
  refusals: { tooLarge: () => BodyError; cutOff: () => BodyError },
): Promise<Array<[string, string]>> {
  const text = utf8(await readBytes(request, limits.maxTotalSize, refusals));
  if (text === undefined) throw refusals.cutOff();
  for (const [escapes] of text.matchAll(ESCAPES)) {
    if (utf8(Buffer.from(escapes.replaceAll("%", ""), "hex")) === undefined) throw refusals.cutOff();
  }
  const fields = [...new URLSearchParams(text)];
  if (fields.length > limits.maxParts) throw new BodyError(413, "The form has too many parts");
  return fields;
}

/**
 * A multipart form, split by the library's parser as its chunks arrive; each
 * part is read here, so that a part's header or text that is not UTF-8 is a
 * refusal rather than an exception, and a file name in RFC 8187 form
 * (`filename*=`) is never decoded (nothing of ours uses a file's name).
 */
async function readMultipartFields(
  request: Request,
  limits: FormLimits,
  unreadable: () => BodyError,
  onFile: (upload: UploadedFile) => void,
): Promise<Array<[string, string]>> {
  const boundary = getMultipartBoundary(request.headers.get("content-type") ?? "");
  if (!boundary) throw unreadable();
  const parser = new MultipartParser(boundary, { maxFileSize: limits.maxFileSize, maxParts: limits.maxParts, maxTotalSize: limits.maxTotalSize });
  const fields: Array<[string, string]> = [];
  const read = (part: MultipartPart) => {
    const headers = partHeaders(part, unreadable);
    const disposition = ContentDisposition.from(headers["content-disposition"] ?? null);
    const name = disposition.name;
    // A part without a name is no field of any form.
    if (!name) return;
    const type = ContentType.from(headers["content-type"] ?? null).mediaType;
    const bytes = part.bytes;
    if (disposition.filename !== undefined || disposition.filenameSplat !== undefined || type === "application/octet-stream") {
      onFile({
        field: name,
        filename: disposition.filename ?? "",
        declaredType: type ?? "application/octet-stream",
        bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      });
      return;
    }
    const value = utf8(bytes);
    if (value === undefined) throw unreadable();
    fields.push([name, value]);
  };
  for await (const chunk of chunksOf(request.body!, unreadable)) {
    if (chunk.byteLength === 0) continue;
    for (const part of parser.write(chunk)) read(part);
    // After the closing delimiter comes only an epilogue, which a reader ignores (RFC 2046):
    // fed to the parser, even the last line end arriving on its own would be refused.
    if (finished(parser)) return fields;
  }
  parser.finish();
  return fields;
}

/** Whether the parser has read the closing delimiter (its finish() says so by not throwing). */
function finished(parser: MultipartParser): boolean {
  try {
    parser.finish();
    return true;
  } catch {
    return false;
  }
}

/** A part's headers; ones that are not UTF-8 are not a form's. */
function partHeaders(part: MultipartPart, unreadable: () => BodyError): MultipartPart["headers"] {
  try {
    return part.headers;
  } catch (error) {
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code === "ERR_ENCODING_INVALID_ENCODED_DATA") throw unreadable();
    throw error;
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
