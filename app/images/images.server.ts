import { randomInt } from "node:crypto";
import type { Selectable } from "kysely";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import type { ImageTable } from "~/platform/db/schema";
import type { ImageStorage } from "~/platform/storage/storage.server";
import type { Log } from "~/platform/observe/log.server";
import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import { inTransaction } from "~/platform/db/transactions.server";
import {
  IMAGE_CONTENT_TYPES,
  STORED_CONTENT_TYPES,
  UPLOAD_TEXT,
  imageNameFromUrl,
  imageUrl,
  linkImageUrl,
  parseImageName,
  storedNameFromUrl,
  storedUrlsIn,
  type ImageExtension,
  type ResponsiveImage,
} from "./image-files";
import { checkPdf, isPdf } from "./pdf.server";
import { ImageError, processImage } from "./process.server";

/**
 * Uploaded images from bytes to bucket: processed (process.server.ts), every
 * file stored, then recorded in the `images` table, which is what a project
 * form may refer to and what the landing page's `srcset` is built from.
 */
export type ImageServices = { db: Db; storage: ImageStorage; log: Pick<Log, "warn"> };

export type ImageVariant = { name: string; width: number; height: number; format: "avif" | "webp" };

export type StoredImage = {
  name: string;
  url: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  variants: ImageVariant[];
  createdAt: string;
};

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** `<timestamp>-<random>` (SPEC §3): 12 random characters, about 62 bits. */
export function newImageStem(now = Date.now()): string {
  let random = "";
  for (let index = 0; index < 12; index++) random += ALPHABET[randomInt(ALPHABET.length)];
  return `${String(now).padStart(13, "0")}-${random}`;
}

// One image at a time: decoding a 24-megapixel photo takes tens of MB, and
// two at once would only share the same two cores. A few more may wait.
const MAX_WAITING = 4;
let waiting = 0;
let queue: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (waiting >= MAX_WAITING) return Promise.reject(new ImageError(503, UPLOAD_TEXT.busy));
  waiting++;
  const run = queue.then(work, work);
  queue = run.then(
    () => undefined,
    () => undefined,
  );
  return run.finally(() => {
    waiting--;
  });
}

/** Records an upload's row with its audit entry (the files are stored already). */
async function recordUpload(db: Db, row: Selectable<ImageTable>, actor: Actor): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.insertInto("images").values(row).execute();
    await audit(trx, { actor, action: "file-uploaded", target: row.name });
  });
}

/** Processes and stores an upload. Refusals are ImageErrors (4xx); nothing is left behind on failure. */
export async function saveImage(services: Omit<ImageServices, "log">, bytes: Uint8Array, actor: Actor): Promise<StoredImage> {
  const processed = await oneAtATime(() => processImage(bytes));
  const stem = newImageStem();
  const name = `${stem}.${processed.main.extension}`;
  const variants: ImageVariant[] = processed.variants.map((variant) => ({
    name: `${stem}-${variant.width}w.${variant.extension}`,
    width: variant.width,
    height: variant.height,
    format: variant.extension as "avif" | "webp",
  }));
  const files: { name: string; data: Buffer; extension: ImageExtension }[] = [
    { name, data: processed.main.data, extension: processed.main.extension },
    ...processed.variants.map((variant, index) => ({ name: variants[index]!.name, data: variant.data, extension: variant.extension })),
  ];
  const stored: string[] = [];
  try {
    for (const file of files) {
      await services.storage.put(file.name, file.data, { contentType: IMAGE_CONTENT_TYPES[file.extension] });
      stored.push(file.name);
    }
    const row = {
      name,
      content_type: IMAGE_CONTENT_TYPES[processed.main.extension],
      width: processed.main.width,
      height: processed.main.height,
      bytes: processed.main.data.length,
      variants: JSON.stringify(variants),
      created_at: new Date().toISOString(),
    };
    await recordUpload(services.db, row, actor);
    return toStoredImage(row);
  } catch (error) {
    await Promise.allSettled(stored.map((file) => services.storage.delete(file)));
    throw error;
  }
}

/**
 * Stores a PDF document (the client money protection certificate, decision
 * 030) after checking it by content (pdf.server.ts), and records it beside
 * the images (no size, no copies) so gc-images and the site know it.
 */
export async function saveDocument(services: ImageServices, bytes: Uint8Array, actor: Actor): Promise<StoredImage> {
  await checkPdf(bytes);
  const name = `${newImageStem()}.pdf`;
  await services.storage.put(name, bytes, { contentType: STORED_CONTENT_TYPES.pdf });
  try {
    const row = {
      name,
      content_type: STORED_CONTENT_TYPES.pdf,
      width: 0,
      height: 0,
      bytes: bytes.byteLength,
      variants: "[]",
      created_at: new Date().toISOString(),
    };
    await recordUpload(services.db, row, actor);
    return toStoredImage(row);
  } catch (error) {
    await services.storage.delete(name).catch(() => undefined);
    throw error;
  }
}

/** A certificate: a PDF (checked, stored as it came) or an image (through the image pipeline), told apart by content. */
export async function saveCertificate(services: ImageServices, bytes: Uint8Array, actor: Actor): Promise<StoredImage> {
  return isPdf(bytes) ? saveDocument(services, bytes, actor) : saveImage(services, bytes, actor);
}

/** The recorded upload (image or document) a URL of ours points at, or undefined. */
export async function findStoredFile(db: Db, url: string): Promise<StoredImage | undefined> {
  const name = storedNameFromUrl(url);
  if (!name) return undefined;
  const row = await db.selectFrom("images").selectAll().where("name", "=", name).executeTakeFirst();
  return row && toStoredImage(row);
}

/** What an upload's own file may be called, for a stem: the image pipeline's outputs and a document. */
const MAIN_EXTENSIONS = ["jpg", "png", "webp", "avif", "pdf"] as const;

/**
 * Whether `name` is a file the site recorded: an upload (its row in `images`)
 * or one of its copies (in that row's variants). A lookup by primary key, so
 * /images/<name> answers a name never handed out without asking the bucket
 * (on S3 a paid request of tens of milliseconds, for any name anyone sends).
 */
export async function isRecordedFile(db: Db, name: string): Promise<boolean> {
  const parsed = parseImageName(name);
  if (!parsed) return false;
  if (parsed.width === undefined) return (await db.selectFrom("images").select("name").where("name", "=", name).executeTakeFirst()) !== undefined;
  const rows = await db
    .selectFrom("images")
    .select("variants")
    .where(
      "name",
      "in",
      MAIN_EXTENSIONS.map((extension) => `${parsed.stem}.${extension}`),
    )
    .execute();
  return rows.some((row) => (JSON.parse(row.variants) as ImageVariant[]).some((variant) => variant.name === name));
}

function toStoredImage(row: Selectable<ImageTable>): StoredImage {
  return {
    name: row.name,
    url: imageUrl(row.name),
    contentType: row.content_type,
    width: Number(row.width),
    height: Number(row.height),
    bytes: Number(row.bytes),
    variants: JSON.parse(row.variants) as ImageVariant[],
    createdAt: toIsoString(row.created_at),
  };
}

/** The recorded images among these URLs (other URLs are ignored), by URL. */
export async function findImagesByUrl(db: Db, urls: readonly string[]): Promise<Map<string, StoredImage>> {
  const names = [...new Set(urls.map(imageNameFromUrl).filter((name): name is string => name !== undefined))];
  const found = new Map<string, StoredImage>();
  if (names.length === 0) return found;
  const rows = await db.selectFrom("images").selectAll().where("name", "in", names).execute();
  for (const row of rows) found.set(imageUrl(row.name), toStoredImage(row));
  return found;
}

/** `srcset` lists of an image's copies, linked under PUBLIC_IMAGES_URL when it is given. */
export function responsiveImage(image: StoredImage, publicImagesUrl?: string): ResponsiveImage {
  const srcset = (format: "avif" | "webp") =>
    image.variants
      .filter((variant) => variant.format === format)
      .sort((a, b) => a.width - b.width)
      .map((variant) => `${linkImageUrl(imageUrl(variant.name), publicImagesUrl)} ${variant.width}w`)
      .join(", ");
  return { width: image.width, height: image.height, avif: srcset("avif"), webp: srcset("webp") };
}

/**
 * The uploads the site's content refers to (logo, hero image, certificate):
 * in the draft, in any kept version (decision 030), so a restore never
 * brings back a missing file, and in a pending scheduled publish, which holds
 * the draft as it was when scheduled and publishes it later. Read from the
 * stored JSON as text, whatever section holds them.
 */
async function siteReferences(db: Db): Promise<Set<string>> {
  const [draft, versions, scheduled] = await Promise.all([
    db.selectFrom("site_draft").select("content").execute(),
    db.selectFrom("site_versions").select("content").execute(),
    db.selectFrom("site_schedule").select("content").where("done_at", "is", null).execute(),
  ]);
  return new Set([...draft, ...versions, ...scheduled].flatMap((row) => storedUrlsIn(row.content)));
}

async function isReferenced(db: Db, url: string): Promise<boolean> {
  const row = await db
    .selectFrom("renovation_projects")
    .select("id")
    .where((eb) => eb.or([eb("before_image_url", "=", url), eb("after_image_url", "=", url)]))
    .executeTakeFirst();
  return row !== undefined || (await siteReferences(db)).has(url);
}

/**
 * Removes an image a project no longer uses (SPEC §7: after a delete, and
 * after a replaced image's save has committed): its row, then its files.
 * Never throws: a failure is logged as a warning (SPEC §8), and
 * `npm run admin -- gc-images` picks up what is left.
 */
export async function removeImageIfUnused(services: ImageServices, url: string): Promise<void> {
  const name = storedNameFromUrl(url);
  if (!name) return; // the sample's or another site's URL: not ours to remove
  try {
    if (await isReferenced(services.db, url)) return;
    const row = await services.db.selectFrom("images").select("variants").where("name", "=", name).executeTakeFirst();
    await services.db.deleteFrom("images").where("name", "=", name).execute();
    const variants = row ? (JSON.parse(row.variants) as ImageVariant[]).map((variant) => variant.name) : [];
    for (const file of [name, ...variants]) await services.storage.delete(file);
  } catch (error) {
    services.log.warn(`Could not remove the image ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export type GcReport = { removed: string[]; keptRecent: number; inUse: number };

/**
 * Removes what no project refers to: recorded images (with their copies) and
 * stray files. Files younger than `minAgeMs` are left alone: an admin may
 * have uploaded them into a form that is not saved yet.
 */
export async function collectUnusedImages(
  services: Omit<ImageServices, "log">,
  { minAgeMs, now = Date.now() }: { minAgeMs: number; now?: number },
  actor: Actor,
): Promise<GcReport> {
  const projects = await services.db.selectFrom("renovation_projects").select(["before_image_url", "after_image_url"]).execute();
  const siteUrls = await siteReferences(services.db);
  const usedNames = new Set(
    [...projects.flatMap((project) => [project.before_image_url, project.after_image_url]), ...siteUrls]
      .map(storedNameFromUrl)
      .filter((name): name is string => name !== undefined),
  );
  // A referenced file is kept even without its row.
  const usedFiles = new Set(usedNames);
  const rows = await services.db.selectFrom("images").select(["name", "variants"]).execute();
  for (const row of rows) {
    if (!usedNames.has(row.name)) continue;
    usedFiles.add(row.name);
    for (const variant of JSON.parse(row.variants) as ImageVariant[]) usedFiles.add(variant.name);
  }

  const isOld = (name: string) => now - parseImageName(name)!.timestamp >= minAgeMs;
  const report: GcReport = { removed: [], keptRecent: 0, inUse: 0 };
  for (let offset = 0; ; offset += 100) {
    const page = await services.storage.list({ limit: 100, offset, sortBy: { column: "name", order: "asc" } });
    for (const object of page) {
      if (usedFiles.has(object.name)) report.inUse++;
      else if (isOld(object.name)) report.removed.push(object.name);
      else report.keptRecent++;
    }
    if (page.length < 100) break;
  }
  // Rows first (so no form can pick the image up any more), then files. A
  // row's files carry its timestamp, so an old unused row has only old unused
  // files (or none left).
  const unusedRows = rows.filter((row) => !usedNames.has(row.name) && isOld(row.name)).map((row) => row.name);
  await inTransaction(services.db, async (trx) => {
    for (let index = 0; index < unusedRows.length; index += 500) {
      await trx
        .deleteFrom("images")
        .where("name", "in", unusedRows.slice(index, index + 500))
        .execute();
    }
    if (report.removed.length > 0 || unusedRows.length > 0) await audit(trx, { actor, action: "files-removed", details: { count: report.removed.length } });
  });
  for (const name of report.removed) await services.storage.delete(name);
  return report;
}
