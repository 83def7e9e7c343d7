import { expect, test, type Page } from "@playwright/test";
import { ensureAdmin } from "~/auth/admins.server";
import { addToTally } from "~/platform/limits/tally.server";
import { addNotification } from "../support/enquiries";
import { addEnquiries, loginFields, loginHeading, withSiteDb } from "./admin-fixtures";
import { expectAccessible } from "./axe";
import { ACTIVE_IN_ORDER, MESSAGES, edgeContrastProblem, gotoLanding, section, tabThroughPage, uniqueEmail, waitForHydration } from "./fixtures";

/**
 * Issue 6, point 2: axe-core finds no WCAG 2.2 A/AA problem (nor a best
 * practice one) on the landing page and the admin's pages, in the states a
 * visitor or an admin meets, on a desktop and a phone; what axe-core cannot
 * measure (text on gradients and photos, form fields' edges) is measured
 * here; every admin control shows its focus; and motion follows
 * prefers-reduced-motion. The landing page's keyboard flows are in
 * keyboard.spec.ts.
 *
 * Scans run with reduced motion, and after every running animation has
 * finished: a slide fading in is half transparent, and axe would measure the
 * contrast of text that is still appearing.
 *
 * The admin pages are scanned on the "site" server, with an admin of its own
 * and enquiries added beside the others (never removed), because the tests of
 * the "admin" server empty and count its inbox and projects as they go. The
 * site's seeded gallery gives the Projects tab an active and an inactive row.
 */
test.use({ contextOptions: { reducedMotion: "reduce" } });
// axe-core takes seconds per scan of the landing page on a busy 2-core machine.
test.setTimeout(90_000);

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("/ : the page, the gallery, the contact form's error and success", async ({ page }) => {
      await gotoLanding(page);
      await expectAccessible(page, "/");

      if (viewport.width < 768) {
        await page.getByRole("button", { name: "Open menu", exact: true }).click();
        await expect(page.getByRole("button", { name: "Close menu", exact: true })).toBeVisible();
        await expectAccessible(page, "/ with the mobile menu open", "header");
        await page.getByRole("button", { name: "Close menu", exact: true }).click();
      }

      const gallery = section(page, "renovations");
      await gallery.getByRole("region", { name: "Renovation projects, before and after" }).scrollIntoViewIfNeeded();
      await expect(gallery.getByRole("heading", { name: ACTIVE_IN_ORDER[0]!.title })).toBeInViewport();
      await expectAccessible(page, "/ scrolled to the gallery", "#renovations");
      await gallery.getByRole("button", { name: "Next project", exact: true }).click();
      await expect(gallery.getByRole("heading", { name: ACTIVE_IN_ORDER[1]!.title })).toBeVisible();
      await expectAccessible(page, "/ on the gallery's second project", "#renovations");

      const contact = section(page, "contact");
      const send = contact.getByRole("button", { name: "Send Message" });
      await send.scrollIntoViewIfNeeded();
      await send.click();
      await expect(contact.getByText(MESSAGES.required, { exact: true })).toBeVisible();
      await expectAccessible(page, "/ with the contact form's error", "#contact");

      await contact.getByRole("textbox", { name: "Full Name" }).fill("Axe Tester");
      await contact.getByRole("textbox", { name: "Email Address" }).fill(uniqueEmail("axe"));
      await contact.getByRole("combobox", { name: "I am a" }).selectOption("landlord");
      await contact.getByRole("textbox", { name: "Message" }).fill("Checking that the success notice is readable.");
      await send.click();
      await expect(contact.getByText(MESSAGES.success, { exact: true })).toBeVisible();
      await expectAccessible(page, "/ with the contact form's success notice", "#contact");
    });
  });
}

const ADMIN = { email: "a11y.admin@example.com", password: "e2e-a11y-correct-horse" };

test.describe("admin pages", () => {
  /**
   * A tag of this worker's run, so the enquiries seeded here can be searched for. Each worker
   * that runs a test of this block seeds its own (beforeAll); workers that start together
   * read the same Date.now(), so the process id is part of the tag.
   */
  const run = `axe${process.pid.toString(36)}x${Date.now().toString(36)}`;

  test.beforeAll(async () => {
    await withSiteDb(async (db) => {
      await ensureAdmin(db, ADMIN.email, ADMIN.password);
      const [failed, sent] = await addEnquiries(db, [
        {
          name: `Una Unread ${run}`,
          email: uniqueEmail("axe-landlord"),
          phone: "020 7946 0001",
          userType: "landlord",
          message: `Unread, with a failed e-mail. ${run}`,
        },
        { name: `Rhys Read ${run}`, email: uniqueEmail("axe-tenant"), userType: "tenant", message: `Read, e-mail sent. ${run}`, read: true },
        { name: `Ivy Investor ${run}`, email: uniqueEmail("axe-investor"), userType: "investor", message: `Unread investor. ${run}` },
        { name: `Otto Other ${run}`, email: uniqueEmail("axe-other"), userType: "other", message: `Read, other. ${run}`, read: true },
        { name: `Sam Spam ${run}`, email: uniqueEmail("axe-spam"), userType: "other", message: `Cheap pills ${run}`, spam: "links" },
        { name: `Hal Held ${run}`, email: uniqueEmail("axe-held"), userType: "landlord", message: `Sent in a flood ${run}`, held: true },
      ]);
      // What the limits held and turned away, so the dashboard's banners are checked too.
      const now = new Date();
      for (const bucket of [
        "contact-held",
        "contact-refused-ceiling",
        "contact-refused-address",
        "sign-in-refused-busy",
        "sign-in-refused-limit",
        "join-refused-limit",
        "password-reset-refused",
      ] as const) {
        await addToTally(db, bucket, now, 3);
      }
      await addNotification(db, failed!, { status: "failed", attempts: 8, lastError: "550 mailbox unavailable" });
      await addNotification(db, sent!, { status: "sent", attempts: 1, sentAt: new Date().toISOString() });
    });
  });

  for (const viewport of WIDTHS) {
    test(`at ${viewport.width} px: sign-in, its error, both tabs, the project form, data requests; every control shows its focus`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/admin");
      await expect(loginHeading(page)).toBeVisible();
      await waitForHydration(page);
      await expectAccessible(page, "the sign-in screen");
      // Email, Password, Sign In, Forgot your password?, Sign in with a passkey, Back to the website.
      expect(await tabThroughPage(page, "Tab")).toHaveLength(6);

      const fields = loginFields(page);
      await fields.email.fill(`nobody-${run}@example.com`);
      await fields.password.fill("not the password at all");
      await fields.submit.click();
      await expect(page.getByRole("alert")).toHaveText("Error signing in. Please check your credentials.");
      await expectAccessible(page, "the sign-in screen with its error");

      await fields.email.fill(ADMIN.email);
      await fields.password.fill(ADMIN.password);
      await fields.submit.click();
      await expect(page.getByText(`Welcome, ${ADMIN.email}`, { exact: true })).toBeVisible();
      await page.goto("/admin/projects");
      await expect(page.getByRole("heading", { name: "Renovation Projects", level: 2 })).toBeVisible();
      await waitForHydration(page);
      await expectAccessible(page, "the Renovation Projects tab");
      expect((await tabThroughPage(page, "Tab")).length).toBeGreaterThan(20);

      await page.getByRole("button", { name: "Add Project", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Add New Project", level: 3 })).toBeVisible();
      await expectAccessible(page, "the Add New Project form", "#dashboard-panel");
      expect(await tabThroughPage(page, "Tab", 12)).toHaveLength(12);

      await page.getByRole("link", { name: "Cancel", exact: true }).click();
      await page.getByRole("button", { name: "Edit project" }).first().click();
      await expect(page.getByRole("heading", { name: "Edit Project", level: 3 })).toBeVisible();
      await expectAccessible(page, "the Edit Project form", "#dashboard-panel");

      await page.goto(`/admin/enquiries?q=${run}`);
      await expect(page.getByRole("heading", { name: `Una Unread ${run}` })).toBeVisible();
      await waitForHydration(page);
      expect((await tabThroughPage(page, "Tab")).length).toBeGreaterThan(20);
      // Which filter is chosen shows by more than a white background a shade off the bar's.
      expect(await edgeContrastProblem(page.getByRole("tablist", { name: "Filter submissions" }).getByRole("tab", { selected: true }))).toBe("");
      await page.getByRole("checkbox", { name: `Select Rhys Read ${run}` }).check();
      await expectAccessible(page, "the Contact Submissions tab (read and unread, one ticked)");
      await page.goto(`/admin/enquiries?filter=spam&q=${run}`);
      await expect(page.getByRole("heading", { name: `Sam Spam ${run}` })).toBeVisible();
      await expectAccessible(page, "the Spam filter", "#dashboard-panel");
      await page.goto(`/admin/enquiries?filter=held&q=${run}`);
      await expect(page.getByRole("heading", { name: `Hal Held ${run}` })).toBeVisible();
      await expect(page.getByText(/arrived during a flood in the last 24 hours/)).toBeVisible();
      await expect(page.getByText(/Sign-in attempts turned away in the last 24 hours/)).toBeVisible();
      await expectAccessible(page, "the Held filter, with the limits' banners");

      await page.goto("/admin/data-requests");
      await expect(page.getByRole("heading", { name: "Data requests (UK GDPR)", level: 1 })).toBeVisible();
      await waitForHydration(page);
      await expectAccessible(page, "Data requests");
      expect((await tabThroughPage(page, "Tab")).length).toBeGreaterThan(3);
    });
  }
});

/** The longest animation or transition any element (or its ::before/::after) of the page would run, in seconds, and which. */
function longestMotion(page: Page): Promise<{ seconds: number; where: string }> {
  return page.evaluate(() => {
    const longest = (durations: string) =>
      Math.max(...durations.split(",").map((value) => (value.trim().endsWith("ms") ? parseFloat(value) / 1000 : parseFloat(value))));
    let found = { seconds: 0, where: "nothing moves" };
    for (const element of Array.from(document.querySelectorAll("*"))) {
      for (const pseudo of [null, "::before", "::after"]) {
        const style = getComputedStyle(element, pseudo);
        const repeats = style.animationIterationCount === "infinite" ? Infinity : Math.max(...style.animationIterationCount.split(",").map(Number));
        const animation = style.animationName === "none" ? 0 : longest(style.animationDuration) * repeats;
        const seconds = Math.max(animation, longest(style.transitionDuration));
        if (seconds > found.seconds) {
          found = {
            seconds,
            where: `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}">${pseudo ?? ""}: animation ${style.animationName} ${style.animationDuration} × ${style.animationIterationCount}, transition ${style.transitionDuration}`,
          };
        }
      }
    }
    return found;
  });
}

/** The visible slide's animation: its name and duration in seconds. */
async function slideAnimation(page: Page): Promise<{ name: string; seconds: number }> {
  await section(page, "renovations").getByRole("button", { name: "Next project", exact: true }).click();
  return section(page, "renovations")
    .locator('[aria-roledescription="slide"]:not([hidden])')
    .evaluate((slide) => {
      const style = getComputedStyle(slide);
      return { name: style.animationName, seconds: parseFloat(style.animationDuration) * (style.animationDuration.endsWith("ms") ? 0.001 : 1) };
    });
}

/** Shows "Signing in..." (the sign-in request held) and returns its spinner's animation. */
async function signInSpinner(page: Page): Promise<{ name: string; repeats: string }> {
  await page.goto("/admin");
  await waitForHydration(page);
  await page.route("**/admin/sign-in*", () => undefined);
  const fields = loginFields(page);
  await fields.email.fill("motion@example.com");
  await fields.password.fill("not the password at all");
  await fields.submit.click();
  const busy = page.getByRole("button", { name: "Signing in...", exact: true });
  await expect(busy).toBeDisabled();
  return busy.locator("svg").evaluate((svg) => {
    const style = getComputedStyle(svg);
    return { name: style.animationName, repeats: style.animationIterationCount };
  });
}

test.describe("motion (WCAG 2.3.3)", () => {
  test("with prefers-reduced-motion: reduce nothing moves: no smooth scrolling, no fading slide, no transition, a still spinner", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await gotoLanding(page);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
    expect((await slideAnimation(page)).seconds).toBeLessThanOrEqual(0.001);
    const longest = await longestMotion(page);
    expect(longest.seconds, `the longest motion on /: ${longest.where}`).toBeLessThanOrEqual(0.001);
    expect(await signInSpinner(page)).toEqual({ name: "none", repeats: "1" });
    const onAdmin = await longestMotion(page);
    expect(onAdmin.seconds, `the longest motion on /admin: ${onAdmin.where}`).toBeLessThanOrEqual(0.001);
  });

  // The nav's smooth scrolling, and its instant jump under reduced motion, are tested in landing.spec.ts.
  test("without the preference slides fade in, controls ease and the spinner spins", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await gotoLanding(page);
    expect(await slideAnimation(page)).toEqual({ name: "fade-in", seconds: 0.4 });
    expect((await longestMotion(page)).seconds).toBeGreaterThan(0.1);
    expect(await signInSpinner(page)).toEqual({ name: "spin", repeats: "infinite" });
  });
});
