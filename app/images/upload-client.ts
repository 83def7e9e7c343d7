/**
 * The browser's half of an image upload (SPEC §9): make a large photo
 * smaller before it is sent, then send it to POST /api/admin/images with real
 * progress. Browser APIs are only touched inside the functions, so the module
 * can be imported (and its pure parts tested) anywhere.
 */
import { RESIZE_ABOVE_BYTES, RESIZE_BOX, RESIZE_QUALITY, UPLOAD_TEXT } from "./image-files";

export type Size = { width: number; height: number };

/**
 * The size of a `width` × `height` image scaled down to fit inside `box`,
 * keeping its proportions. Never larger than the image (no upscaling), never
 * larger than the box, never 0 on either side.
 */
export function fitWithin(width: number, height: number, box: Size): Size {
  if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) {
    throw new RangeError(`Not an image size: ${width} × ${height}`);
  }
  if (!(box.width > 0 && box.height > 0)) throw new RangeError(`Not a box: ${box.width} × ${box.height}`);
  if (width <= box.width && height <= box.height) return { width, height };
  const scale = Math.min(box.width / width, box.height / height);
  return {
    width: Math.min(box.width, Math.max(1, Math.round(width * scale))),
    height: Math.min(box.height, Math.max(1, Math.round(height * scale))),
  };
}

export type ResizedType = "image/jpeg" | "image/webp" | "image/png";

/** How a resized image is encoded: its type, and the quality where the type has one. */
export type ResizeOutput = { type: ResizedType; quality?: number };

const EXTENSION_OF: Record<ResizedType, string> = { "image/jpeg": ".jpg", "image/webp": ".webp", "image/png": ".png" };

function extensionOf(name: string): string {
  return name.includes(".") ? name.slice(name.lastIndexOf(".")).toLowerCase() : "";
}

/**
 * What a chosen file becomes when resized: JPEG stays JPEG and WebP stays
 * WebP (at RESIZE_QUALITY); PNG and GIF become PNG (lossless, so no quality).
 * A file with no type is known by its extension. Undefined for anything else:
 * such a file is sent as it is.
 */
export function resizeOutputFor(file: { type: string; name: string }): ResizeOutput | undefined {
  const type = file.type.toLowerCase();
  const extension = type === "" ? extensionOf(file.name) : "";
  if (type === "image/jpeg" || type === "image/jpg" || extension === ".jpg" || extension === ".jpeg") {
    return { type: "image/jpeg", quality: RESIZE_QUALITY };
  }
  if (type === "image/webp" || extension === ".webp") return { type: "image/webp", quality: RESIZE_QUALITY };
  if (type === "image/png" || type === "image/gif" || extension === ".png" || extension === ".gif") {
    return { type: "image/png" };
  }
  return undefined;
}

/** True for a file SPEC §9 wants made smaller before it is sent (over 2 MB). */
export function needsResize(file: { size: number }): boolean {
  return file.size > RESIZE_ABOVE_BYTES;
}

/** The file's name with the extension of `type` ("photo.gif" → "photo.png"). */
export function renameFor(name: string, type: ResizedType): string {
  const extension = EXTENSION_OF[type];
  const current = extensionOf(name);
  if (current === extension || (type === "image/jpeg" && current === ".jpeg")) return name;
  const stem = current === "" ? name : name.slice(0, name.length - current.length);
  return `${stem || "image"}${extension}`;
}

async function encode(bitmap: ImageBitmap, size: Size, output: ResizeOutput): Promise<Blob | null> {
  if (typeof OffscreenCanvas === "function") {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const context = canvas.getContext("2d");
    if (!context) return null;
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    return canvas.convertToBlob(output);
  }
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d");
  if (!context) return null;
  context.imageSmoothingQuality = "high";
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  return new Promise((resolve) => canvas.toBlob(resolve, output.type, output.quality));
}

/**
 * The file to send for `file`: itself when it is 2 MB or less, otherwise a
 * copy scaled to fit RESIZE_BOX (never up) and encoded at RESIZE_QUALITY,
 * turned the right way up from its EXIF orientation. The original is sent
 * whenever the copy is not smaller, or the browser cannot decode or encode
 * it (the server then decides).
 */
export async function prepareForUpload(file: File): Promise<File> {
  if (!needsResize(file)) return file;
  const output = resizeOutputFor(file);
  if (!output || typeof createImageBitmap !== "function") return file;
  let bitmap: ImageBitmap | undefined;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    const size = fitWithin(bitmap.width, bitmap.height, RESIZE_BOX);
    const blob = await encode(bitmap, size, output);
    // A browser that cannot write WebP answers with a PNG: any type the server takes will do.
    const type = blob?.type as ResizedType | undefined;
    if (!blob || !type || !Object.hasOwn(EXTENSION_OF, type) || blob.size >= file.size) return file;
    return new File([blob], renameFor(file.name, type), { type, lastModified: file.lastModified });
  } catch {
    return file;
  } finally {
    bitmap?.close();
  }
}

/** What POST /api/admin/images answers for a stored image. */
export type UploadedImage = { url: string; name: string; width: number; height: number };

/**
 * An upload that did not store the image. `reason` is the server's own words
 * (its `{ error }`), shown after "Upload failed: "; undefined when it gave
 * none (network error, an answer that is not ours), and the message is then
 * just "Upload failed".
 */
export class UploadError extends Error {
  readonly reason: string | undefined;
  readonly status: number;
  constructor(reason: string | undefined, status = 0) {
    super(reason ?? UPLOAD_TEXT.failed);
    this.name = "UploadError";
    this.reason = reason;
    this.status = status;
  }
}

export const UPLOAD_ENDPOINT = "/api/admin/images";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The server's answer as an UploadedImage, or undefined when it is not one. */
export function readUploadAnswer(body: unknown): UploadedImage | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { url, name, width, height } = body as Record<string, unknown>;
  if (typeof url !== "string" || url === "") return undefined;
  return {
    url,
    name: typeof name === "string" ? name : "",
    width: typeof width === "number" ? width : 0,
    height: typeof height === "number" ? height : 0,
  };
}

/** The server's `{ error }` text, or undefined. */
export function readUploadError(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { error } = body as Record<string, unknown>;
  return typeof error === "string" && error.trim() !== "" ? error.trim() : undefined;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The upload was aborted.", "AbortError");
}

/**
 * Sends `file` as the multipart field `file` to POST /api/admin/images.
 * XMLHttpRequest rather than fetch: its upload progress events are real.
 * `onProgress` gets the share sent so far (0 to 1). Rejects with an
 * UploadError (see there), or with the signal's reason when aborted.
 */
export function uploadImage(
  file: Blob & { name?: string },
  { onProgress, signal, url = UPLOAD_ENDPOINT }: { onProgress?: (fraction: number) => void; signal?: AbortSignal; url?: string } = {},
): Promise<UploadedImage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener("abort", onAbort);

    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () => {
      settle();
      const body = parseJson(xhr.responseText);
      const image = xhr.status >= 200 && xhr.status < 300 ? readUploadAnswer(body) : undefined;
      if (image) {
        onProgress?.(1);
        resolve(image);
      } else {
        reject(new UploadError(xhr.status >= 200 && xhr.status < 300 ? undefined : readUploadError(body), xhr.status));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new UploadError(undefined));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      settle();
      reject(signal?.aborted ? abortError(signal) : new UploadError(undefined));
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    const form = new FormData();
    form.append("file", file, file.name || "image");
    xhr.send(form);
  });
}

/** The words shown when an upload fails: "Upload failed: <reason>" or just "Upload failed". */
export function uploadFailureText(error: unknown): string {
  return error instanceof UploadError && error.reason ? UPLOAD_TEXT.failedWith(error.reason) : UPLOAD_TEXT.failed;
}
