import { expect, test, type Page } from "@playwright/test";
import { NAV_TARGETS, expectScrolledTo, gotoLanding, scrollToInstantly } from "./fixtures";

test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

const header = (page: Page) => page.getByRole("banner");
const openToggle = (page: Page) => header(page).getByRole("button", { name: "Open menu", exact: true });
const closeToggle = (page: Page) => header(page).getByRole("button", { name: "Close menu", exact: true });
const navButton = (page: Page, name: string) => header(page).getByRole("button", { name, exact: true });

async function expectClosed(page: Page): Promise<void> {
  await expect(openToggle(page)).toBeVisible();
  await expect(openToggle(page)).toHaveAttribute("aria-expanded", "false");
  await expect(closeToggle(page)).toHaveCount(0);
  for (const [name] of NAV_TARGETS) await expect(navButton(page, name), `${name} hidden`).toBeHidden();
}

async function open(page: Page): Promise<void> {
  await openToggle(page).click();
  await expect(closeToggle(page)).toBeVisible();
  await expect(closeToggle(page)).toHaveAttribute("aria-expanded", "true");
}

test.describe("mobile menu (375 × 812)", () => {
  test.beforeEach(async ({ page }) => {
    await gotoLanding(page);
  });

  test("starts closed; Open menu opens it (aria-expanded, named Close menu, every nav button shown); Close menu closes it", async ({ page }) => {
    await expectClosed(page);
    // The toggle says what it controls.
    const controls = await openToggle(page).getAttribute("aria-controls");
    if (controls) expect(await page.locator(`[id="${controls}"]`).count()).toBe(1);

    await open(page);
    for (const [name] of NAV_TARGETS) await expect(navButton(page, name), name).toBeInViewport({ ratio: 1 });
    const { scrollWidth, clientWidth } = await page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
    });
    expect(scrollWidth, "the open menu fits the screen").toBeLessThanOrEqual(clientWidth);

    await closeToggle(page).click();
    await expectClosed(page);
  });

  test("choosing a nav button scrolls to its section and closes the menu", async ({ page }) => {
    for (const [name, target] of NAV_TARGETS) {
      await scrollToInstantly(page, target === "home" ? "bottom" : "top");
      await open(page);
      await navButton(page, name).click();
      await expectClosed(page);
      await expectScrolledTo(page, target);
    }
  });

  test("Escape closes it", async ({ page }) => {
    await open(page);
    await navButton(page, "Services").focus();
    await page.keyboard.press("Escape");
    await expectClosed(page);
  });
});
