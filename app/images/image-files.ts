import type { ObjectNaming } from "~/platform/storage/storage.server";

/**
 * Uploaded images as both sides of the site see them: what may be uploaded,
 * how stored files are named, and the words shown about them. No server code
 * here: the admin's upload field uses it in the browser.
 */

/** SPEC §9: 10 MB, checked as "under 10MB" (so 10,485,760 bytes is already too large). */
export const MAX_IMAGE_BYTES = 10_485_760;
/** SPEC §9: files over 2 MB are made smaller in the browser before they are sent. */
export const RESIZE_ABOVE_BYTES = 2 * 1024 * 1024;
/** SPEC §9: the box a resized image must fit in, keeping its proportions. */
export const RESIZE_BOX = { width: 1920, height: 1080 } as const;
/** SPEC §9: the encoder quality of a resized image. */
export const RESIZE_QUALITY = 0.8;

/** The types the upload accepts (SPEC §5: JPEG, JPG, PNG, GIF, WebP), as MIME types and file extensions. */
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/jpg", "image/png", "image/gif", "image/webp"] as const;
export const ACCEPTED_IMAGE_EXTENSIONS = [".jpeg", ".jpg", ".png", ".gif", ".webp"] as const;
/** For `<input type="file" accept>`. */
export const IMAGE_ACCEPT = [...ACCEPTED_IMAGE_TYPES, ...ACCEPTED_IMAGE_EXTENSIONS].join(",");

/** The words of SPEC §5 and §8 about images, and the few it leaves open. */
export const UPLOAD_TEXT = {
  invalidType: "Please upload a valid image file (JPEG, PNG, GIF, or WebP).",
  tooLarge: "File size must be less than 10MB",
  /** Generic file-drop messages (SPEC §5). */
  fileType: (types: string) => `File type must be ${types}`,
  smallerThan: (bytes: number) => `File is smaller than ${bytes} bytes`,
  tooMany: "Too many files",
  failed: "Upload failed",
  failedWith: (reason: string) => `Upload failed: ${reason}`,
  bothRequired: "Please upload both before and after images.",
  unreadable: "The file could not be read as an image. It may be damaged or incomplete.",
  tooManyPixels: "The image is too large in pixels (over 40 megapixels). Please upload a smaller image.",
  busy: "The server is busy processing other images. Please try again in a moment.",
} as const;

/**
 * The bucket's files: `<timestamp>-<random>.<ext>` (SPEC §3), resized copies
 * `<timestamp>-<random>-<width>w.<webp|avif>`, and documents (the client money
 * protection certificate as a PDF, decision 030) `<timestamp>-<random>.pdf`.
 */
const NAME = /^(\d{13})-([a-z0-9]{12})(?:(?:-(\d{1,4})w)?\.(jpg|png|webp|avif)|\.(pdf))$/;

export type ImageExtension = "jpg" | "png" | "webp" | "avif";
export type StoredExtension = ImageExtension | "pdf";

/** The resized copies of an uploaded image, for `<picture>`: `srcset` lists and the stored size. */
export type ResponsiveImage = {
  width: number;
  height: number;
  /** "…-480w.avif 480w, …-960w.avif 960w" */
  avif: string;
  webp: string;
};

export const IMAGE_CONTENT_TYPES: Record<ImageExtension, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
};

export const STORED_CONTENT_TYPES: Record<StoredExtension, string> = { ...IMAGE_CONTENT_TYPES, pdf: "application/pdf" };

/** True for a name the bucket can hold (an image, a copy or a document): no path separators, no dots but the extension's, nothing else. */
export function isImageName(name: string): boolean {
  return NAME.test(name);
}

/** The parts of a valid name, or undefined. */
export function parseImageName(name: string) {
  const match = NAME.exec(name);
  if (!match) return undefined;
  return {
    timestamp: Number(match[1]),
    stem: `${match[1]}-${match[2]}`,
    width: match[3] === undefined ? undefined : Number(match[3]),
    extension: (match[4] ?? match[5]) as StoredExtension,
  };
}

export const IMAGE_URL_PREFIX = "/images/";

/** The public URL of a stored file. */
export function imageUrl(name: string): string {
  return `${IMAGE_URL_PREFIX}${name}`;
}

/**
 * Where a page links one of our image URLs (`/images/<name>`, a copy's name
 * too): under PUBLIC_IMAGES_URL when it is set (a CDN in front of the bucket),
 * else as it is. Any other URL (the sample's, another site's) is left alone.
 */
export function linkImageUrl(url: string, publicImagesUrl: string | undefined): string {
  if (publicImagesUrl === undefined || !url.startsWith(IMAGE_URL_PREFIX)) return url;
  const name = url.slice(IMAGE_URL_PREFIX.length);
  return isImageName(name) ? `${publicImagesUrl}${name}` : url;
}

/** How the bucket (platform/storage/storage.server.ts) knows our names: the images module owns them. */
export const IMAGE_NAMING: ObjectNaming = {
  isValidName: isImageName,
  contentTypeOf: (name) => STORED_CONTENT_TYPES[parseImageName(name)!.extension],
  urlOf: imageUrl,
};

/** The uploaded image a URL of ours points at (`/images/<name>`, not a copy, not a document), or undefined for any other URL. */
export function imageNameFromUrl(url: string): string | undefined {
  const name = storedNameFromUrl(url);
  return name && parseImageName(name)!.extension !== "pdf" ? name : undefined;
}

/** The uploaded file (an image or a document, not a copy) a URL of ours points at, or undefined for any other URL. */
export function storedNameFromUrl(url: string): string | undefined {
  if (!url.startsWith(IMAGE_URL_PREFIX)) return undefined;
  const name = url.slice(IMAGE_URL_PREFIX.length);
  return isImageName(name) && parseImageName(name)!.width === undefined ? name : undefined;
}

/** Every uploaded file's URL in a text (a stored site content's JSON): what it keeps from `gc-images`. */
export function storedUrlsIn(text: string): string[] {
  return [...text.matchAll(/\/images\/(\d{13}-[a-z0-9]{12}\.(?:jpg|png|webp|pdf))(?![\w.-])/g)].map((match) => imageUrl(match[1]!));
}

type SelectedFile = { name: string; type: string; size: number };

function extensionOf(name: string): string {
  return name.includes(".") ? name.slice(name.lastIndexOf(".")).toLowerCase() : "";
}

/** What the drop zone accepts, in the words of its generic messages. */
export const DROP_ZONE_ACCEPT = ["image/*", ...ACCEPTED_IMAGE_EXTENSIONS].join(", ");

/**
 * The checks a chosen or dropped file passes before anything is sent
 * (docs/decisions/010-gallery-uploads.md): one file, an image type (the drop
 * zone's generic words), under 10 MB (SPEC §5's own words, whichever way the
 * image came: "File size must be less than 10MB"), not empty, then JPEG, PNG,
 * GIF or WebP only (an image/bmp or image/heic is an image, but not one of
 * ours). Returns the first problem, or undefined.
 */
export function checkSelectedFiles(files: ArrayLike<SelectedFile>): string | undefined {
  if (files.length === 0) return undefined;
  if (files.length > 1) return UPLOAD_TEXT.tooMany;
  const file = files[0]!;
  const type = file.type.toLowerCase();
  const extension = extensionOf(file.name);
  const extensionOk = (ACCEPTED_IMAGE_EXTENSIONS as readonly string[]).includes(extension);
  // Some systems send no type for a file they do not know: the extension decides then.
  if (!(type.startsWith("image/") || (type === "" && extensionOk))) return UPLOAD_TEXT.fileType(DROP_ZONE_ACCEPT);
  if (file.size >= MAX_IMAGE_BYTES) return UPLOAD_TEXT.tooLarge;
  if (file.size < 1) return UPLOAD_TEXT.smallerThan(1);
  if (!((ACCEPTED_IMAGE_TYPES as readonly string[]).includes(type) || (type === "" && extensionOk))) {
    return UPLOAD_TEXT.invalidType;
  }
  return undefined;
}

/** The client money protection certificate (decision 030): a PDF, or an image through the image pipeline. */
export const CERTIFICATE_ACCEPT = ["application/pdf", ".pdf", ...ACCEPTED_IMAGE_TYPES, ...ACCEPTED_IMAGE_EXTENSIONS].join(",");

export const DOCUMENT_TEXT = {
  invalidType: "Please upload the certificate as a PDF or an image (JPEG, PNG, GIF or WebP).",
  damaged: "The file could not be read as a PDF. It may be damaged or incomplete: please save it as a PDF again and upload that.",
  active: "The PDF contains scripts, attached files or actions, which a certificate does not need. Please print it to a new PDF and upload that.",
  encrypted:
    "The PDF is protected with a password or encryption, so its contents cannot be checked. Please save or print it to a new PDF without protection and upload that.",
} as const;
