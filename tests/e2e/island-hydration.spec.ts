/**
 * When the landing page's islands are hydrated (decision 072): on a phone, none as
 * the page loads, and React's code is not even fetched; the gallery and the contact
 * form, below the fold, are hydrated when they come near the screen or when the
 * visitor first touches them, and what the visitor does then still works; the
 * header's menu is the page's own script, not an island.
 */
import { expect, test, type Page } from "@playwright/test";
import { gotoLanding, section } from "./fixtures";

test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

/** Which islands have begun hydrating, by name. */
function hydrating(page: Page): Promise<Record<string, boolean>> {
  return page.evaluate(() =>
    Object.fromEntries(
      Array.from(document.querySelectorAll("[data-island]"), (island) => [island.getAttribute("data-island"), island.hasAttribute("data-island-hydrating")]),
    ),
  );
}

const reactProps = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps$")));

/** The scripts the page has fetched, by file name without its hash. */
const scriptsFetched = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === "script" || entry.name.endsWith(".js"))
      .map((entry) => new URL(entry.name).pathname.replace(/^\/assets\//, "").replace(/-[\w-]{8}\.js$/, "")),
  );

test("on a phone no island is hydrated as the page loads, and React is not fetched", async ({ page }) => {
  await gotoLanding(page);
  await page.waitForLoadState("load");
  // A few frames for an observer that would have fired.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await hydrating(page)).toEqual({ gallery: false, contactForm: false });
  expect(await scriptsFetched(page)).not.toContain("islands.client");

  await section(page, "renovations").scrollIntoViewIfNeeded();
  await expect.poll(() => hydrating(page)).toEqual({ gallery: true, contactForm: false });
  await expect.poll(() => reactProps(page, "#renovations button")).toBe(true);
});

test("the header's menu opens and closes without React", async ({ page }) => {
  await gotoLanding(page);
  const banner = page.getByRole("banner");
  await banner.getByRole("button", { name: "Open menu", exact: true }).tap();
  await expect(banner.getByRole("button", { name: "Close menu", exact: true })).toHaveAttribute("aria-expanded", "true");
  await expect(banner.getByRole("button", { name: "Services", exact: true })).toBeVisible();
  await banner.getByRole("button", { name: "Close menu", exact: true }).tap();
  await expect(banner.getByRole("button", { name: "Open menu", exact: true })).toHaveAttribute("aria-expanded", "false");
  expect(await scriptsFetched(page)).not.toContain("islands.client");
});

test("a click on an island not yet hydrated is handled once it is", async ({ page }) => {
  await gotoLanding(page);
  // Straight to the gallery's next button: Playwright scrolls it into view and clicks at once.
  const gallery = section(page, "renovations");
  await expect(gallery.getByText(/^Project 1 of \d+/)).toBeAttached();
  await gallery.getByRole("button", { name: "Next project", exact: true }).click();
  await expect(gallery.getByText(/^Project 2 of \d+/)).toBeVisible();
});

test("Tab into the contact form hydrates it, and what was typed before stays", async ({ page }) => {
  await gotoLanding(page);
  const contact = section(page, "contact");
  const name = contact.getByRole("textbox", { name: /name/i });
  await name.focus();
  await name.pressSequentially("Jane Example");
  await expect.poll(async () => (await hydrating(page)).contactForm).toBe(true);
  await expect.poll(() => reactProps(page, "#contact form")).toBe(true);
  await expect(name).toHaveValue("Jane Example");
});
