import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  ACTIVE_IN_ORDER,
  MESSAGES,
  NAV_TARGETS,
  expectFocusIndicator,
  expectScrolledTo,
  gotoLanding,
  linkOrButton,
  section,
  tabThroughPage,
  tabUntilFocused,
  uniqueEmail,
  type SectionId,
} from "./fixtures";

/**
 * Issue 6, point 2: every flow of the landing page completes with the
 * keyboard alone (Tab, Shift+Tab, Enter, Space, Escape, arrow keys; no
 * clicks, no focus() from the test), and each control shows where focus is.
 * The admin's flows are in the admin*.spec.ts files, beside their data.
 */

const header = (page: Page) => page.getByRole("banner");
const skipLink = (page: Page) => page.getByRole("link", { name: "Skip to main content", exact: true });

/** Tabs forwards or backwards, whichever way the target lies from the focused element, until it has focus. */
async function keyboardTo(page: Page, target: Locator): Promise<void> {
  const before = await target.evaluate((element) => {
    const active = document.activeElement;
    return Boolean(active) && active !== document.body && Boolean(element.compareDocumentPosition(active!) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  await tabUntilFocused(page, target, before ? "Shift+Tab" : "Tab");
}

/** True when focus is inside the section or after it in the page: Tab continues from there. */
function focusIsFrom(page: Page, id: SectionId): Promise<boolean> {
  return section(page, id).evaluate((target) => {
    const active = document.activeElement;
    return Boolean(active) && (target.contains(active) || Boolean(target.compareDocumentPosition(active!) & Node.DOCUMENT_POSITION_FOLLOWING));
  });
}

/** After a jump: the section is scrolled to and has focus, and the next Tab lands inside or after it. */
async function expectJumpedTo(page: Page, id: SectionId): Promise<void> {
  await expectScrolledTo(page, id);
  await expect(section(page, id), `#${id} has focus`).toBeFocused();
  await page.keyboard.press("Tab");
  expect(await focusIsFrom(page, id), `Tab after the jump continues from #${id}`).toBe(true);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test(`at ${viewport.width} px Tab visits every control, Shift+Tab the same ones back, each showing its focus, none hidden`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await gotoLanding(page);
    const forwards = await tabThroughPage(page, "Tab");
    expect(forwards[0]).toBe('a "Skip to main content"');
    expect(forwards.length, forwards.join(", ")).toBeGreaterThan(25);
    const backwards = await tabThroughPage(page, "Shift+Tab", forwards.length);
    expect(backwards).toEqual([...forwards].reverse());
  });
}

test.describe("at 1280 px", () => {
  // Jumps are instant, so each one is checked at once (smooth scrolling is tested in landing.spec.ts).
  test.use({ viewport: { width: 1280, height: 800 }, contextOptions: { reducedMotion: "reduce" } });

  test("the skip link comes first, is visible when focused and takes focus to the main content", async ({ page }) => {
    await gotoLanding(page);
    await page.keyboard.press("Tab");
    await expectFocusIndicator(skipLink(page), "Skip to main content");
    await expect(skipLink(page)).toBeInViewport({ ratio: 1 });
    await page.keyboard.press("Enter");
    await expect(page.locator("main")).toBeFocused();
    await page.keyboard.press("Tab");
    await expectFocusIndicator(linkOrButton(section(page, "home"), "Our Services"), "the hero's first button");
  });

  test("every header nav item is reached with Tab and Shift+Tab, shows its focus, and Enter jumps to its section", async ({ page }) => {
    await gotoLanding(page);
    for (const [name, target] of NAV_TARGETS) {
      const item = linkOrButton(header(page), name);
      // From the section of the last jump, back up to the header, as a keyboard user goes.
      await keyboardTo(page, item);
      await expectFocusIndicator(item, `nav item ${name}`);
      await page.keyboard.press("Enter");
      await expectJumpedTo(page, target);
    }
  });

  test("the hero, consultation and plan buttons, Contact us and the footer's links work from the keyboard", async ({ page }) => {
    await gotoLanding(page);
    const pricing = section(page, "pricing");
    const footer = page.getByRole("contentinfo");
    const steps: Array<[name: string, control: Locator, target: SectionId]> = [
      ["Our Services", linkOrButton(section(page, "home"), "Our Services"), "services"],
      ["Get Free Consultation", linkOrButton(section(page, "renovations"), "Get Free Consultation"), "contact"],
      ["Contact us", linkOrButton(pricing, "Contact us"), "contact"],
      // On the dark Platinum card.
      ["Choose Platinum", linkOrButton(pricing, "Choose Platinum"), "contact"],
      // On the dark footer.
      ["the footer's About", linkOrButton(footer, "About"), "about"],
    ];
    for (const [name, control, target] of steps) {
      await keyboardTo(page, control);
      await expectFocusIndicator(control, name);
      // A button with Space (the nav test uses Enter); a link follows with Enter only.
      await page.keyboard.press((await control.evaluate((element) => element.tagName)) === "A" ? "Enter" : "Space");
      await expectJumpedTo(page, target);
    }

    const admin = footer.getByRole("link", { name: "Admin", exact: true });
    await keyboardTo(page, admin);
    await expectFocusIndicator(admin, "the footer's Admin link");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Admin Login", level: 1 })).toBeVisible();
  });

  test("the contact form: fill in and send with the keyboard; an error puts focus on the first field to fix", async ({ page }) => {
    await gotoLanding(page);
    const contact = section(page, "contact");
    const field = (name: string) => contact.getByRole("textbox", { name, exact: true });
    const send = contact.getByRole("button", { name: "Send Message" });

    await keyboardTo(page, linkOrButton(header(page), "Contact Us"));
    await page.keyboard.press("Enter");
    await expectScrolledTo(page, "contact");
    await keyboardTo(page, field("Full Name"));
    await expectFocusIndicator(field("Full Name"), "Full Name");

    // Sent empty: the error shows and focus goes to the first field to fix.
    await keyboardTo(page, send);
    await expectFocusIndicator(send, "Send Message");
    await page.keyboard.press("Enter");
    await expect(contact.getByText(MESSAGES.required, { exact: true })).toBeVisible();
    await expectFocusIndicator(field("Full Name"), "Full Name after the error");
    await expect(field("Full Name")).toHaveAttribute("aria-invalid", "true");

    await page.keyboard.type("Kay Board");
    await page.keyboard.press("Tab");
    await expectFocusIndicator(field("Email Address"), "Email Address");
    await page.keyboard.type(uniqueEmail("keyboard"));
    await page.keyboard.press("Tab");
    await expectFocusIndicator(field("Phone Number"), "Phone Number");
    await page.keyboard.press("Tab");
    const userType = contact.getByRole("combobox", { name: "I am a" });
    await expectFocusIndicator(userType, "I am a");
    // Typing an option's first letters chooses it, without opening the list.
    await page.keyboard.type("Property");
    await expect(userType).toHaveValue("investor");
    await page.keyboard.press("Tab");
    await expectFocusIndicator(field("Message"), "Message");
    await page.keyboard.type("Sent without a mouse.");
    await page.keyboard.press("Tab");
    await expectFocusIndicator(send, "Send Message");
    await page.keyboard.press("Enter");
    const success = contact.getByText(MESSAGES.success, { exact: true });
    await expect(success).toBeVisible();
    // Focus is on the notice, so a screen reader user hears it and Tab goes on from there.
    await expect(page.locator(":focus")).toContainText(MESSAGES.success);
  });
});

test.describe("the gallery at 1280 px", () => {
  // Tall enough for the whole carousel to be on screen.
  test.use({ viewport: { width: 1280, height: 1600 } });

  test("arrow keys on the carousel, then Enter and Space on Previous, Next and a dot", async ({ page }) => {
    await gotoLanding(page);
    const gallery = section(page, "renovations");
    const carousel = gallery.getByRole("region", { name: "Renovation projects, before and after" });
    const position = gallery.getByText(/^Project \d of \d/);
    const expectProject = async (index: number) => {
      await expect(position).toHaveText(`Project ${index + 1} of ${ACTIVE_IN_ORDER.length}: ${ACTIVE_IN_ORDER[index]!.title}`);
      await expect(gallery.getByRole("heading", { name: ACTIVE_IN_ORDER[index]!.title, exact: true })).toBeVisible();
    };

    await keyboardTo(page, carousel);
    await expectFocusIndicator(carousel, "the carousel");
    await expectProject(0);
    await page.keyboard.press("ArrowRight");
    await expectProject(1);
    await page.keyboard.press("ArrowRight");
    await expectProject(2);
    await page.keyboard.press("ArrowRight");
    await expectProject(0);
    await page.keyboard.press("ArrowLeft");
    await expectProject(2);

    const previous = gallery.getByRole("button", { name: "Previous project", exact: true });
    const next = gallery.getByRole("button", { name: "Next project", exact: true });
    await page.keyboard.press("Tab");
    await expectFocusIndicator(previous, "Previous project");
    await page.keyboard.press("Enter");
    await expectProject(1);
    await page.keyboard.press("Tab");
    await expectFocusIndicator(next, "Next project");
    await page.keyboard.press("Space");
    await expectProject(2);

    const firstDot = gallery.getByRole("button", { name: `Show project 1 of ${ACTIVE_IN_ORDER.length}: ${ACTIVE_IN_ORDER[0]!.title}` });
    await keyboardTo(page, firstDot);
    await expectFocusIndicator(firstDot, "the first dot");
    await page.keyboard.press("Enter");
    await expectProject(0);
    await expect(firstDot).toHaveAttribute("aria-current", "true");
    // The arrow keys work from the controls inside the carousel too.
    await page.keyboard.press("ArrowLeft");
    await expectProject(2);
  });
});

test.describe("the mobile menu at 375 px", () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true, contextOptions: { reducedMotion: "reduce" } });

  test("opens with Enter or Space, Tab walks its items, Escape closes it and gives focus back, a choice jumps and closes it", async ({ page }) => {
    await gotoLanding(page);
    const open = header(page).getByRole("button", { name: "Open menu", exact: true });
    const close = header(page).getByRole("button", { name: "Close menu", exact: true });
    const item = (name: string) => linkOrButton(header(page), name);

    await page.keyboard.press("Tab");
    await expectFocusIndicator(skipLink(page), "Skip to main content");
    await page.keyboard.press("Tab");
    await expectFocusIndicator(open, "Open menu");

    await page.keyboard.press("Enter");
    await expectFocusIndicator(close, "Close menu");
    await expect(close).toHaveAttribute("aria-expanded", "true");
    // The menu's items follow the toggle in the Tab order.
    for (const [name] of NAV_TARGETS.slice(0, 3)) {
      await page.keyboard.press("Tab");
      await expectFocusIndicator(item(name), `menu item ${name}`);
    }
    await page.keyboard.press("Escape");
    await expect(item("Home")).toBeHidden();
    await expectFocusIndicator(open, "Open menu, after Escape");

    // Space opens it, Enter on the toggle closes it.
    await page.keyboard.press("Space");
    await expectFocusIndicator(close, "Close menu");
    await page.keyboard.press("Enter");
    await expect(item("Home")).toBeHidden();
    await expectFocusIndicator(open, "Open menu");

    await page.keyboard.press("Enter");
    await keyboardTo(page, item("Pricing"));
    await page.keyboard.press("Enter");
    await expect(item("Pricing")).toBeHidden();
    await expect(open).toHaveAttribute("aria-expanded", "false");
    await expectJumpedTo(page, "pricing");
  });

  // WCAG 2.4.11: the open menu covers the top of the page; a control focused under it would be hidden.
  test("Tab out of the open menu and Shift+Tab back: the focused control is never hidden under the menu", async ({ page }) => {
    await gotoLanding(page);
    await keyboardTo(page, header(page).getByRole("button", { name: "Open menu", exact: true }));
    await page.keyboard.press("Enter");
    const out = await tabThroughPage(page, "Tab", NAV_TARGETS.length + 4);
    expect(out.slice(NAV_TARGETS.length)).toContain('button "Our Services"');
    await tabThroughPage(page, "Shift+Tab", 4);
  });
});
