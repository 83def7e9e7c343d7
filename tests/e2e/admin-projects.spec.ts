import { writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type FileChooser, type Locator, type Page, type Request, type Response } from "@playwright/test";
import { ADMIN_URL, gate, holdActionAnswer } from "./admin-fixtures";
import {
  PROJECTS,
  RESIZE_ABOVE_BYTES,
  RESIZE_BOX,
  UPLOADS,
  addButton,
  apiProjects,
  expectNotice,
  fillProjectText,
  formHeading,
  imageFacts,
  imageUrlsOf,
  jpeg,
  jpegWithGps,
  largeNoisyJpeg,
  noticeArea,
  openProjects,
  png,
  projectForm,
  projectList,
  projectRow,
  resetProjects,
  rowButton,
  rowTitles,
  srcsetUrls,
  statuses,
  storedProjects,
  type ProjectText,
} from "./admin-projects-fixtures";
import { expectFocusIndicator, expectLoadedFromOurOrigin, gotoLanding, section, tabUntilFocused, waitForHydration } from "./fixtures";
import { signedInState } from "./signed-in";

/**
 * The Renovation Projects tab (issue 4: gallery management) on the "admin"
 * server, whose homepage and /api/projects show what the tab saves. Every
 * test empties that server's gallery and seeds its own projects, so the tests
 * of this file run one after the other, in one worker (mode "default": in
 * order, and a failure does not skip the rest). They start signed in (the
 * admin server's saved session: signed-in.ts).
 */
test.describe.configure({ mode: "default" });
test.use({ baseURL: ADMIN_URL, storageState: signedInState("admin") });

const NEW_PROJECT: ProjectText = {
  title: "Georgian Townhouse Kitchen",
  category: "Kitchen Renovation",
  description: "A dark basement kitchen opened up to the garden.\nNew units, underfloor heating and a skylight.",
  duration: "5 weeks",
  budget: "£21,500",
};

/** The next POST /api/admin/images answer. */
function nextUpload(page: Page): Promise<Response> {
  return page.waitForResponse((response) => new URL(response.url()).pathname === "/api/admin/images" && response.request().method() === "POST");
}

/** Records every request to the upload endpoint. */
function recordUploads(page: Page): Request[] {
  const uploads: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/admin/images") uploads.push(request);
  });
  return uploads;
}

/** An image that has loaded (complete, with a natural width). */
async function expectImageLoaded(image: Locator): Promise<void> {
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
      message: "the image loaded",
    })
    .toBe(true);
}

/** The homepage's gallery: the carousel region. */
function carousel(page: Page): Locator {
  return section(page, "renovations").getByRole("region", { name: "Renovation projects, before and after" });
}

/** The carousel's dots' names, in order: "Show project 1 of 2: <title>". */
function carouselDots(page: Page): Promise<string[]> {
  return carousel(page)
    .getByRole("button", { name: /^Show project \d+ of \d+: / })
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("aria-label") ?? ""));
}

/** The visible slide of the carousel. */
function currentSlide(page: Page): Locator {
  return carousel(page).locator('[aria-roledescription="slide"]:not([hidden])');
}

test("a fresh gallery shows 'No projects found. Add your first project to get started!' and the Add Project button", async ({ page }) => {
  await resetProjects();
  await openProjects(page);
  await expect(page.getByText(PROJECTS.empty, { exact: true })).toBeVisible();
  await expect(projectList(page)).toHaveCount(0);
  await expect(addButton(page)).toBeVisible();
  await expect(formHeading(page)).toHaveCount(0);
  // The public API agrees: nothing to show.
  expect(await apiProjects(page.request)).toEqual([]);
});

test("Add Project with two uploads: progress while uploading, Save waits, the large photo is resized in the browser, GPS is stripped; created, then seen on / and /api/projects", async ({
  page,
}) => {
  test.slow();
  const [existing] = await resetProjects([{ title: "Existing Bathroom Refit", colour: "#0e7490" }]);
  const photo = await jpegWithGps();
  expect((await imageFacts(photo)).exif, "the test photo carries EXIF").toBeDefined();
  const large = await largeNoisyJpeg();
  expect(large.length).toBeGreaterThan(RESIZE_ABOVE_BYTES);

  await openProjects(page);
  await expect(page.getByText(PROJECTS.empty, { exact: true })).toHaveCount(0);
  await addButton(page).click();
  await expect(page).toHaveURL(/\/admin\/projects\?form=new$/);
  await expect(formHeading(page, PROJECTS.addTitle)).toBeVisible();
  // Add Project is the form now; it comes back when the form closes.
  await expect(addButton(page)).toHaveCount(0);
  const form = projectForm(page);
  await expect(form.title).toBeFocused();
  // The display order starts as the number of projects: last.
  await expect(form.displayOrder).toHaveValue("1");
  for (const field of [form.title, form.category, form.description, form.duration, form.budget]) {
    await expect(field).toHaveAttribute("required", "");
  }
  await expect(form.preview("before")).toHaveCount(0);
  await expect(form.preview("after")).toHaveCount(0);
  await fillProjectText(page, NEW_PROJECT);

  // The before photo: held at the server's door, so the upload is seen in progress.
  const held = gate();
  await page.route("**/api/admin/images", async (route) => {
    await held.wait;
    await route.continue();
  });
  const beforeUploaded = nextUpload(page);
  await form.file("before").setInputFiles({ name: "kitchen-before.jpg", mimeType: "image/jpeg", buffer: photo });
  const progress = form.group("before").getByRole("progressbar", { name: "Uploading…", exact: true });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuemin", "0");
  await expect(progress).toHaveAttribute("aria-valuemax", "100");
  expect(Number(await progress.getAttribute("aria-valuenow"))).toBeGreaterThanOrEqual(0);
  await expect(form.create).toBeDisabled();
  await expect(form.form.getByRole("status").filter({ hasText: PROJECTS.waitForUploads })).toBeVisible();
  // The file input keeps its focusability (not `disabled`) but says it is unavailable.
  await expect(form.file("before")).toHaveAttribute("aria-disabled", "true");
  held.release();
  const beforeAnswer = await beforeUploaded;
  expect(beforeAnswer.status()).toBe(201);
  const beforeImage = (await beforeAnswer.json()) as { url: string; width: number; height: number };
  expect(beforeImage).toMatchObject({ width: 1200, height: 900 });
  expect(beforeImage.url).toMatch(/^\/images\/\d{13}-[a-z0-9]{12}\.jpg$/);
  await page.unroute("**/api/admin/images");
  await expect(progress).toHaveCount(0);
  await expect(form.preview("before")).toHaveAttribute("src", beforeImage.url);
  await expectImageLoaded(form.preview("before"));
  await expect(form.preview("before")).toHaveAttribute("alt", `Before: ${NEW_PROJECT.title}`);
  await expect(form.imageUrl("before")).toHaveValue(beforeImage.url);
  await expect(form.group("before").getByRole("button", { name: "Remove before image", exact: true })).toBeVisible();
  await expect(form.group("before").getByText("Replace image", { exact: true })).toBeVisible();
  // With JavaScript the bytes travel once: the file input is emptied after the upload.
  expect(await form.file("before").evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);
  await expect(form.create).toBeEnabled();

  // The stored photo has lost its EXIF (GPS included).
  const storedPhoto = await page.request.get(beforeImage.url);
  expect(storedPhoto.status()).toBe(200);
  expect(storedPhoto.headers()["content-type"]).toBe("image/jpeg");
  expect((await imageFacts(await storedPhoto.body())).exif, "no EXIF, so no GPS position, in the stored image").toBeUndefined();

  // The after photo is over 2 MB: the browser makes it fit 1920×1080 before sending it.
  const afterUploaded = nextUpload(page);
  await form.file("after").setInputFiles({ name: "kitchen-after.jpg", mimeType: "image/jpeg", buffer: large });
  const afterAnswer = await afterUploaded;
  expect(afterAnswer.status()).toBe(201);
  const afterImage = (await afterAnswer.json()) as { url: string; width: number; height: number };
  // 3000×2000 fitted into 1920×1080 is 1620×1080; the server alone would have kept 1920×1280.
  expect(afterImage.width).toBeLessThanOrEqual(RESIZE_BOX.width);
  expect(afterImage.height).toBeLessThanOrEqual(RESIZE_BOX.height);
  expect(afterImage).toMatchObject({ width: 1620, height: 1080 });
  // What went over the wire: the multipart body's length, well under the file chosen.
  const sent = Number(await afterAnswer.request().headerValue("content-length"));
  expect(sent, "the request's Content-Length").toBeGreaterThan(0);
  expect(sent, "the request carried the smaller copy, not the file chosen").toBeLessThan(large.length);
  await expect(form.preview("after")).toHaveAttribute("src", afterImage.url);
  await expectImageLoaded(form.preview("after"));
  await expect(form.create).toBeEnabled();

  await form.create.click();
  await expectNotice(page, "status", PROJECTS.created);
  await expect(page).toHaveURL(/\/admin\/projects\?notice=project-created$/);
  await expect(formHeading(page, PROJECTS.addTitle)).toHaveCount(0);
  await expect(addButton(page)).toBeVisible();
  await expect.poll(() => rowTitles(page)).toEqual([existing!.title, NEW_PROJECT.title]);
  const row = projectRow(page, NEW_PROJECT.title);
  await expect(row.getByText(PROJECTS.active, { exact: true })).toBeVisible();
  await expect(row.getByText(NEW_PROJECT.category, { exact: true })).toBeVisible();
  await expect(row.getByText(NEW_PROJECT.budget, { exact: true })).toBeVisible();
  await expect(row.getByText(NEW_PROJECT.duration, { exact: true })).toBeVisible();
  const thumbnails = row.getByRole("img");
  await expect(thumbnails).toHaveCount(2);
  await expect(thumbnails.nth(0)).toHaveAttribute("alt", `Before: ${NEW_PROJECT.title}`);
  await expect(thumbnails.nth(1)).toHaveAttribute("alt", `After: ${NEW_PROJECT.title}`);
  await expectImageLoaded(thumbnails.nth(0));
  await expectImageLoaded(thumbnails.nth(1));

  const stored = (await storedProjects()).find((project) => project.title === NEW_PROJECT.title);
  // A form sends a textarea's line breaks as CRLF; the app stores them as they came.
  expect(stored?.description.replace(/\r\n/g, "\n")).toBe(NEW_PROJECT.description);
  expect(stored).toMatchObject({
    ...NEW_PROJECT,
    description: stored?.description,
    before_image_url: beforeImage.url,
    after_image_url: afterImage.url,
    is_active: true,
    display_order: 1,
  });

  // /api/projects has it, with its AVIF and WebP copies.
  const listed = (await apiProjects(page.request)).find((project) => project.title === NEW_PROJECT.title);
  expect(listed).toMatchObject({ before_image_url: beforeImage.url, after_image_url: afterImage.url, is_active: true });
  expect(srcsetUrls(listed!.before_image_sources?.avif).length).toBeGreaterThan(0);
  expect(srcsetUrls(listed!.after_image_sources?.webp).length).toBeGreaterThan(0);

  // The homepage shows it as the second slide.
  await gotoLanding(page, "/");
  await expect(carousel(page).getByText("Project 1 of 2", { exact: false })).toBeVisible();
  await carousel(page)
    .getByRole("button", { name: `Show project 2 of 2: ${NEW_PROJECT.title}`, exact: true })
    .click();
  const slide = currentSlide(page);
  await expect(slide.getByRole("heading", { name: NEW_PROJECT.title, level: 3 })).toBeVisible();
  await expect(slide.getByText(NEW_PROJECT.category, { exact: true })).toBeVisible();
  for (const [side, url] of [
    ["Before", beforeImage.url],
    ["After", afterImage.url],
  ] as const) {
    const image = slide.getByRole("img", { name: `${side}: ${NEW_PROJECT.title}`, exact: true });
    await image.scrollIntoViewIfNeeded();
    await expectLoadedFromOurOrigin(image);
    await expect(image).toHaveAttribute("src", url);
    const picture = image.locator("xpath=..");
    await expect(picture).toHaveJSProperty("tagName", "PICTURE");
    const avif = picture.locator('source[type="image/avif"]');
    const webp = picture.locator('source[type="image/webp"]');
    await expect(avif).toHaveAttribute("srcset", /-\d+w\.avif \d+w/);
    await expect(webp).toHaveAttribute("srcset", /-\d+w\.webp \d+w/);
    // Chromium picks an AVIF copy, not the stored JPEG.
    expect(await image.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/-\d+w\.avif$/);
  }
});

test("an image of 10 MB or more, chosen or dropped, is refused in the browser with the specification's 'File size must be less than 10MB'", async ({
  page,
}) => {
  await resetProjects();
  await openProjects(page);
  await addButton(page).click();
  await expect(formHeading(page)).toBeVisible();
  const form = projectForm(page);
  const uploads = recordUploads(page);
  // An 11 MB photo: a JPEG's first bytes, then zeros.
  const eleven = Buffer.alloc(11 * 1024 * 1024);
  eleven.set([0xff, 0xd8, 0xff, 0xe0]);

  await form.file("before").setInputFiles({ name: "big-photo.jpg", mimeType: "image/jpeg", buffer: eleven });
  await expect(form.group("before").getByRole("alert")).toHaveText("File size must be less than 10MB");

  // Dropped on the drop zone of the other image.
  const dropZone = form
    .group("after")
    .locator("label")
    .filter({ has: page.locator('input[type="file"]') });
  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(11 * 1024 * 1024)], "dropped-photo.jpg", { type: "image/jpeg" }));
    return transfer;
  });
  await dropZone.dispatchEvent("dragenter", { dataTransfer });
  await dropZone.dispatchEvent("drop", { dataTransfer });
  await expect(form.group("after").getByRole("alert")).toHaveText("File size must be less than 10MB");
  await expect(page.getByText(/File is larger than/)).toHaveCount(0);
  expect(uploads, "nothing was sent").toEqual([]);
});

test("validation: both images are required; a text file is refused in the browser; bytes that are no image are refused by the server, inline", async ({
  page,
}) => {
  await resetProjects();
  await openProjects(page);
  await addButton(page).click();
  await expect(formHeading(page)).toBeVisible();
  const form = projectForm(page);
  await expect(form.displayOrder).toHaveValue("0");
  await fillProjectText(page, NEW_PROJECT);

  // No images: the server refuses, says why at the top and by each image, and keeps what was typed.
  await form.create.click();
  await expectNotice(page, "alert", PROJECTS.bothImages);
  for (const side of ["before", "after"] as const) {
    await expect(form.group(side).getByRole("alert")).toHaveText(PROJECTS.bothImages);
    await expect(form.file(side)).toHaveAttribute("aria-invalid", "true");
  }
  await expect(formHeading(page)).toBeVisible();
  await expect(form.title).toHaveValue(NEW_PROJECT.title);
  await expect(form.description).toHaveValue(NEW_PROJECT.description);
  await expect(form.budget).toHaveValue(NEW_PROJECT.budget);
  expect(await storedProjects()).toEqual([]);

  const uploads = recordUploads(page);
  // A text file named .png, typed text/plain by the system: the browser refuses it, nothing is sent.
  await form.file("before").setInputFiles({ name: "notes.png", mimeType: "text/plain", buffer: Buffer.from("just some notes\n") });
  await expect(form.group("before").getByRole("alert")).toHaveText(UPLOADS.notAnImageType);
  await expect(form.group("before").getByRole("progressbar")).toHaveCount(0);
  expect(uploads).toEqual([]);

  // Text named .jpg and typed image/jpeg: the browser lets it through, the server refuses it.
  const refused = nextUpload(page);
  await form.file("after").setInputFiles({ name: "holiday.jpg", mimeType: "image/jpeg", buffer: Buffer.from("this is not a JPEG at all") });
  expect((await refused).status()).toBe(415);
  await expect(form.group("after").getByRole("alert")).toHaveText(UPLOADS.refusedBytes);
  await expect(form.preview("after")).toHaveCount(0);
  await expect(form.imageUrl("after")).toHaveValue("");
  await expect(form.create).toBeEnabled();

  // A real image then replaces the message with a preview.
  const uploaded = nextUpload(page);
  await form.file("before").setInputFiles({ name: "before.png", mimeType: "image/png", buffer: await png(800, 600, "#15803d") });
  expect((await uploaded).status()).toBe(201);
  await expect(form.preview("before")).toBeVisible();
  await expect(form.group("before").getByRole("alert")).toHaveCount(0);
  // Still one image short: refused again, for the after image only.
  await form.create.click();
  await expectNotice(page, "alert", PROJECTS.bothImages);
  // The after image still says it has a problem (its own earlier "Upload failed: …" stays in front of the server's word).
  await expect(form.group("after").getByRole("alert")).toHaveCount(1);
  await expect(form.file("after")).toHaveAttribute("aria-invalid", "true");
  await expect(form.group("before").getByRole("alert")).toHaveCount(0);
  await expect(form.preview("before")).toBeVisible();
  expect(await storedProjects()).toEqual([]);
});

test("Hide from homepage: badge Inactive, 'Show on homepage', gone from / and /api/projects; Show on homepage brings it back", async ({ page }) => {
  const [kept, toggled] = await resetProjects([
    { title: "Mews House Repaint", colour: "#7c3aed" },
    { title: "Basement Flat Damp Proofing", colour: "#be123c" },
  ]);
  await openProjects(page);
  const row = projectRow(page, toggled!.title);
  await expect(row.getByText(PROJECTS.active, { exact: true })).toBeVisible();

  await rowButton(row, PROJECTS.hide).click();
  await expectNotice(page, "status", PROJECTS.hidden);
  await expect(row.getByText(PROJECTS.inactive, { exact: true })).toBeVisible();
  await expect(row.getByText(PROJECTS.active, { exact: true })).toHaveCount(0);
  await expect(rowButton(row, PROJECTS.show)).toBeVisible();
  await expect(rowButton(row, PROJECTS.hide)).toHaveCount(0);
  // Still listed in the admin, in its place.
  await expect.poll(() => rowTitles(page)).toEqual([kept!.title, toggled!.title]);
  expect((await storedProjects()).map((project) => [project.title, project.is_active])).toEqual([
    [kept!.title, true],
    [toggled!.title, false],
  ]);
  expect((await apiProjects(page.request)).map((project) => project.title)).toEqual([kept!.title]);
  // A reload shows what was stored.
  await page.reload();
  await expect(projectRow(page, toggled!.title).getByText(PROJECTS.inactive, { exact: true })).toBeVisible();

  const home = await page.context().newPage();
  await gotoLanding(home, "/");
  await expect.poll(() => carouselDots(home)).toEqual([`Show project 1 of 1: ${kept!.title}`]);
  await expect(section(home, "renovations").getByText(toggled!.title)).toHaveCount(0);

  await page.reload();
  await waitForHydration(page);
  await rowButton(projectRow(page, toggled!.title), PROJECTS.show).click();
  await expectNotice(page, "status", PROJECTS.shown);
  await expect(projectRow(page, toggled!.title).getByText(PROJECTS.active, { exact: true })).toBeVisible();
  await expect(rowButton(projectRow(page, toggled!.title), PROJECTS.hide)).toBeVisible();
  expect((await apiProjects(page.request)).map((project) => project.title)).toEqual([kept!.title, toggled!.title]);
  await home.reload();
  await expect.poll(() => carouselDots(home)).toEqual([`Show project 1 of 2: ${kept!.title}`, `Show project 2 of 2: ${toggled!.title}`]);
});

test("Edit project: 'Edit Project' with its values; a new title and a replaced after image; 'Project updated successfully!'; the old image answers 404", async ({
  page,
}) => {
  test.slow();
  const [project] = await resetProjects([
    { title: "Loft Conversion in Leeds", category: "Loft Conversion", duration: "8 weeks", budget: "£38,000", colour: "#a16207" },
  ]);
  const oldAfter = project!.after_image_url;
  const oldAfterCopies = [...srcsetUrls(project!.after_image_sources?.avif), ...srcsetUrls(project!.after_image_sources?.webp)];
  expect(oldAfterCopies.length).toBeGreaterThan(0);
  expect(await statuses(page.request, [oldAfter, ...oldAfterCopies])).toEqual([200, ...oldAfterCopies.map(() => 200)]);

  await openProjects(page);
  await rowButton(projectRow(page, project!.title), PROJECTS.edit).click();
  await expect(page).toHaveURL(new RegExp(`/admin/projects\\?edit=${project!.id}$`));
  await expect(formHeading(page, PROJECTS.editTitle)).toBeVisible();
  await expect(formHeading(page, PROJECTS.addTitle)).toHaveCount(0);
  await waitForHydration(page);
  const form = projectForm(page);
  await expect(form.title).toBeFocused();
  await expect(form.title).toHaveValue(project!.title);
  await expect(form.category).toHaveValue("Loft Conversion");
  await expect(form.description).toHaveValue(project!.description);
  await expect(form.duration).toHaveValue("8 weeks");
  await expect(form.budget).toHaveValue("£38,000");
  await expect(form.displayOrder).toHaveValue("0");
  await expect(form.preview("before")).toHaveAttribute("src", project!.before_image_url);
  await expect(form.preview("after")).toHaveAttribute("src", oldAfter);
  await expect(form.update).toBeVisible();
  await expect(form.create).toHaveCount(0);

  const newTitle = "Loft Conversion in Headingley";
  await form.title.fill(newTitle);
  const uploaded = nextUpload(page);
  await form.file("after").setInputFiles({ name: "loft-after.png", mimeType: "image/png", buffer: await png(1000, 750, "#0f766e") });
  const answer = await uploaded;
  expect(answer.status()).toBe(201);
  const newAfter = ((await answer.json()) as { url: string }).url;
  expect(newAfter).toMatch(/^\/images\/\d{13}-[a-z0-9]{12}\.png$/);
  await expect(form.preview("after")).toHaveAttribute("src", newAfter);
  await expect(form.update).toBeEnabled();
  await form.update.click();

  await expectNotice(page, "status", PROJECTS.updated);
  await expect(page).toHaveURL(/\/admin\/projects\?notice=project-updated$/);
  await expect(formHeading(page, PROJECTS.editTitle)).toHaveCount(0);
  await expect.poll(() => rowTitles(page)).toEqual([newTitle]);
  const stored = await storedProjects();
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({
    id: project!.id,
    title: newTitle,
    before_image_url: project!.before_image_url,
    after_image_url: newAfter,
  });

  // The replaced image and its copies are gone; the new one and the kept before image answer.
  expect(await statuses(page.request, [oldAfter, ...oldAfterCopies])).toEqual([404, ...oldAfterCopies.map(() => 404)]);
  expect(await statuses(page.request, [newAfter, project!.before_image_url])).toEqual([200, 200]);

  expect((await apiProjects(page.request)).map((listed) => [listed.title, listed.after_image_url])).toEqual([[newTitle, newAfter]]);
  await gotoLanding(page, "/");
  const slide = currentSlide(page);
  await expect(slide.getByRole("heading", { name: newTitle, level: 3 })).toBeVisible();
  await expect(section(page, "renovations").getByText(project!.title, { exact: true })).toHaveCount(0);
  const after = slide.getByRole("img", { name: `After: ${newTitle}`, exact: true });
  await expect(after).toHaveAttribute("src", newAfter);
  await after.scrollIntoViewIfNeeded();
  await expectLoadedFromOurOrigin(after);
});

test("Move down / Move up reorder two projects: the admin list, / and /api/projects follow; the edges are disabled; focus stays in the moved row", async ({
  page,
}) => {
  const [first, second] = await resetProjects([
    { title: "Alpha Kitchen", colour: "#1d4ed8" },
    { title: "Bravo Bathroom", colour: "#b91c1c" },
  ]);
  const a = first!.title;
  const b = second!.title;
  await openProjects(page);
  await expect.poll(() => rowTitles(page)).toEqual([a, b]);
  await expect(rowButton(projectRow(page, a), PROJECTS.moveUp)).toBeDisabled();
  await expect(rowButton(projectRow(page, a), PROJECTS.moveDown)).toBeEnabled();
  await expect(rowButton(projectRow(page, b), PROJECTS.moveUp)).toBeEnabled();
  await expect(rowButton(projectRow(page, b), PROJECTS.moveDown)).toBeDisabled();

  await rowButton(projectRow(page, a), PROJECTS.moveDown).click();
  await expectNotice(page, "status", PROJECTS.moved);
  await expect.poll(() => rowTitles(page)).toEqual([b, a]);
  await expect(rowButton(projectRow(page, b), PROJECTS.moveUp)).toBeDisabled();
  await expect(rowButton(projectRow(page, a), PROJECTS.moveDown)).toBeDisabled();
  await expect(rowButton(projectRow(page, a), PROJECTS.moveUp)).toBeEnabled();
  // The keyboard's place is kept in the moved row: Move down is disabled now, so its Move up has focus.
  await expect.poll(() => focusedButtonIn(projectRow(page, a)), { message: "a button of the moved row has focus" }).toBe(PROJECTS.moveUp);
  expect((await storedProjects()).map((project) => project.title)).toEqual([b, a]);
  expect((await apiProjects(page.request)).map((project) => project.title)).toEqual([b, a]);

  const home = await page.context().newPage();
  await gotoLanding(home, "/");
  await expect.poll(() => carouselDots(home)).toEqual([`Show project 1 of 2: ${b}`, `Show project 2 of 2: ${a}`]);
  await expect(carousel(home).getByText("Project 1 of 2")).toContainText(b);
  await expect(currentSlide(home).getByRole("heading", { level: 3 })).toHaveText(b);

  // Back with the keyboard: Enter on the focused Move up.
  await page.keyboard.press("Enter");
  await expect.poll(() => rowTitles(page)).toEqual([a, b]);
  await expect.poll(() => focusedButtonIn(projectRow(page, a)), { message: "a button of the moved row has focus" }).toBe(PROJECTS.moveDown);
  await expect(rowButton(projectRow(page, a), PROJECTS.moveUp)).toBeDisabled();
  expect((await apiProjects(page.request)).map((project) => project.title)).toEqual([a, b]);
  await home.reload();
  await expect.poll(() => carouselDots(home)).toEqual([`Show project 1 of 2: ${a}`, `Show project 2 of 2: ${b}`]);

  // A reload shows the stored order.
  await page.reload();
  await expect.poll(() => rowTitles(page)).toEqual([a, b]);
});

test("Delete project asks with confirm(): dismissed, nothing changes; accepted, 'Project deleted successfully!' and its images answer 404", async ({
  page,
}) => {
  const [doomed, kept] = await resetProjects([
    { title: "Doomed Conservatory", colour: "#9a3412" },
    { title: "Kept Garden Room", colour: "#166534" },
  ]);
  const doomedUrls = imageUrlsOf(doomed!);
  const keptUrls = imageUrlsOf(kept!);
  expect(doomedUrls.copies.length).toBeGreaterThan(0);
  expect(await statuses(page.request, [...doomedUrls.main, doomedUrls.copies[0]!])).toEqual([200, 200, 200]);

  await openProjects(page);
  const row = projectRow(page, doomed!.title);
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request);
  });
  const dialogs: { type: string; message: string }[] = [];
  page.once("dialog", (dialog) => {
    dialogs.push({ type: dialog.type(), message: dialog.message() });
    void dialog.dismiss();
  });
  await rowButton(row, PROJECTS.delete).click();
  await expect.poll(() => dialogs).toEqual([{ type: "confirm", message: PROJECTS.deleteConfirm }]);
  await expect(row).toBeVisible();
  await expect(rowButton(row, PROJECTS.delete)).toBeEnabled();
  await expect(noticeArea(page).getByRole("status")).toHaveCount(0);
  expect(posts).toEqual([]);
  expect(await storedProjects()).toHaveLength(2);

  page.once("dialog", (dialog) => {
    dialogs.push({ type: dialog.type(), message: dialog.message() });
    void dialog.accept();
  });
  await rowButton(row, PROJECTS.delete).click();
  await expectNotice(page, "status", PROJECTS.deleted);
  await expect(row).toHaveCount(0);
  expect(dialogs).toEqual([
    { type: "confirm", message: PROJECTS.deleteConfirm },
    { type: "confirm", message: PROJECTS.deleteConfirm },
  ]);
  // The focused button went with its row: the notice has focus, not the top of the page.
  await expect(noticeArea(page)).toBeFocused();
  await expect.poll(() => rowTitles(page)).toEqual([kept!.title]);
  expect((await storedProjects()).map((project) => project.title)).toEqual([kept!.title]);

  // Its images, main files and copies, are gone; the other project's stay.
  expect(await statuses(page.request, [...doomedUrls.main, ...doomedUrls.copies])).toEqual([...doomedUrls.main, ...doomedUrls.copies].map(() => 404));
  expect(await statuses(page.request, [...keptUrls.main, keptUrls.copies[0]!])).toEqual([200, 200, 200]);
  expect((await apiProjects(page.request)).map((project) => project.title)).toEqual([kept!.title]);

  // The last one deleted: the empty state.
  page.once("dialog", (dialog) => void dialog.accept());
  await rowButton(projectRow(page, kept!.title), PROJECTS.delete).click();
  await expect(page.getByText(PROJECTS.empty, { exact: true })).toBeVisible();
  await expectNotice(page, "status", PROJECTS.deleted);
  expect(await apiProjects(page.request)).toEqual([]);
});

test("a delete's notice shows when the list has lost the row before the delete's answer comes back", async ({ page }) => {
  const [doomed, kept] = await resetProjects([
    { title: "Doomed Conservatory", colour: "#9a3412" },
    { title: "Kept Garden Room", colour: "#166534" },
  ]);
  await openProjects(page);
  // The delete reaches the server at once; its answer is held back from the page.
  const hold = await holdActionAnswer(page);
  page.once("dialog", (dialog) => void dialog.accept());
  await rowButton(projectRow(page, doomed!.title), PROJECTS.delete).click();
  await hold.answered;
  // Meanwhile another answer (Add Project's) brings the list without the row, which goes while its delete is in flight.
  await addButton(page).click();
  await expect(formHeading(page)).toBeVisible();
  await expect(projectRow(page, doomed!.title)).toHaveCount(0);
  hold.release();
  await expect(noticeArea(page).getByRole("status")).toHaveText(PROJECTS.deleted);
  expect(await rowTitles(page)).toEqual([kept!.title]);
  await hold.stop();
});

test("the add flow by keyboard: Tab to Add Project, Enter, type, open each upload with Enter or Space, create; Cancel closes the form", async ({ page }) => {
  await resetProjects();
  // Listening from the start: Playwright turns file-chooser interception on asynchronously when
  // the first listener comes, so a listener added just before a key press can miss the picker.
  const choosers = collectFileChoosers(page);
  await openProjects(page);
  await tabUntilFocused(page, addButton(page));
  await page.keyboard.press("Enter");
  await expect(formHeading(page)).toBeVisible();
  const form = projectForm(page);
  await expect(form.title).toBeFocused();
  await waitForHydration(page);

  await page.keyboard.type("Keyboard Cottage");
  for (const [field, text] of [
    [form.category, "Full Refurbishment"],
    [form.description, "Done without a mouse."],
    [form.duration, "1 week"],
    [form.budget, "£4,000"],
  ] as const) {
    await page.keyboard.press("Tab");
    await expect(field).toBeFocused();
    await page.keyboard.type(text);
  }
  await page.keyboard.press("Tab");
  await expect(form.displayOrder).toBeFocused();

  // The upload area: its (visually hidden) file input takes focus, and Enter opens the picker.
  await page.keyboard.press("Tab");
  await expect(form.file("before")).toBeFocused();
  await expect(form.file("before")).toHaveAccessibleName("Before Image Choose an image");
  // The drop zone shows that it has focus.
  await expectFocusIndicator(form.file("before"), "the before image's drop zone");
  let uploaded = nextUpload(page);
  await page.keyboard.press("Enter");
  await (await choosers.next()).setFiles({ name: "cottage-before.jpg", mimeType: "image/jpeg", buffer: await jpeg(900, 600, "#854d0e") });
  expect((await uploaded).status()).toBe(201);
  await expect(form.preview("before")).toBeVisible();
  // Focus is still in the upload area after the upload.
  await expect(form.file("before")).toBeFocused();

  await page.keyboard.press("Tab");
  await expect(form.alt("before")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(form.file("after")).toBeFocused();
  uploaded = nextUpload(page);
  await page.keyboard.press("Space");
  await (await choosers.next()).setFiles({ name: "cottage-after.jpg", mimeType: "image/jpeg", buffer: await jpeg(900, 600, "#047857") });
  expect((await uploaded).status()).toBe(201);
  await expect(form.preview("after")).toBeVisible();

  await tabUntilFocused(page, form.create);
  await page.keyboard.press("Enter");
  await expectNotice(page, "status", PROJECTS.created);
  await expect(projectRow(page, "Keyboard Cottage")).toBeVisible();
  // The form is gone: focus is on the notice that says what happened.
  await expect(noticeArea(page)).toBeFocused();

  // Cancel closes the form without saving anything.
  await tabUntilFocused(page, addButton(page));
  await page.keyboard.press("Enter");
  await expect(formHeading(page)).toBeVisible();
  await expect(form.title).toBeFocused();
  await page.keyboard.type("Never saved");
  await tabUntilFocused(page, form.cancel);
  await page.keyboard.press("Enter");
  await expect(formHeading(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/projects$/);
  // Focus goes back to the button that opened the form, not to the top of the page.
  await expect(addButton(page)).toBeFocused();
  expect((await storedProjects()).map((project) => project.title)).toEqual(["Keyboard Cottage"]);

  // Editing: Add Project is not offered (it would drop the edit), and Cancel returns to the row's Edit button.
  await rowButton(projectRow(page, "Keyboard Cottage"), PROJECTS.edit).press("Enter");
  await expect(formHeading(page, PROJECTS.editTitle)).toBeVisible();
  await expect(addButton(page)).toHaveCount(0);
  await tabUntilFocused(page, form.cancel);
  await page.keyboard.press("Enter");
  await expect(formHeading(page, PROJECTS.editTitle)).toHaveCount(0);
  await expect(rowButton(projectRow(page, "Keyboard Cottage"), PROJECTS.edit)).toBeFocused();
});

test("row actions by keyboard: Move down and up, Hide and Show, Edit with a replaced image, Delete; each with Enter or Space and a visible focus", async ({
  page,
}) => {
  test.slow();
  const choosers = collectFileChoosers(page);
  const [first, second] = await resetProjects([
    { title: "Keys Kitchen", colour: "#1e40af" },
    { title: "Keys Bathroom", colour: "#9f1239" },
  ]);
  const a = first!.title;
  const b = second!.title;
  await openProjects(page);

  // Reorder: Enter on Move down; focus stays in the moved row, on Move up, and Space takes it back.
  const moveDown = rowButton(projectRow(page, a), PROJECTS.moveDown);
  await tabUntilFocused(page, moveDown);
  await expectFocusIndicator(moveDown, "Move down");
  await page.keyboard.press("Enter");
  await expectNotice(page, "status", PROJECTS.moved);
  await expect.poll(() => rowTitles(page)).toEqual([b, a]);
  await expectFocusIndicator(rowButton(projectRow(page, a), PROJECTS.moveUp), "Move up of the moved row");
  await page.keyboard.press("Space");
  await expect.poll(() => rowTitles(page)).toEqual([a, b]);
  await expectFocusIndicator(rowButton(projectRow(page, a), PROJECTS.moveDown), "Move down of the moved row");
  expect((await storedProjects()).map((project) => project.title)).toEqual([a, b]);

  // Hide and show: the same button, renamed, keeps focus.
  const hide = rowButton(projectRow(page, a), PROJECTS.hide);
  await tabUntilFocused(page, hide);
  await expectFocusIndicator(hide, "Hide from homepage");
  await page.keyboard.press("Enter");
  await expectNotice(page, "status", PROJECTS.hidden);
  await expectFocusIndicator(rowButton(projectRow(page, a), PROJECTS.show), "Show on homepage");
  expect((await storedProjects()).map((project) => project.is_active)).toEqual([false, true]);
  await page.keyboard.press("Space");
  await expectNotice(page, "status", PROJECTS.shown);
  await expectFocusIndicator(rowButton(projectRow(page, a), PROJECTS.hide), "Hide from homepage again");
  expect((await storedProjects()).map((project) => project.is_active)).toEqual([true, true]);

  // Edit: a new title, the after image removed and chosen again from the keyboard, saved with Enter.
  const edit = rowButton(projectRow(page, b), PROJECTS.edit);
  await tabUntilFocused(page, edit);
  await expectFocusIndicator(edit, "Edit project");
  await page.keyboard.press("Enter");
  await expect(formHeading(page, PROJECTS.editTitle)).toBeVisible();
  await waitForHydration(page);
  const form = projectForm(page);
  await expectFocusIndicator(form.title, "Title");
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Keys Bathroom, Retiled");
  const remove = form.group("after").getByRole("button", { name: "Remove after image", exact: true });
  await tabUntilFocused(page, remove);
  await expectFocusIndicator(remove, "Remove after image");
  await page.keyboard.press("Enter");
  await expect(form.preview("after")).toHaveCount(0);
  // The button went with the preview: the drop zone has focus, and shows it.
  await expectFocusIndicator(form.file("after"), "the after image's drop zone");
  const uploaded = nextUpload(page);
  await page.keyboard.press("Enter");
  await (await choosers.next()).setFiles({ name: "retiled.png", mimeType: "image/png", buffer: await png(800, 600, "#0e7490") });
  expect((await uploaded).status()).toBe(201);
  await expect(form.preview("after")).toBeVisible();
  await tabUntilFocused(page, form.update);
  await expectFocusIndicator(form.update, "Update Project");
  await page.keyboard.press("Enter");
  await expectNotice(page, "status", PROJECTS.updated);
  await expect(noticeArea(page)).toBeFocused();
  const edited = (await storedProjects()).find((project) => project.id === second!.id);
  expect(edited?.title).toBe("Keys Bathroom, Retiled");
  expect(edited?.after_image_url).not.toBe(second!.after_image_url);

  // Delete: Enter asks; dismissed, focus stays on the button; accepted, the notice takes focus.
  const remaining = rowButton(projectRow(page, a), PROJECTS.delete);
  await tabUntilFocused(page, remaining);
  await expectFocusIndicator(remaining, "Delete project");
  page.once("dialog", (dialog) => void dialog.dismiss());
  await page.keyboard.press("Enter");
  await expectFocusIndicator(remaining, "Delete project after Cancel");
  expect(await storedProjects()).toHaveLength(2);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.keyboard.press("Enter");
  await expectNotice(page, "status", PROJECTS.deleted);
  await expect(noticeArea(page)).toBeFocused();
  expect((await storedProjects()).map((project) => project.title)).toEqual(["Keys Bathroom, Retiled"]);
});

test.describe("the projects tab at 375 px and 1280 px", () => {
  for (const width of [375, 1280]) {
    test(`with the form open at ${width} px: nothing overflows sideways`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await resetProjects([{ title: "A Project With A Rather Long Title To See How It Wraps On Small Screens", colour: "#334155" }]);
      await openProjects(page);
      await addButton(page).click();
      await expect(formHeading(page)).toBeVisible();
      await expectImageLoaded(projectList(page).getByRole("img").first());
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, "no horizontal scrolling").toBeLessThanOrEqual(0);
      const screenshot = await page.screenshot({ fullPage: true });
      await testInfo.attach(`projects-${width}.png`, { body: screenshot, contentType: "image/png" });
      const dir = process.env.E2E_SCREENSHOT_DIR;
      if (dir) await writeFile(path.join(dir, `projects-${width}.png`), screenshot);
    });
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("add with both files in one multipart form, hide and show, move, delete after the on-page confirmation", async ({ page }) => {
    test.slow();
    const [existing] = await resetProjects([{ title: "Plain Old Project", colour: "#475569" }]);
    await page.goto("/admin/projects");

    await addButton(page).click();
    await expect(page).toHaveURL(/\/admin\/projects\?form=new$/);
    await expect(formHeading(page)).toBeVisible();
    const form = projectForm(page);
    await expect(form.form).toHaveAttribute("enctype", "multipart/form-data");
    await expect(form.displayOrder).toHaveValue("1");
    // Plain, visible file inputs.
    await expect(form.file("before")).toBeVisible();
    await expect(form.file("after")).toBeVisible();
    await fillProjectText(page, { ...NEW_PROJECT, title: "Plain Form Project" });

    // A good before image and a bad after one: refused, the after image says why, the before one is kept.
    await form.file("before").setInputFiles({ name: "plain-before.jpg", mimeType: "image/jpeg", buffer: await jpegWithGps(800, 600) });
    await form.file("after").setInputFiles({ name: "plain-after.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not an image") });
    await form.create.click();
    await expectNotice(page, "alert", UPLOADS.refusedBytes);
    await expect(form.group("after").getByRole("alert")).toHaveText(UPLOADS.refusedBytes);
    await expect(form.preview("before")).toBeVisible();
    await expect(form.imageUrl("before")).toHaveValue(/^\/images\/\d{13}-[a-z0-9]{12}\.jpg$/);
    await expect(form.title).toHaveValue("Plain Form Project");
    expect(await storedProjects()).toHaveLength(1);

    // Only the after image is sent again.
    await form.file("after").setInputFiles({ name: "plain-after.png", mimeType: "image/png", buffer: await png(800, 600, "#0369a1") });
    await form.create.click();
    await expectNotice(page, "status", PROJECTS.created);
    await expect(formHeading(page)).toHaveCount(0);
    await expect.poll(() => rowTitles(page)).toEqual([existing!.title, "Plain Form Project"]);
    const row = projectRow(page, "Plain Form Project");
    await expect(row.getByText(PROJECTS.active, { exact: true })).toBeVisible();
    const created = (await storedProjects()).find((project) => project.title === "Plain Form Project")!;
    expect(created.after_image_url).toMatch(/\.png$/);
    const photo = await page.request.get(created.before_image_url);
    expect((await imageFacts(await photo.body())).exif).toBeUndefined();

    // Hide, then show: plain form posts; the page that comes back says so.
    await rowButton(row, PROJECTS.hide).click();
    await expectNotice(page, "status", PROJECTS.hidden);
    await expect(row.getByText(PROJECTS.inactive, { exact: true })).toBeVisible();
    expect((await apiProjects(page.request)).map((project) => project.title)).toEqual([existing!.title]);
    await rowButton(row, PROJECTS.show).click();
    await expectNotice(page, "status", PROJECTS.shown);
    await expect(row.getByText(PROJECTS.active, { exact: true })).toBeVisible();
    expect((await apiProjects(page.request)).map((project) => project.title)).toEqual([existing!.title, "Plain Form Project"]);

    // Move up.
    await rowButton(row, PROJECTS.moveUp).click();
    await expectNotice(page, "status", PROJECTS.moved);
    await expect.poll(() => rowTitles(page)).toEqual(["Plain Form Project", existing!.title]);
    await expect(rowButton(row, PROJECTS.moveUp)).toBeDisabled();
    expect((await apiProjects(page.request)).map((project) => project.title)).toEqual(["Plain Form Project", existing!.title]);

    // Delete: the page asks first, in the row; Cancel keeps it.
    await rowButton(row, PROJECTS.delete).click();
    const confirmation = row.getByRole("alert");
    await expect(confirmation).toContainText(PROJECTS.deleteConfirm);
    expect(await storedProjects(), "nothing is deleted before the confirmation").toHaveLength(2);
    await confirmation.getByRole("link", { name: PROJECTS.cancel, exact: true }).click();
    await expect(row.getByRole("alert")).toHaveCount(0);
    await expect(row).toBeVisible();
    expect(await storedProjects()).toHaveLength(2);

    await rowButton(row, PROJECTS.delete).click();
    await rowButton(row.getByRole("alert"), PROJECTS.delete).click();
    await expectNotice(page, "status", PROJECTS.deleted);
    await expect(projectRow(page, "Plain Form Project")).toHaveCount(0);
    await expect.poll(() => rowTitles(page)).toEqual([existing!.title]);
    const urls = imageUrlsOf(created);
    expect(await statuses(page.request, [...urls.main, ...urls.copies])).toEqual([...urls.main, ...urls.copies].map(() => 404));
  });

  test("Edit project without JavaScript: the form comes filled in; a new title saves with the images kept", async ({ page }) => {
    const [project] = await resetProjects([{ title: "Plain Edit Before", colour: "#6d28d9" }]);
    await page.goto("/admin/projects");
    await rowButton(projectRow(page, project!.title), PROJECTS.edit).click();
    await expect(formHeading(page, PROJECTS.editTitle)).toBeVisible();
    const form = projectForm(page);
    await expect(form.title).toHaveValue(project!.title);
    await expect(form.preview("before")).toHaveAttribute("src", project!.before_image_url);
    await expect(form.group("before").getByText("Replace image", { exact: true })).toBeVisible();
    await form.title.fill("Plain Edit After");
    await form.update.click();
    await expectNotice(page, "status", PROJECTS.updated);
    await expect.poll(() => rowTitles(page)).toEqual(["Plain Edit After"]);
    expect(await storedProjects()).toMatchObject([
      { title: "Plain Edit After", before_image_url: project!.before_image_url, after_image_url: project!.after_image_url },
    ]);
  });
});

/** The file pickers the page opens, in order, from a listener that stays for the whole test. */
function collectFileChoosers(page: Page): { next: () => Promise<FileChooser> } {
  const opened: FileChooser[] = [];
  page.on("filechooser", (chooser) => opened.push(chooser));
  return {
    async next() {
      await expect.poll(() => opened.length, { message: "a file picker opened" }).toBeGreaterThan(0);
      return opened.shift()!;
    },
  };
}

/** The accessible name (text) of the button inside `scope` that has focus, or null when focus is elsewhere. */
async function focusedButtonIn(scope: Locator): Promise<string | null> {
  return scope.evaluate((element) => {
    const active = document.activeElement;
    return active instanceof HTMLButtonElement && element.contains(active) ? (active.textContent ?? "").trim() : null;
  });
}
