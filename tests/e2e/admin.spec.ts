import { expect, test, type Page, type Request } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  ADMIN_URL,
  INBOX,
  LOGIN,
  SESSION_COOKIE,
  delay,
  filterTab,
  loginFields,
  loginHeading,
  mainTab,
  openInbox,
  signIn,
  submitSignIn,
  welcome,
} from "./admin-fixtures";
import { expectFocusIndicator, tabUntilFocused, waitForHydration } from "./fixtures";
import { restoreSignedInState } from "./signed-in";

/**
 * The admin's sign-in, session and navigation (SPEC §2, §5), on the "admin"
 * server. These tests only read the inbox, so they run in parallel with the
 * inbox tests of admin-inbox.spec.ts. Those that sign in, out or fail to
 * have their own browser context, so their own session; the few that only
 * need to be signed in take the run's saved session (signed-in.ts), which
 * none of them signs out.
 */
test.use({ baseURL: ADMIN_URL });

const signOutButton = (page: Page) => page.getByRole("button", { name: "Sign Out", exact: true });

/** Records the POST requests the page sends. */
function recordPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request);
  });
  return posts;
}

async function sessionCookie(page: Page) {
  return (await page.context().cookies(ADMIN_URL)).find((cookie) => cookie.name === SESSION_COOKIE);
}

test.describe("signed out", () => {
  test("/admin shows the login screen: heading, subtitle, required Email and Password, Sign In; no dashboard", async ({ page }) => {
    const response = await page.goto("/admin");
    await expect(loginHeading(page)).toBeVisible();
    await expect(page.getByText(LOGIN.subtitle, { exact: true })).toBeVisible();
    await expect(page).toHaveTitle(LOGIN.title);
    const fields = loginFields(page);
    await expect(fields.email).toHaveAttribute("type", "email");
    await expect(fields.password).toHaveAttribute("type", "password");
    await expect(fields.email).toHaveJSProperty("required", true);
    await expect(fields.password).toHaveJSProperty("required", true);
    await expect(fields.submit).toBeEnabled();
    await expect(welcome(page)).toHaveCount(0);
    await expect(signOutButton(page)).toHaveCount(0);
    await expect(page.getByRole("tab")).toHaveCount(0);
    // Nothing of the dashboard is in the HTML, and it is not cached.
    const html = (await response?.text()) ?? "";
    expect(html).not.toContain("Welcome,");
    expect(html).not.toContain("Contact Submissions");
    expect(response?.headers()["cache-control"]).toContain("no-store");
  });

  test("an empty form is not sent: the browser asks for the required fields", async ({ page }) => {
    await page.goto("/admin");
    await waitForHydration(page);
    const posts = recordPosts(page);
    const fields = loginFields(page);
    await fields.submit.click();
    await expect.poll(() => fields.email.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    await fields.email.fill(ADMIN_EMAIL);
    await fields.submit.click();
    await expect.poll(() => fields.password.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    await expect(loginHeading(page)).toBeVisible();
    expect(posts.map((request) => request.url())).toEqual([]);
  });

  test("a wrong password, or an unknown e-mail, shows the error alert; no session is started", async ({ page }) => {
    await page.goto("/admin");
    await waitForHydration(page);
    const fields = loginFields(page);

    await submitSignIn(page, { email: ADMIN_EMAIL, password: "not-the-password-at-all" });
    const alert = page.getByRole("alert");
    await expect(alert).toHaveText(LOGIN.failure);
    await expect(loginHeading(page)).toBeVisible();
    await expect(welcome(page)).toHaveCount(0);
    // Ready for another try: the e-mail stays, the password is cleared and focused.
    await expect(fields.email).toHaveValue(ADMIN_EMAIL);
    await expect(fields.password).toHaveValue("");
    await expect(fields.password).toBeFocused();
    await expect(fields.submit).toHaveText("Sign In");
    await expect(fields.submit).toBeEnabled();
    expect(await sessionCookie(page)).toBeUndefined();

    // The same answer for an e-mail that has no account.
    await submitSignIn(page, { email: "nobody-here@example.com", password: ADMIN_PASSWORD });
    await expect(alert).toHaveText(LOGIN.failure);
    await expect(fields.email).toHaveValue("nobody-here@example.com");
    await expect(welcome(page)).toHaveCount(0);
    expect(await sessionCookie(page)).toBeUndefined();

    // A reload shows the form again, still signed out.
    await page.reload();
    await expect(loginHeading(page)).toBeVisible();
    await expect(welcome(page)).toHaveCount(0);
  });

  test("'Signing in...' shows on the disabled button while the sign-in request is under way", async ({ page }) => {
    await page.goto("/admin");
    await waitForHydration(page);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/admin/sign-in*", async (route) => {
      if (route.request().method() === "POST") await released;
      await route.continue();
    });
    const fields = loginFields(page);
    await fields.email.fill(ADMIN_EMAIL);
    await fields.password.fill(ADMIN_PASSWORD);
    await fields.submit.click();
    const busy = page.getByRole("button", { name: LOGIN.busy, exact: true });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    // Held for a moment longer: it stays busy until the answer comes.
    await delay(500);
    await expect(busy).toBeVisible();
    release();
    await expect(welcome(page)).toBeVisible();
    await expect(busy).toHaveCount(0);
  });
});

test.describe("signed in", () => {
  test("signing in shows the dashboard; the session cookie is __Host-, Secure, HttpOnly; a reload and a new tab stay signed in", async ({ page, context }) => {
    await signIn(page);
    await expect(page).toHaveURL(`${ADMIN_URL}/admin`);
    await expect(page).toHaveTitle("Admin Dashboard");
    await expect(signOutButton(page)).toBeVisible();
    // The specification's two tabs, with their names, then issue 15's Website tab and, for an owner, issue 21's Team tab.
    await expect(page.getByRole("tab")).toHaveText(["Renovation Projects", "Contact Submissions", "Website", "Team"]);
    await expect(mainTab(page, "Renovation Projects")).toHaveAttribute("aria-selected", "true");
    await expect(mainTab(page, "Renovation Projects")).toHaveAttribute("href", "/admin/projects");
    await expect(mainTab(page, "Contact Submissions")).toHaveAttribute("href", "/admin/enquiries");
    await expect(loginHeading(page)).toHaveCount(0);

    // Chromium keeps the production cookie on http://127.0.0.1 (a loopback origin counts as secure).
    const cookie = await sessionCookie(page);
    expect(cookie, `the ${SESSION_COOKIE} cookie`).toMatchObject({
      name: SESSION_COOKIE,
      domain: "127.0.0.1",
      path: "/",
      secure: true,
      httpOnly: true,
      sameSite: "Lax",
    });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.evaluate(() => document.cookie), "HttpOnly: scripts cannot read it").toBe("");

    await page.reload();
    await expect(welcome(page)).toBeVisible();
    await expect(loginHeading(page)).toHaveCount(0);

    const second = await context.newPage();
    await second.goto("/admin/enquiries");
    await expect(welcome(second)).toBeVisible();
    await expect(second.getByRole("heading", { name: "Contact Submissions", level: 2 })).toBeVisible();
    await second.close();
  });

  test("Sign Out returns to the login form; back, forward and reload never show the dashboard; the old cookie is dead", async ({ page, context }) => {
    await page.goto("/");
    await signIn(page);
    await mainTab(page, "Contact Submissions").click();
    await expect(page).toHaveURL(/\/admin\/enquiries$/);
    await expect(page.getByRole("heading", { name: "Contact Submissions", level: 2 })).toBeVisible();
    const cookie = await sessionCookie(page);
    expect(cookie).toBeDefined();
    // Another tab of the same browser, still showing the dashboard.
    const stale = await context.newPage();
    await stale.goto("/admin");
    await expect(welcome(stale)).toBeVisible();
    await waitForHydration(stale);

    await signOutButton(page).click();
    await expect(loginHeading(page)).toBeVisible();
    await expect(welcome(page)).toHaveCount(0);
    await expect(page).toHaveURL(`${ADMIN_URL}/admin`);
    expect(await sessionCookie(page), "the cookie is cleared").toBeUndefined();

    await page.reload();
    await expect(loginHeading(page)).toBeVisible();
    await expect(welcome(page)).toHaveCount(0);

    // Back through the dashboard's history entries: none shows it again.
    for (let step = 0; step < 3; step += 1) {
      await page.goBack();
      if (!new URL(page.url()).pathname.startsWith("/admin")) break;
      await expect(loginHeading(page)).toBeVisible();
      await expect(welcome(page)).toHaveCount(0);
      await expect(page.getByText("Manage and respond to customer inquiries")).toHaveCount(0);
    }
    await page.goForward();
    await expect(welcome(page)).toHaveCount(0);

    // The other tab's next step meets the login form.
    await mainTab(stale, "Contact Submissions").click();
    await expect(loginHeading(stale)).toBeVisible();
    await expect(welcome(stale)).toHaveCount(0);
    await stale.close();

    // The server ended the session: the old token, put back, opens nothing.
    await context.addCookies([cookie!]);
    await page.goto("/admin/enquiries");
    await expect(loginHeading(page)).toBeVisible();
    await expect(welcome(page)).toHaveCount(0);
  });

  test("keyboard only: Tab to the fields, type, Enter signs in; arrow keys, Home and End move between tabs", async ({ page }) => {
    await page.goto("/admin");
    await waitForHydration(page);
    const fields = loginFields(page);
    await page.keyboard.press("Tab");
    await expectFocusIndicator(fields.email, "Email");
    await page.keyboard.type(ADMIN_EMAIL);
    await page.keyboard.press("Tab");
    await expectFocusIndicator(fields.password, "Password");
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press("Enter");
    await expect(welcome(page)).toBeVisible();
    await waitForHydration(page);

    // Tab to the dashboard's first tab.
    const projects = mainTab(page, "Renovation Projects");
    const contacts = mainTab(page, "Contact Submissions");
    await tabUntilFocused(page, projects);
    await expectFocusIndicator(projects, "the Renovation Projects tab");

    await page.keyboard.press("ArrowRight");
    await expectFocusIndicator(contacts, "the Contact Submissions tab");
    await expect(page).toHaveURL(/\/admin\/enquiries$/);
    await expect(contacts).toHaveAttribute("aria-selected", "true");
    await expect(projects).toHaveAttribute("aria-selected", "false");
    await expect(page.getByRole("heading", { name: "Contact Submissions", level: 2 })).toBeVisible();

    await page.keyboard.press("ArrowLeft");
    await expect(projects).toBeFocused();
    await expect(page).toHaveURL(/\/admin\/projects$/);
    await expect(projects).toHaveAttribute("aria-selected", "true");

    // The keys wrap around, Home and End go to the ends (the last tab, an owner's, is issue 21's Team).
    const website = mainTab(page, "Website");
    const team = mainTab(page, "Team");
    await page.keyboard.press("ArrowLeft");
    await expect(page).toHaveURL(/\/admin\/team$/);
    await expect(team).toBeFocused();
    await expect(team).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowLeft");
    await expect(page).toHaveURL(/\/admin\/website$/);
    await expect(website).toBeFocused();
    await expect(website).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Home");
    await expect(page).toHaveURL(/\/admin\/projects$/);
    await expect(projects).toBeFocused();
    await expect(projects).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("End");
    await expect(page).toHaveURL(/\/admin\/team$/);
    await expect(team).toBeFocused();
    await expect(team).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowLeft");
    await expect(website).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(contacts).toBeFocused();
    await expect(contacts).toHaveAttribute("aria-selected", "true");
    await expect(page).toHaveURL(/\/admin\/enquiries$/);

    // The inbox's filter tabs: an arrow key chooses the next filter.
    await expect(filterTab(page, "All")).toHaveAttribute("aria-selected", "true");
    await tabUntilFocused(page, filterTab(page, "All"));
    await page.keyboard.press("ArrowRight");
    await expect(page).toHaveURL(/\/admin\/enquiries\?filter=unread$/);
    await expect(filterTab(page, "Unread")).toHaveAttribute("aria-selected", "true");
    await expect(filterTab(page, "All")).toHaveAttribute("aria-selected", "false");
  });

  test("keyboard only: a failed sign-in leaves focus in the form to correct it; Sign Out with Enter", async ({ page }) => {
    await page.goto("/admin");
    await waitForHydration(page);
    const fields = loginFields(page);
    await page.keyboard.press("Tab");
    await page.keyboard.type("nobody-at-the-keys@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press("Tab");
    await expectFocusIndicator(fields.submit, "Sign In");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alert")).toHaveText(LOGIN.failure);
    // Ready for another try: in the (cleared) password, one Shift+Tab from the e-mail to correct.
    await expectFocusIndicator(fields.password, "Password after the failure");
    await page.keyboard.press("Shift+Tab");
    await expectFocusIndicator(fields.email, "Email");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(ADMIN_EMAIL);
    await page.keyboard.press("Tab");
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press("Enter");
    await expect(welcome(page)).toBeVisible();
    await waitForHydration(page);

    await tabUntilFocused(page, signOutButton(page));
    await expectFocusIndicator(signOutButton(page), "Sign Out");
    await page.keyboard.press("Enter");
    await expect(loginHeading(page)).toBeVisible();
    await expect(welcome(page)).toHaveCount(0);
    expect(await sessionCookie(page), "the cookie is cleared").toBeUndefined();
  });

  test("arrow keys, Home and End move between the inbox's filter tabs, and focus stays on the tab chosen", async ({ page }) => {
    await restoreSignedInState(page.context(), "admin");
    await openInbox(page);
    await tabUntilFocused(page, filterTab(page, "All"));
    await page.keyboard.press("ArrowRight");
    await expect(page).toHaveURL(/\/admin\/enquiries\?filter=unread$/);
    await expect(filterTab(page, "Unread")).toHaveAttribute("aria-selected", "true");
    await expect(filterTab(page, "Unread")).toBeFocused({ timeout: 2_000 });
    await page.keyboard.press("ArrowRight");
    await expect(page).toHaveURL(/\/admin\/enquiries\?filter=read$/);
    await expect(filterTab(page, "Read")).toHaveAttribute("aria-selected", "true");
    await expect(filterTab(page, "Read")).toBeFocused();
    await page.keyboard.press("Home");
    await expect(page).toHaveURL(/\/admin\/enquiries$/);
    await expect(filterTab(page, "All")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(page).toHaveURL(/\/admin\/enquiries\?filter=spam$/);
    await expect(filterTab(page, "Spam")).toBeFocused();
  });

  test("'Loading contact submissions...' shows while the Contact Submissions tab loads slowly", async ({ page }) => {
    await restoreSignedInState(page.context(), "admin");
    await page.goto("/admin");
    await expect(welcome(page)).toBeVisible();
    await waitForHydration(page);
    await page.route("**/admin/enquiries.data*", async (route) => {
      await delay(1_000);
      await route.continue();
    });
    await mainTab(page, "Contact Submissions").click();
    const loading = page.getByRole("status").filter({ hasText: INBOX.loading });
    await expect(loading).toBeVisible();
    await expect(mainTab(page, "Contact Submissions")).toHaveAttribute("aria-selected", "true");
    await expect(page.locator("#inbox-list")).toHaveAttribute("aria-busy", "true");
    await expect(page.getByRole("heading", { name: "Contact Submissions", level: 2 })).toBeVisible();
    // Then the inbox itself.
    await expect(loading).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin\/enquiries$/);
    await expect(filterTab(page, "All")).toHaveText(/^All \(\d+\)$/);
    await expect(page.locator("#inbox-list")).toHaveAttribute("aria-busy", "false");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form posts to /admin/sign-in: a failure shows the error there, a success the dashboard; Sign Out works too", async ({ page }) => {
    await page.goto("/admin");
    await expect(loginHeading(page)).toBeVisible();
    const fields = loginFields(page);
    await expect(page.locator("form").filter({ has: fields.email })).toHaveAttribute("action", "/admin/sign-in");

    await submitSignIn(page, { email: "not-an-admin@example.com", password: "some-wrong-password" });
    await expect(page).toHaveURL(`${ADMIN_URL}/admin/sign-in`);
    await expect(page.getByRole("alert")).toHaveText(LOGIN.failure);
    await expect(loginHeading(page)).toBeVisible();
    await expect(fields.email).toHaveValue("not-an-admin@example.com");
    await expect(fields.password).toHaveValue("");
    expect(await sessionCookie(page)).toBeUndefined();

    await submitSignIn(page);
    await expect(page).toHaveURL(`${ADMIN_URL}/admin`);
    await expect(welcome(page)).toBeVisible();
    // The specification's two tabs, with their names, then issue 15's Website tab and, for an owner, issue 21's Team tab.
    await expect(page.getByRole("tab")).toHaveText(["Renovation Projects", "Contact Submissions", "Website", "Team"]);
    expect(await sessionCookie(page)).toMatchObject({ secure: true, httpOnly: true });
    await page.reload();
    await expect(welcome(page)).toBeVisible();

    await signOutButton(page).click();
    await expect(loginHeading(page)).toBeVisible();
    await expect(welcome(page)).toHaveCount(0);
    expect(await sessionCookie(page)).toBeUndefined();
    await page.goBack();
    await expect(welcome(page)).toHaveCount(0);
  });
});

test.describe("the footer's Admin link", () => {
  for (const signedIn of [false, true]) {
    test(`shows a 'Checking sign-in...' overlay while /admin loads, then ${signedIn ? "the dashboard" : "the login form"}`, async ({ page }) => {
      if (signedIn) await restoreSignedInState(page.context(), "admin");
      await page.goto("/");
      await waitForHydration(page);
      // The landing page loads /admin as a new document (decision 015): hold it back to see the overlay.
      await page.route("**/admin", async (route) => {
        await delay(1_000);
        await route.continue();
      });
      const link = page.getByRole("contentinfo").getByRole("link", { name: "Admin", exact: true });
      await expect(link).toHaveAttribute("href", "/admin");
      // Playwright's locators wait for a pending navigation, so the old page notes what it showed before it went.
      await page.evaluate(() => {
        const overlay = document.getElementById("checking-sign-in");
        if (!overlay) return;
        new MutationObserver(() => {
          if (overlay.checkVisibility()) {
            sessionStorage.setItem("overlay-shown", overlay.querySelector('[role="status"]')?.textContent ?? "");
          }
        }).observe(overlay, { attributes: true });
      });
      await link.click();
      expect(await page.evaluate(() => sessionStorage.getItem("overlay-shown")), "the status shown while /admin loaded").toBe(LOGIN.checking);
      if (signedIn) {
        await expect(welcome(page)).toBeVisible();
        await expect(loginHeading(page)).toHaveCount(0);
      } else {
        await expect(loginHeading(page)).toBeVisible();
        await expect(welcome(page)).toHaveCount(0);
      }
      await expect(page.getByText(LOGIN.checking)).toHaveCount(0);
      await expect(page).toHaveURL(`${ADMIN_URL}/admin`);
      // Back on the landing page, nothing is being checked any more.
      await page.goBack();
      await expect(page.getByRole("contentinfo").getByRole("link", { name: "Admin", exact: true })).toBeVisible();
      await expect(page.getByText(LOGIN.checking)).toBeHidden();
    });
  }
});
