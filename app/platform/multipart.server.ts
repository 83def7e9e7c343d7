import busboy from "busboy";
import { BodyError } from "./request-body.server";

/**
 * A multipart/form-data body with files, read as a stream: each file is
 * capped while it arrives (so a 1 GB upload is abandoned after the first
 * 10 MB and never reaches disk), fields are capped in number and size, and
 * only the file fields the caller names are kept.
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
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new BodyError(415, "Content-Type must be multipart/form-data");
  }
  const maxBody = limits.fileFields.length * limits.maxFileBytes + limits.maxFieldBytes + 64 * 1024;
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBody) throw new BodyError(413, limits.fileTooLarge);
  if (!request.body) throw new BodyError(400, "Request body is not valid form data");

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: {
        // busboy reports "limit" once a file reaches fileSize bytes: the
        // refusal size ("under 10MB": 10,485,760 bytes is too large).
        fileSize: limits.maxFileBytes,
        files: limits.fileFields.length,
        fields: 50,
        fieldSize: limits.maxFieldBytes,
        parts: limits.fileFields.length + 50,
      },
    });
  } catch {
    throw new BodyError(400, "Request body is not valid form data");
  }

  // No prototype: a field named "__proto__" or "constructor" is just a field.
  const fields: Record<string, string> = Object.create(null);
  const files: Record<string, UploadedFile> = Object.create(null);
  /** File fields that a named file has arrived for (files[] fills only when a file ends). */
  const claimed = new Set<string>();
  let fieldBytes = 0;
  let failure: BodyError | undefined;
  const fail = (error: BodyError) => {
    failure ??= error;
  };

  parser.on("field", (name, value, info) => {
    fieldBytes += name.length + value.length;
    if (info.valueTruncated || fieldBytes > limits.maxFieldBytes) {
      fail(new BodyError(413, "The form's text fields are too long"));
      return;
    }
    if (!Object.hasOwn(fields, name)) fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    // A body cut short (or abandoned after a refusal) ends an open file with an
    // error; unheard, it would take the process down.
    stream.on("error", () => fail(new BodyError(400, "Request body is not valid form data")));
    if (!limits.fileFields.includes(name) || (info.filename && claimed.has(name))) {
      // Not ours, or a second file for one field ("one file only").
      stream.resume();
      if (info.filename) fail(new BodyError(400, claimed.has(name) ? "Too many files" : `Unexpected file field "${name}"`));
      return;
    }
    if (info.filename) claimed.add(name);
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
    });
    stream.on("limit", () => {
      chunks.length = 0;
      fail(new BodyError(413, limits.fileTooLarge));
    });
    stream.on("end", () => {
      // A file input left empty still sends a part, with no name and no bytes
      // (busboy reports its filename="" as undefined).
      if (failure || (!info.filename && size === 0)) return;
      files[name] = { field: name, filename: info.filename ?? "", declaredType: info.mimeType, bytes: Buffer.concat(chunks, size) };
    });
  });
  parser.on("filesLimit", () => fail(new BodyError(400, "Too many files")));
  parser.on("fieldsLimit", () => fail(new BodyError(413, "The form has too many fields")));
  parser.on("partsLimit", () => fail(new BodyError(413, "The form has too many parts")));

  const finished = new Promise<void>((resolve) => {
    parser.on("close", resolve);
    parser.on("error", () => {
      fail(new BodyError(400, "Request body is not valid form data"));
      resolve();
    });
  });

  const reader = request.body.getReader();
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      // Counted as it arrives: a chunked body declares no length, and bytes
      // that never make a part (a missing boundary) reach no other limit.
      if (received > maxBody) {
        fail(new BodyError(413, limits.fileTooLarge));
        break;
      }
      // A browser still sending its form would see a reset connection, not
      // the refusal: read the rest of a body of plausible size, discarding it.
      if (failure) continue;
      // Respect busboy's back-pressure: wait when its buffer is full.
      if (!parser.write(value)) await new Promise<void>((resolve) => {
          parser.once("drain", resolve);
          parser.once("error", () => resolve());
          parser.once("close", resolve);
        });
    }
  } finally {
    // Stop reading without cancelling: cancelling would destroy the socket
    // before the refusal is sent. A 413 asks to close the connection.
    reader.releaseLock();
  }
  if (failure) {
    parser.destroy();
    throw failure;
  }
  parser.end();
  await finished;
  if (failure) throw failure;
  return { fields, files };
}
