import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageNameFromUrl, parseImageName } from "~/images/image-files";
import { plainLog } from "~/platform/observe/log.server";
import { DEMO_PROJECTS, seedDemoProjects } from "~/projects/demo.server";
import { createProject, listAllProjects } from "~/projects/projects.server";
import { LocalDiskStorage, type ImageStorage } from "~/platform/storage/storage.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { backends } from "../support/backends";
import { makeTempDir, removeTempDir } from "../support/temp";
import { useDatabase } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

const TITLES = DEMO_PROJECTS.map((project) => project.title);
// Six pictures rasterised and processed (AVIF included) per run, on a shared machine.
const SLOW = 240_000;

async function readAll(storage: ImageStorage, name: string): Promise<Buffer | undefined> {
  const opened = await storage.open(name);
  if (!opened) return undefined;
  return Buffer.concat(await opened.stream().toArray());
}

async function exists(storage: ImageStorage, name: string): Promise<boolean> {
  const opened = await storage.open(name);
  await opened?.close();
  return opened !== undefined;
}

describe.each(backends)("seed-demo on $name", (backend) => {
  const data = useDatabase(backend);
  let dir: string;
  let storage: LocalDiskStorage;

  beforeAll(async () => {
    dir = await makeTempDir("demo-images");
    storage = new LocalDiskStorage(dir, IMAGE_NAMING);
    await createProject(
      data.db,
      {
        title: "Existing Project",
        category: "Kitchen Renovation",
        description: "Already in the gallery.",
        duration: "1 week",
        budget: "£1,000",
        before_image_url: "/samples/kitchen-before.svg",
        after_image_url: "/samples/kitchen-after.svg",
      },
      TEST_ACTOR,
    );
  });
  afterAll(() => removeTempDir(dir));

  it(
    "removes what it stored for a project when the project cannot be saved, and rethrows",
    async () => {
      const failingDir = await makeTempDir("demo-failing");
      try {
        const disk = new LocalDiskStorage(failingDir, IMAGE_NAMING);
        // The first picture is stored in full; the first file of the second one fails.
        let firstStem: string | undefined;
        const failing: ImageStorage = {
          description: "a disk that fills up",
          async put(name, data, options) {
            const stem = parseImageName(name)!.stem;
            firstStem ??= stem;
            if (stem !== firstStem) throw new Error("disk full");
            await disk.put(name, data, options);
          },
          delete: (name) => disk.delete(name),
          url: (name) => disk.url(name),
          list: (options) => disk.list(options),
          open: (name) => disk.open(name),
          read: (name) => disk.read(name),
        };
        await expect(seedDemoProjects({ db: data.db, storage: failing, log: plainLog(() => {}) }, TEST_ACTOR)).rejects.toThrow("disk full");
        expect(firstStem).toBeDefined();
        expect(await disk.list()).toEqual([]);
        expect(await data.db.selectFrom("images").select("name").execute()).toEqual([]);
        expect((await listAllProjects(data.db)).map((project) => project.title)).toEqual(["Existing Project"]);
      } finally {
        await removeTempDir(failingDir);
      }
    },
    SLOW,
  );

  it(
    "adds three active projects after the existing ones, with stored JPEGs and responsive copies; a second run adds nothing",
    async () => {
      const first = await seedDemoProjects({ db: data.db, storage, log: plainLog(() => {}) }, TEST_ACTOR);
      expect(first).toEqual({ created: TITLES, skipped: [] });

      const projects = await listAllProjects(data.db);
      expect(projects.map((project) => project.title)).toEqual(["Existing Project", ...TITLES]);
      expect(projects.map((project) => project.display_order)).toEqual([0, 1, 2, 3]);
      for (const [index, project] of projects.slice(1).entries()) {
        const demo = DEMO_PROJECTS[index]!;
        expect(project).toMatchObject({
          is_active: true,
          category: demo.category,
          budget: expect.stringMatching(/^£[\d,]+$/),
          before_image_alt: demo.before_image_alt,
          after_image_alt: demo.after_image_alt,
        });
        expect(project.before_image_url).not.toBe(project.after_image_url);
        for (const url of [project.before_image_url, project.after_image_url]) {
          expect(url).toMatch(/^\/images\/\d{13}-[a-z0-9]{12}\.jpg$/);
          const bytes = await readAll(storage, imageNameFromUrl(url)!);
          expect(bytes, url).toBeDefined();
          const metadata = await sharp(bytes!).metadata();
          expect(metadata).toMatchObject({ format: "jpeg", width: 1600, height: 1200 });
          expect(metadata.exif).toBeUndefined();
        }
        for (const sources of [project.before_image_sources, project.after_image_sources]) {
          expect(sources).toMatchObject({ width: 1600, height: 1200 });
          expect(sources!.avif).toMatch(/^\/images\/\S+-480w\.avif 480w, \S+-960w\.avif 960w, \S+-1440w\.avif 1440w$/);
          expect(sources!.webp).toMatch(/^\/images\/\S+-480w\.webp 480w, \S+-960w\.webp 960w, \S+-1440w\.webp 1440w$/);
          for (const entry of [...sources!.avif.split(", "), ...sources!.webp.split(", ")]) {
            expect(await exists(storage, entry.split(" ")[0]!.replace(/^\/images\//, "")), entry).toBe(true);
          }
        }
      }
      const files = await storage.list({ limit: 1000 });
      const imageRows = await data.db.selectFrom("images").select("name").execute();
      expect(imageRows).toHaveLength(6);

      const second = await seedDemoProjects({ db: data.db, storage, log: plainLog(() => {}) }, TEST_ACTOR);
      expect(second).toEqual({ created: [], skipped: TITLES });
      expect(await listAllProjects(data.db)).toHaveLength(4);
      expect(await data.db.selectFrom("images").select("name").execute()).toHaveLength(6);
      expect(await storage.list({ limit: 1000 })).toHaveLength(files.length);
    },
    SLOW,
  );
});
