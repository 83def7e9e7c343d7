import { expect, test, type Locator, type Page } from "@playwright/test";
import { ACTIVE_IN_ORDER, HIDDEN_PROJECT, escapeRegExp, expectLoadedFromOurOrigin, gotoLanding, section } from "./fixtures";
import type { SeedProject } from "./seed-data";

// Tall enough for the whole carousel to be on screen once #renovations is scrolled to.
test.use({ viewport: { width: 1280, height: 1600 } });

const renovations = (page: Page) => section(page, "renovations");
const previous = (page: Page) => renovations(page).getByRole("button", { name: "Previous project", exact: true });
const next = (page: Page) => renovations(page).getByRole("button", { name: "Next project", exact: true });
const allTitles = ACTIVE_IN_ORDER.map((project) => escapeRegExp(project.title)).join("|");
/** Dots are named by position and title, e.g. "Go to project 2: Loft Conversion in Leeds". */
const dots = (page: Page) => renovations(page).getByRole("button", { name: new RegExp(allTitles) });
const dot = (page: Page, index: number) => {
  const title = escapeRegExp(ACTIVE_IN_ORDER[index]!.title);
  return renovations(page).getByRole("button", {
    name: new RegExp(`\\b${index + 1}\\b.*${title}|${title}.*\\b${index + 1}\\b`),
  });
};

/** The innermost element holding the project's title and the BEFORE and AFTER labels: its slide. */
function slide(page: Page, project: SeedProject): Locator {
  return renovations(page)
    .locator("*")
    .filter({ has: page.getByText(project.title, { exact: true }) })
    .filter({ has: page.getByText(/^\s*before\s*$/i) })
    .filter({ has: page.getByText(/^\s*after\s*$/i) })
    .last();
}

/**
 * What the carousel shows: the positions whose dot is marked current, and the
 * titles a person can see — not hidden (display, visibility, opacity,
 * aria-hidden, inert) and inside the viewport once the carousel's overflow
 * clipping is applied (IntersectionObserver does that).
 */
async function carouselState(page: Page): Promise<{ current: number[]; shown: string[] }> {
  const current: number[] = [];
  for (const index of ACTIVE_IN_ORDER.keys()) {
    const value = await dot(page, index).getAttribute("aria-current");
    if (value !== null && value !== "false") current.push(index);
  }
  const shown = await renovations(page).evaluate(
    async (root, titles) => {
      const elements: Element[] = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (titles.includes(node.textContent?.trim() ?? "") && node.parentElement) elements.push(node.parentElement);
      }
      const visible = elements.filter((element) => {
        for (let node: Element | null = element; node; node = node.parentElement) {
          if (node.getAttribute("aria-hidden") === "true" || node.hasAttribute("inert")) return false;
          const style = getComputedStyle(node);
          if (style.display === "none" || style.visibility === "hidden" || Number(style.opacity) === 0) return false;
        }
        return true;
      });
      if (visible.length === 0) return [];
      const ratios = await new Promise<Map<Element, number>>((resolve) => {
        const observer = new IntersectionObserver((entries) => {
          observer.disconnect();
          resolve(new Map(entries.map((entry) => [entry.target, entry.intersectionRatio])));
        });
        for (const element of visible) observer.observe(element);
      });
      return visible.filter((element) => (ratios.get(element) ?? 0) > 0.5).map((element) => element.textContent?.trim() ?? "");
    },
    ACTIVE_IN_ORDER.map((project) => project.title),
  );
  return { current, shown };
}

/** Asserts that the carousel shows project `index`, and only it, with its dot (only) marked aria-current. */
async function expectCurrent(page: Page, index: number): Promise<void> {
  const title = ACTIVE_IN_ORDER[index]!.title;
  await expect
    .poll(() => carouselState(page), {
      message: `project ${index + 1} (${title}) is the one shown and its dot is aria-current`,
      intervals: [50, 100, 250, 500],
    })
    .toEqual({ current: [index], shown: [title] });
}

async function gotoGallery(page: Page): Promise<void> {
  await gotoLanding(page);
  await page.evaluate(() => {
    const target = document.getElementById("renovations");
    if (target) window.scrollTo({ top: target.getBoundingClientRect().top + window.scrollY, behavior: "instant" });
  });
  await expect(next(page)).toBeInViewport();
}

test.describe("renovation carousel", () => {
  test.beforeEach(async ({ page }) => {
    await gotoGallery(page);
  });

  test("shows the active projects in display order, never the inactive one", async ({ page }) => {
    await expect(dots(page)).toHaveCount(ACTIVE_IN_ORDER.length);
    for (const [index, project] of ACTIVE_IN_ORDER.entries()) {
      await expect(dots(page).nth(index), `dot ${index + 1}`).toHaveAccessibleName(new RegExp(escapeRegExp(project.title)));
      await expect(dot(page, index), `dot ${index + 1} named by position and title`).toHaveCount(1);
    }
    await expect(page.getByText(HIDDEN_PROJECT.title)).toHaveCount(0);
    await expect(renovations(page).getByRole("button", { name: new RegExp(escapeRegExp(HIDDEN_PROJECT.title)) })).toHaveCount(0);
    await expect(page.getByText("Loading renovation projects...")).toHaveCount(0);
    await expectCurrent(page, 0);
  });

  test("a slide shows BEFORE and AFTER images, title, category, description, Duration and Investment", async ({ page }) => {
    const project = ACTIVE_IN_ORDER[0]!;
    const current = slide(page, project);
    await expect(current).toBeVisible();
    await expect(current.getByText(/^\s*before\s*$/i)).toHaveText("BEFORE", { useInnerText: true });
    await expect(current.getByText(/^\s*after\s*$/i)).toHaveText("AFTER", { useInnerText: true });
    await expect(current.getByText(project.title, { exact: true })).toBeVisible();
    await expect(current.getByText(project.category, { exact: true })).toBeVisible();
    await expect(current.getByText(project.description, { exact: true })).toBeVisible();
    await expect(current.getByText(/^\s*Duration:?\s*$/)).toBeVisible();
    await expect(current.getByText(project.duration, { exact: true })).toBeVisible();
    await expect(current.getByText(/^\s*Investment:?\s*$/)).toBeVisible();
    await expect(current.getByText(project.budget, { exact: true })).toBeVisible();

    const images = current.locator("img");
    await expect(images).toHaveCount(2);
    await expect(images.nth(0)).toHaveAttribute("src", project.before_image_url);
    await expect(images.nth(1)).toHaveAttribute("src", project.after_image_url);
    for (const image of await images.all()) {
      await expect(image).toHaveAttribute("alt", /\S/);
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    }
  });

  test("Next project advances and wraps from the last project to the first", async ({ page }) => {
    await expectCurrent(page, 0);
    await next(page).click();
    await expectCurrent(page, 1);
    await next(page).click();
    await expectCurrent(page, 2);
    await next(page).click();
    await expectCurrent(page, 0);
  });

  test("Previous project from the first wraps to the last, then steps back", async ({ page }) => {
    await expectCurrent(page, 0);
    await previous(page).click();
    await expectCurrent(page, 2);
    await previous(page).click();
    await expectCurrent(page, 1);
  });

  test("one dot per project; a dot jumps to its project and is marked aria-current", async ({ page }) => {
    await expect(dots(page)).toHaveCount(3);
    await dot(page, 2).click();
    await expectCurrent(page, 2);
    await expect(slide(page, ACTIVE_IN_ORDER[2]!).getByText(ACTIVE_IN_ORDER[2]!.category, { exact: true })).toBeVisible();
    await dot(page, 0).click();
    await expectCurrent(page, 0);
    await dot(page, 1).click();
    await expectCurrent(page, 1);
  });

  test("is keyboard operable: Tab reaches Next project, Enter advances; Space on Previous goes back", async ({ page }) => {
    const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
    // From Previous project, Tab moves through the dots to Next project.
    await previous(page).focus();
    let presses = 0;
    while (!(await isFocused(next(page)))) {
      expect(presses, "Next project is reachable with Tab").toBeLessThan(ACTIVE_IN_ORDER.length + 3);
      await page.keyboard.press("Tab");
      presses += 1;
    }
    await page.keyboard.press("Enter");
    await expectCurrent(page, 1);

    await previous(page).focus();
    await page.keyboard.press("Space");
    await expectCurrent(page, 0);

    await dot(page, 2).focus();
    await page.keyboard.press("Enter");
    await expectCurrent(page, 2);
  });

  test("the gallery is below the fold: every image is lazy, and the shown slide's load once scrolled to", async ({ page }) => {
    const [first, ...rest] = ACTIVE_IN_ORDER;
    const image = (url: string) => renovations(page).locator(`img[src="${url}"]`);
    const loadingOf = (url: string) => image(url).evaluateAll((images) => images.map((element) => (element as HTMLImageElement).getAttribute("loading")));
    for (const project of ACTIVE_IN_ORDER) {
      for (const url of [project.before_image_url, project.after_image_url]) {
        const loadings = await loadingOf(url);
        expect(loadings.length, url).toBeGreaterThan(0);
        for (const loading of loadings) expect(loading, url).toBe("lazy");
      }
    }
    for (const url of [first!.before_image_url, first!.after_image_url]) await expectLoadedFromOurOrigin(image(url));
    // The other slides' images are lazy when they do come in, too.
    await next(page).click();
    await expectCurrent(page, 1);
    for (const url of [rest[0]!.before_image_url, rest[0]!.after_image_url]) {
      const loadings = await loadingOf(url);
      expect(loadings.length, url).toBeGreaterThan(0);
      for (const loading of loadings) expect(loading, url).toBe("lazy");
    }
  });
});

test.describe("gallery API", () => {
  test("the gallery's JSON at /api/projects lists the same projects in the same order", async ({ request }) => {
    const response = await request.get("/api/projects");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/application\/json/);
    const projects = (await response.json()) as Array<Record<string, unknown>>;
    expect(projects.map((project) => project.title)).toEqual(ACTIVE_IN_ORDER.map((project) => project.title));
    for (const [index, project] of ACTIVE_IN_ORDER.entries()) {
      expect(projects[index]).toMatchObject({
        title: project.title,
        category: project.category,
        description: project.description,
        duration: project.duration,
        budget: project.budget,
        before_image_url: project.before_image_url,
        after_image_url: project.after_image_url,
        is_active: true,
      });
    }
  });
});

test.describe("renovation carousel on a touch screen", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("a vertical swipe on a slide scrolls the page", async ({ page }) => {
    await gotoGallery(page);
    const image = slide(page, ACTIVE_IN_ORDER[0]!).locator("img").first();
    await image.evaluate((element) => element.scrollIntoView({ block: "center", behavior: "instant" }));
    const box = await image.boundingBox();
    expect(box).not.toBeNull();
    const before = await page.evaluate(() => window.scrollY);
    // Real touch input (CDP): a finger put on the slide's image and dragged up 300 px.
    const x = Math.round(box!.x + box!.width / 2);
    const y = Math.round(box!.y + box!.height / 2);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
    for (let step = 1; step <= 10; step += 1) {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y: y - step * 30 }] });
    }
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before + 100);
    // And nothing in the carousel turns off touch panning altogether.
    const blocking = await renovations(page)
      .locator("*")
      .evaluateAll((elements) => elements.filter((element) => getComputedStyle(element).touchAction === "none").length);
    expect(blocking).toBe(0);
  });
});
