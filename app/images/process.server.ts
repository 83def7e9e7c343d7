import type { Metadata, OutputInfo } from "sharp";
import { UPLOAD_TEXT, type ImageExtension } from "./image-files";

let sharpModule: Promise<typeof import("sharp")> | undefined;

/**
 * sharp (libvips) on first use: most starts, and every visitor's request,
 * never need it, and loading it takes about 0.1 s and some memory.
 */
export function loadSharp(): Promise<typeof import("sharp")> {
  sharpModule ??= import("sharp").then((module) => {
    // Uploads are one-off: libvips' operation cache would only hold memory.
    module.default.cache(false);
    return module;
  });
  return sharpModule;
}

/** A refusal the uploader sees, with the HTTP status that carries it. */
export class ImageError extends Error {
  override name = "ImageError";
  constructor(
    readonly status: 400 | 413 | 415 | 422 | 503,
    message: string,
  ) {
    super(message);
  }
}

/** The stored image fits in this box (keeping its proportions); larger ones are scaled down. */
export const MAX_STORED_SIDE = 1920;
/** Widths of the resized copies for `srcset` (an image narrower than one gets a copy at its own width instead). */
export const VARIANT_WIDTHS = [480, 960, 1440] as const;
/**
 * Refuse images with more pixels than this before decoding them (a small file
 * can claim huge dimensions). 40 megapixels is more than any photo a phone or
 * camera saves by default, and what the browser sends is already resized to
 * 1920×1080; a 40-megapixel PNG still decodes within a bounded memory (decision 021).
 */
export const MAX_INPUT_PIXELS = 40_000_000;

type Accepted = "jpeg" | "png" | "gif" | "webp";

/**
 * What the first bytes say the file is. Only the bytes count: the name and
 * the declared type are the sender's claims. Returns an accepted format, the
 * label of a recognised format we do not accept, or undefined.
 */
export function sniffImage(bytes: Uint8Array): { format: Accepted } | { unsupported: string } | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { format: "jpeg" };
  if (ascii(0, 8) === "\x89PNG\r\n\x1a\n") return { format: "png" };
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return { format: "gif" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return { format: "webp" };
  if (ascii(4, 8) === "ftyp") {
    const brand = ascii(8, 12);
    if (brand.startsWith("avi")) return { unsupported: "AVIF" };
    if (/^(hei|hev|mif|msf)/.test(brand)) return { unsupported: "HEIC" };
  }
  if (ascii(0, 4) === "II*\0" || ascii(0, 4) === "MM\0*") return { unsupported: "TIFF" };
  if (ascii(0, 2) === "BM") return { unsupported: "BMP" };
  const head = new TextDecoder("utf-8", { fatal: false })
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return { unsupported: "SVG" };
  return undefined;
}

export type ProcessedFile = { data: Buffer; width: number; height: number; extension: ImageExtension };
export type ProcessedImage = { main: ProcessedFile; variants: ProcessedFile[] };

const MAIN_EXTENSION: Record<Accepted, ImageExtension> = { jpeg: "jpg", png: "png", webp: "webp", gif: "png" };

/**
 * An upload made safe and small. The bytes decide the type; the image is
 * decoded in full (a truncated or corrupt file is refused), turned upright by
 * its EXIF orientation, scaled to fit 1920×1920, converted to sRGB and
 * re-encoded with no metadata at all (no EXIF, GPS, XMP or ICC). A GIF keeps
 * its first frame, as a PNG. Then WebP and AVIF copies for `srcset`.
 *
 * Pure computation: nothing is stored. The server runs one at a time (see
 * images.server.ts); `npm run bench` times this function alone.
 */
export async function processImage(bytes: Uint8Array): Promise<ProcessedImage> {
  const sniffed = sniffImage(bytes);
  if (!sniffed) throw new ImageError(415, UPLOAD_TEXT.invalidType);
  if ("unsupported" in sniffed) {
    throw new ImageError(415, `${UPLOAD_TEXT.fileType("JPEG, PNG, GIF or WebP")} (this file is ${sniffed.unsupported}).`);
  }
  const { default: sharp } = await loadSharp();
  // failOn "warning" (sharp's default, stated): a truncated JPEG is a warning to libjpeg, and a refusal here.
  const options = { failOn: "warning", limitInputPixels: MAX_INPUT_PIXELS, animated: false } as const;

  let metadata: Metadata;
  try {
    // The header only, with no pixel limit, so a huge image gets its own message; decoding keeps the limit.
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw new ImageError(422, UPLOAD_TEXT.unreadable);
  }
  if (metadata.format !== sniffed.format) throw new ImageError(422, UPLOAD_TEXT.unreadable);
  if (!metadata.width || !metadata.height) throw new ImageError(422, UPLOAD_TEXT.unreadable);
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) throw new ImageError(422, UPLOAD_TEXT.tooManyPixels);

  // Decode once into an upright, scaled, sRGB bitmap; every output is encoded from it.
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await sharp(bytes, options)
      .rotate()
      .resize({ width: MAX_STORED_SIDE, height: MAX_STORED_SIDE, fit: "inside", withoutEnlargement: true })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ImageError(422, UPLOAD_TEXT.unreadable);
  }
  const { width, height, channels } = pixels.info;
  const bitmap = () => sharp(pixels.data, { raw: { width, height, channels } });

  const mainExtension = MAIN_EXTENSION[sniffed.format];
  const encoded = bitmap();
  const mainData = await (mainExtension === "jpg"
    ? encoded.jpeg({ quality: 82, progressive: true, chromaSubsampling: "4:2:0" })
    : mainExtension === "webp"
      ? encoded.webp({ quality: 82 })
      : encoded.png({ compressionLevel: 7 })
  ).toBuffer();

  const variants: ProcessedFile[] = [];
  const widths = [...new Set(VARIANT_WIDTHS.map((candidate) => Math.min(candidate, width)))];
  for (const variantWidth of widths) {
    const variantHeight = Math.max(1, Math.round((height * variantWidth) / width));
    const resized = () => bitmap().resize({ width: variantWidth, height: variantHeight, fit: "fill" });
    variants.push({
      data: await resized().avif({ quality: 50, effort: 2 }).toBuffer(),
      width: variantWidth,
      height: variantHeight,
      extension: "avif",
    });
    variants.push({
      data: await resized().webp({ quality: 75 }).toBuffer(),
      width: variantWidth,
      height: variantHeight,
      extension: "webp",
    });
  }
  return { main: { data: mainData, width, height, extension: mainExtension }, variants };
}
