import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect, test, type Page } from "@playwright/test";
import { expectLoadedFromOurOrigin, section, waitForHydration } from "./fixtures";

/**
 * The gallery's other states (SPEC §2, §4, §8), on the second server, whose
 * database has no projects. The tests share that server's database, so they
 * run one after the other.
 */
test.describe.configure({ mode: "serial" });

const EMPTY_GALLERY_URL = process.env.E2E_EMPTY_GALLERY_URL ?? "";
const SAMPLE = {
  title: "Victorian Kitchen Transformation",
  category: "Kitchen Renovation",
  duration: "3 weeks",
  budget: "£15,000",
};

function emptyGalleryDatabase(): DatabaseSync {
  const dataDir = process.env.E2E_EMPTY_GALLERY_DATA_DIR;
  if (!dataDir) throw new Error("E2E_EMPTY_GALLERY_DATA_DIR is not set: run the tests through playwright.config.ts");
  const db = new DatabaseSync(path.join(dataDir, "app.sqlite"));
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
}

async function openGallery(page: Page): Promise<void> {
  await page.goto(EMPTY_GALLERY_URL);
  await waitForHydration(page);
}

test("with no active projects: the heading Property Renovation Services and a note that the gallery is being updated", async ({ page, request }) => {
  const projects = await request.get(`${EMPTY_GALLERY_URL}/api/projects`);
  expect(await projects.json()).toEqual([]);

  await openGallery(page);
  const renovations = section(page, "renovations");
  await expect(renovations.getByRole("heading", { name: "Property Renovation Services" })).toBeVisible();
  await expect(renovations.getByText(/being updated/i)).toBeVisible();
  await expect(renovations.getByRole("button", { name: "Next project" })).toHaveCount(0);
  await expect(renovations.getByRole("button", { name: "Previous project" })).toHaveCount(0);
  await expect(renovations.getByText("Loading renovation projects...")).toHaveCount(0);
  // The rest of the section is still there.
  await expect(renovations.getByRole("button", { name: "Get Free Consultation" })).toBeVisible();
});

test("when the projects cannot be loaded: logged, then the bundled sample project", async ({ page }) => {
  const db = emptyGalleryDatabase();
  // Take the table away under the running server, so its gallery query fails, and say the public
  // data changed (as a write would), so no page rendered before is served in its place.
  db.exec("ALTER TABLE renovation_projects RENAME TO renovation_projects_offline");
  db.exec("UPDATE public_data_version SET version = version + 1");
  try {
    const errors: string[] = [];
    page.on("console", (message) => {
      // The app's own report, not the browser's note about some failed resource.
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
    });
    await openGallery(page);
    const renovations = section(page, "renovations");
    for (const text of Object.values(SAMPLE)) {
      await expect(renovations.getByText(text, { exact: true }), text).toBeVisible();
    }
    await expect(renovations.getByText(/^\s*before\s*$/i)).toBeVisible();
    await expect(renovations.getByText(/^\s*after\s*$/i)).toBeVisible();
    await expect(renovations.getByRole("heading", { name: "Property Renovation Services" })).toHaveCount(0);
    // One dot for the one project.
    await expect(renovations.getByRole("button", { name: new RegExp(SAMPLE.title) })).toHaveCount(1);
    // Its images ship with the site.
    const images = renovations.locator("img");
    await expect(images).toHaveCount(2);
    for (const image of await images.all()) await expectLoadedFromOurOrigin(image);
    // Logged in the browser's console.
    await expect.poll(() => errors.length, { message: "the failure is logged" }).toBeGreaterThan(0);
  } finally {
    db.exec("ALTER TABLE renovation_projects_offline RENAME TO renovation_projects");
    db.close();
  }
});
