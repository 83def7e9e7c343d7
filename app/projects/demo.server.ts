import { removeImageIfUnused, saveImage, type ImageServices } from "~/images/images.server";
import type { Actor } from "~/audit/actor";
import { loadSharp } from "~/images/process.server";
import { demoArt, type DemoRoom } from "./demo-art.server";
import { createProject, type NewProject } from "./projects.server";

/**
 * `npm run admin -- seed-demo`: three example projects for a fresh site, with
 * before/after pictures drawn here (demo-art.server.ts), so nothing is
 * downloaded. Each picture is rasterised to a JPEG and goes through saveImage
 * like any upload (re-encoded, WebP/AVIF copies, recorded in `images`).
 */
type DemoProject = Omit<NewProject, "before_image_url" | "after_image_url" | "display_order" | "is_active"> & { room: DemoRoom };

export const DEMO_PROJECTS: readonly DemoProject[] = [
  {
    room: "kitchen",
    title: "Victorian Terrace Kitchen, Islington",
    category: "Kitchen Renovation",
    description:
      "A tired kitchen in a Victorian mid-terrace stripped back and refitted with sage shaker units, oak worktops, a central island and engineered oak flooring. Damp behind the old units was treated and the ceiling replastered ahead of a new tenancy.",
    duration: "4 weeks",
    budget: "£18,500",
    before_image_alt: "Before: dated kitchen with worn brown cupboards, a door hanging off, brown tiles and a stained ceiling",
    after_image_alt: "After: bright kitchen with sage green shaker units, oak worktops, an island with stools and oak flooring",
  },
  {
    room: "bathroom",
    title: "Garden Flat Bathroom Refit, Bristol",
    category: "Bathroom Renovation",
    description:
      "An avocado suite with black mould and failing grout replaced by a walk-in shower, full-height tiling and a wall-hung oak vanity. A new extractor fan keeps condensation down in this lower-ground-floor flat.",
    duration: "2 weeks",
    budget: "£9,200",
    before_image_alt: "Before: avocado green bath and basin, a mouldy shower curtain, pink tiles and black mould near the ceiling",
    after_image_alt: "After: walk-in shower with green tiles and a glass screen, an oak vanity, a round brass mirror and a heated towel rail",
  },
  {
    room: "loft",
    title: "Loft Conversion, 1930s Semi in Manchester",
    category: "Loft Conversion",
    description:
      "An unused loft with bare rafters converted into a double bedroom with two roof windows, eaves storage and insulation to current Building Regulations.",
    duration: "8 weeks",
    budget: "£38,000",
    before_image_alt: "Before: unconverted loft with bare rafters, a brick gable wall, insulation between the joists and stored boxes",
    after_image_alt: "After: bright loft bedroom with two roof windows, a sage green feature wall, a double bed and oak bedside tables",
  },
];

/** A demo picture as the JPEG an admin might upload: 1600×1200. */
export async function renderDemoJpeg(room: DemoRoom, side: "before" | "after"): Promise<Buffer> {
  const { default: sharp } = await loadSharp();
  return sharp(Buffer.from(demoArt(room, side)))
    .resize(1600, 1200)
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Adds the demo projects, each last in the display order and active. One
 * whose exact title is already there is skipped, so running it again adds
 * nothing. When a project cannot be saved, the images stored for it are
 * removed and the error is thrown; projects added before it stay.
 */
export async function seedDemoProjects(services: ImageServices, actor: Actor): Promise<{ created: string[]; skipped: string[] }> {
  const titles = DEMO_PROJECTS.map((project) => project.title);
  const existing = await services.db.selectFrom("renovation_projects").select("title").where("title", "in", titles).execute();
  const taken = new Set(existing.map((row) => row.title));
  const created: string[] = [];
  const skipped: string[] = [];

  for (const { room, ...project } of DEMO_PROJECTS) {
    if (taken.has(project.title)) {
      skipped.push(project.title);
      continue;
    }
    const stored: string[] = [];
    try {
      for (const side of ["before", "after"] as const) {
        const image = await saveImage(services, await renderDemoJpeg(room, side), actor);
        stored.push(image.url);
      }
      await createProject(services.db, { ...project, before_image_url: stored[0]!, after_image_url: stored[1]!, is_active: true }, actor);
    } catch (error) {
      for (const url of stored) await removeImageIfUnused(services, url);
      throw error;
    }
    created.push(project.title);
  }
  return { created, skipped };
}
