import path from "node:path";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { removeImageIfUnused, saveImage } from "~/images/images.server";
import { createProject, listAllProjects } from "~/projects/projects.server";
import type { RenovationProject } from "~/projects/types";
import { LocalDiskStorage } from "~/platform/storage/storage.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { plainLog } from "~/platform/observe/log.server";
import { withAdminDb } from "./admin-fixtures";
import { waitForHydration } from "./fixtures";
import { TEST_ACTOR } from "../support/actors";

/**
 * The Renovation Projects tab (issue 4, gallery management) on the "admin"
 * server: its words, its database and image bucket (through the app's own
 * data layer), images made with sharp, and locators for the panel.
 */

/** The words of the issue and SPEC §2, §5, §8, exactly. */
export const PROJECTS = {
  add: "Add Project",
  addTitle: "Add New Project",
  editTitle: "Edit Project",
  cancel: "Cancel",
  create: "Create Project",
  update: "Update Project",
  displayOrder: "Display Order",
  empty: "No projects found. Add your first project to get started!",
  created: "Project created successfully!",
  updated: "Project updated successfully!",
  deleted: "Project deleted successfully!",
  deleteConfirm: "Are you sure you want to delete this project?",
  bothImages: "Please upload both before and after images.",
  active: "Active",
  inactive: "Inactive",
  moveUp: "Move up",
  moveDown: "Move down",
  hide: "Hide from homepage",
  show: "Show on homepage",
  edit: "Edit project",
  delete: "Delete project",
  // The words the issue leaves open, as the app says them.
  hidden: "Project hidden from homepage.",
  shown: "Project shown on homepage.",
  moved: "Display order updated.",
  waitForUploads: "Waiting for the images to finish uploading...",
} as const;

export const UPLOADS = {
  /** checkSelectedFiles' generic drop-zone message for a type that is not image/*. */
  notAnImageType: "File type must be image/*, .jpeg, .jpg, .png, .gif, .webp",
  /** The server's refusal of bytes that are no image, after "Upload failed: ". */
  refusedBytes: "Upload failed: Please upload a valid image file (JPEG, PNG, GIF, or WebP).",
} as const;

/** SPEC §9: the browser makes a file over 2 MB fit in 1920×1080 before sending it. */
export const RESIZE_BOX = { width: 1920, height: 1080 } as const;
export const RESIZE_ABOVE_BYTES = 2 * 1024 * 1024;

// ---- images, made here ----

/** A picture with some structure (a coloured field and a contrasting band), so every encoder has work to do. */
async function picture(width: number, height: number, colour: string, band: string) {
  const overlay = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect x="0" y="${Math.round(height * 0.6)}" width="${width}" height="${Math.round(height * 0.25)}" fill="${band}"/>` +
      `<circle cx="${Math.round(width * 0.3)}" cy="${Math.round(height * 0.3)}" r="${Math.round(height * 0.15)}" fill="#ffffff"/>` +
      `</svg>`,
  );
  return sharp({ create: { width, height, channels: 3, background: colour } }).composite([{ input: overlay }]);
}

/** A photo as a phone writes it: a JPEG with EXIF GPS coordinates (which must not survive the upload). */
export async function jpegWithGps(width = 1200, height = 900, colour = "#b45309"): Promise<Buffer> {
  const image = await picture(width, height, colour, "#1e3a8a");
  return image
    .withExif({
      IFD0: { Make: "E2E Camera", Model: "Test Phone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 26/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 39/1" },
    })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export async function jpeg(width: number, height: number, colour: string): Promise<Buffer> {
  return (await picture(width, height, colour, "#0f172a")).jpeg({ quality: 82 }).toBuffer();
}

export async function png(width: number, height: number, colour: string): Promise<Buffer> {
  return (await picture(width, height, colour, "#f8fafc")).png().toBuffer();
}

let noisy: Promise<Buffer> | undefined;
/**
 * A 3000×2000 JPEG of noise, about 3 MB: over the 2 MB above which the
 * browser resizes before sending, under the 10 MB limit. Made once per worker.
 */
export function largeNoisyJpeg(): Promise<Buffer> {
  noisy ??= sharp({
    create: { width: 3000, height: 2000, channels: 3, background: "#64748b", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  return noisy;
}

/** Reads an image's EXIF block (undefined when it has none) and size. */
export async function imageFacts(bytes: Buffer): Promise<{ format?: string; width?: number; height?: number; exif?: Buffer }> {
  const { format, width, height, exif } = await sharp(bytes).metadata();
  return { format, width, height, exif };
}

// ---- the admin server's projects and images ----

function adminStorage(): LocalDiskStorage {
  const dataDir = process.env.E2E_ADMIN_DATA_DIR;
  if (!dataDir) throw new Error("E2E_ADMIN_DATA_DIR is not set: run the tests through playwright.config.ts");
  return new LocalDiskStorage(path.join(dataDir, "images"), IMAGE_NAMING);
}

export type ProjectSeed = {
  title: string;
  category?: string;
  description?: string;
  duration?: string;
  budget?: string;
  /** Colour of its pictures, so each project's images differ. */
  colour: string;
  is_active?: boolean;
  display_order?: number;
};

/**
 * Removes every project (and its images, as a delete in the admin would),
 * then stores these, in order, each with a before and an after image
 * uploaded through saveImage (so they have their AVIF/WebP copies).
 */
export async function resetProjects(seeds: ProjectSeed[] = []): Promise<RenovationProject[]> {
  const storage = adminStorage();
  return withAdminDb(async (db) => {
    const services = { db, storage, log: plainLog((line) => console.warn(line)) };
    const old = await listAllProjects(db);
    await db.deleteFrom("renovation_projects").execute();
    for (const project of old) {
      await removeImageIfUnused(services, project.before_image_url);
      await removeImageIfUnused(services, project.after_image_url);
    }
    const created: RenovationProject[] = [];
    for (const [index, seed] of seeds.entries()) {
      const before = await saveImage(services, await jpeg(640, 480, seed.colour), TEST_ACTOR);
      const after = await saveImage(services, await png(640, 480, seed.colour), TEST_ACTOR);
      created.push(
        await createProject(
          db,
          {
            title: seed.title,
            category: seed.category ?? "Kitchen Renovation",
            description: seed.description ?? `Seeded project ${seed.title}.`,
            duration: seed.duration ?? "3 weeks",
            budget: seed.budget ?? "£12,000",
            before_image_url: before.url,
            after_image_url: after.url,
            is_active: seed.is_active ?? true,
            display_order: seed.display_order ?? index,
          },
          TEST_ACTOR,
        ),
      );
    }
    return created;
  });
}

/** What the admin server has stored, in display order. */
export function storedProjects(): Promise<RenovationProject[]> {
  return withAdminDb((db) => listAllProjects(db));
}

/** Every URL in a `srcset` ("a.avif 480w, b.avif 960w" → ["a.avif", "b.avif"]). */
export function srcsetUrls(srcset: string | null | undefined): string[] {
  return (srcset ?? "")
    .split(",")
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? "")
    .filter(Boolean);
}

/** A project's stored image URLs: both main images and every AVIF/WebP copy. */
export function imageUrlsOf(project: RenovationProject): { main: string[]; copies: string[] } {
  const copies = [project.before_image_sources, project.after_image_sources].flatMap((sources) => [...srcsetUrls(sources?.avif), ...srcsetUrls(sources?.webp)]);
  return { main: [project.before_image_url, project.after_image_url], copies };
}

/** The HTTP status each URL answers now. */
export async function statuses(request: APIRequestContext, urls: string[]): Promise<number[]> {
  const answers: number[] = [];
  for (const url of urls) answers.push((await request.get(url, { maxRedirects: 0 })).status());
  return answers;
}

/** The public gallery as GET /api/projects answers it. */
export async function apiProjects(request: APIRequestContext): Promise<RenovationProject[]> {
  const response = await request.get("/api/projects");
  expect(response.status()).toBe(200);
  return (await response.json()) as RenovationProject[];
}

// ---- the page ----

/** Opens the Renovation Projects tab (hydrated when JavaScript runs); the page's context is signed in (signed-in.ts). */
export async function openProjects(page: Page, { hydrate = true } = {}): Promise<void> {
  await page.goto("/admin/projects");
  await expect(page.getByRole("heading", { name: "Renovation Projects", level: 2 })).toBeVisible();
  if (hydrate) await waitForHydration(page);
}

export function addButton(page: Page): Locator {
  return page.getByRole("button", { name: PROJECTS.add, exact: true });
}

export function formHeading(page: Page, name: string = PROJECTS.addTitle): Locator {
  return page.getByRole("heading", { name, exact: true, level: 3 });
}

/** The project form's controls. */
export function projectForm(page: Page) {
  const form = page.locator("form#project-form");
  const textbox = (name: string) => form.getByRole("textbox", { name, exact: true });
  const group = (side: "before" | "after") => form.getByRole("group", { name: side === "before" ? "Before Image" : "After Image", exact: true });
  return {
    form,
    title: textbox("Title"),
    category: textbox("Category"),
    description: textbox("Description"),
    duration: textbox("Duration"),
    budget: textbox("Budget"),
    displayOrder: form.getByRole("spinbutton", { name: PROJECTS.displayOrder, exact: true }),
    group,
    file: (side: "before" | "after") => form.locator(`input[type="file"][name="${side}_image_file"]`),
    imageUrl: (side: "before" | "after") => form.locator(`input[type="hidden"][name="${side}_image_url"]`),
    preview: (side: "before" | "after") => group(side).getByRole("img"),
    alt: (side: "before" | "after") => textbox(`Alt text for the ${side} image`),
    create: form.getByRole("button", { name: PROJECTS.create, exact: true }),
    update: form.getByRole("button", { name: PROJECTS.update, exact: true }),
    cancel: form.getByRole("link", { name: PROJECTS.cancel, exact: true }),
  };
}

export type ProjectText = { title: string; category: string; description: string; duration: string; budget: string };

export async function fillProjectText(page: Page, values: ProjectText): Promise<void> {
  const form = projectForm(page);
  await form.title.fill(values.title);
  await form.category.fill(values.category);
  await form.description.fill(values.description);
  await form.duration.fill(values.duration);
  await form.budget.fill(values.budget);
}

/** The list of projects. */
export function projectList(page: Page): Locator {
  return page.getByRole("list", { name: "Renovation Projects", exact: true });
}

/** A project's row: the article named by its title. */
export function projectRow(page: Page, title: string): Locator {
  return projectList(page).getByRole("article", { name: title, exact: true });
}

/** The titles of the rows, top to bottom. */
export function rowTitles(page: Page): Promise<string[]> {
  return projectList(page).getByRole("heading", { level: 3 }).allTextContents();
}

export function rowButton(row: Locator, name: string): Locator {
  return row.getByRole("button", { name, exact: true });
}

/** The live region above the list that says what the last action did. */
export function noticeArea(page: Page): Locator {
  return page.locator('section[aria-labelledby="projects-heading"] > [aria-live]');
}

/**
 * Asserts what the notice above the list says, and its role (status for a
 * success, alert for an error). On failure the message shows what it says
 * instead.
 */
export async function expectNotice(page: Page, kind: "status" | "alert", text: string): Promise<void> {
  await expect(noticeArea(page), `the notice says "${text}"`).toHaveText(text);
  await expect(noticeArea(page).getByRole(kind)).toHaveText(text);
}
