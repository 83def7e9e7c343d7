import { expect, test, type Browser, type Page } from "@playwright/test";
import { ADMIN_COMPANY_NAME, ADMIN_EMAIL, ADMIN_URL, mainTab } from "./admin-fixtures";
import { expectAccessible } from "./axe";
import { expectFocusIndicator, tabUntilFocused, uniqueEmail, waitForHydration } from "./fixtures";
import { SIGNED_OUT, signedInState } from "./signed-in";

/**
 * The Team tab, the invitation's page and the Audit log (issue 21, decision
 * 050) in Chromium, on the "admin" server, whose owner's session the global
 * setup saved. E-mail is off there, so an invitation gives the owner the link
 * to pass on; the invitee opens it in a browser of their own (a second
 * context, nobody signed in). axe-core scans each new screen, and each can
 * be completed from the keyboard. Every test invites addresses of its own.
 */
test.use({ baseURL: ADMIN_URL, storageState: signedInState("admin"), contextOptions: { reducedMotion: "reduce" } });
// axe-core's scans take seconds on a busy 2-core machine.
test.setTimeout(90_000);

const PASSWORD = "a long password for the new member";
const MAIL_OFF = /^E-mail is off on this site \(no SMTP_URL is set\), so no invitation was sent\. Pass this link to .+ yourself/;

async function openTeam(page: Page): Promise<void> {
  await page.goto("/admin/team");
  await expect(page.getByRole("heading", { name: "Team", level: 2 })).toBeVisible();
  await waitForHydration(page);
}

/** A browser of the invitee's own: nobody signed in. */
async function invitee(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: SIGNED_OUT, baseURL: ADMIN_URL, reducedMotion: "reduce" });
  return context.newPage();
}

const dashboardTabs = (page: Page) => page.getByRole("tablist", { name: "Admin Dashboard" }).getByRole("tab");
const inviteForm = (page: Page) => page.getByRole("region", { name: "Invite a member" });
const memberCard = (page: Page, email: string) => page.getByRole("article").filter({ has: page.getByRole("heading", { name: email }) });

test("an owner invites a member, who joins through the link in their own browser and lands on their first tab", async ({ page, browser }) => {
  const email = uniqueEmail("invited-editor");
  await openTeam(page);
  await expect(mainTab(page, "Team")).toHaveAttribute("aria-selected", "true");
  await expect(memberCard(page, `${ADMIN_EMAIL} (you)`)).toContainText(/Two-step sign-in:\s*Off/);
  await expectAccessible(page, "the Team tab");

  const form = inviteForm(page);
  await form.getByLabel("E-mail address").fill(email);
  await form.getByRole("radio", { name: "Editor" }).check();
  await form.getByRole("button", { name: "Create invitation link" }).click();
  const shown = page.getByRole("region", { name: MAIL_OFF });
  await expect(shown).toBeFocused();
  const link = await shown.getByRole("textbox", { name: `Invitation link for ${email}` }).inputValue();
  expect(link).toMatch(new RegExp(`^${ADMIN_URL}/admin/join\\?token=[A-Za-z0-9_-]{43}$`));
  const pending = page.getByRole("list", { name: "Pending invitations" });
  await expect(pending.getByRole("article").filter({ hasText: email })).toContainText("Link shown to the owner (e-mail off)");
  await expectAccessible(page, "the Team tab with an invitation's link");

  const joining = await invitee(browser);
  await joining.goto(link);
  await expect(joining.getByRole("heading", { name: `Join the ${ADMIN_COMPANY_NAME} back office`, level: 1 })).toBeVisible();
  await expect(joining.getByText(/^You are invited as Editor: Renovation Projects and the Website tab/)).toBeVisible();
  await expect(joining.getByLabel("Email")).toHaveValue(email);
  await waitForHydration(joining);
  await expectAccessible(joining, "the invitation's page");
  await joining.getByLabel("Your name").fill("Ella Editor");
  await joining.getByLabel("Choose a password").fill(PASSWORD);
  await joining.getByRole("button", { name: "Join the team" }).click();
  await expect(joining).toHaveURL(`${ADMIN_URL}/admin/projects`);
  await expect(joining.getByText(`Welcome, ${email}`)).toBeVisible();
  await expect(dashboardTabs(joining)).toHaveText(["Renovation Projects", "Website"]);

  // Used: the link says so now, in any browser.
  await joining.goto(link);
  await expect(joining.getByRole("alert")).toHaveText("This invitation has been used already. Sign in instead, or ask an owner to invite you again.");
  await expectAccessible(joining, "the invitation's page for a used link");

  await openTeam(page);
  await expect(memberCard(page, email)).toContainText("Editor");
  await expect(memberCard(page, email)).toContainText("Ella Editor");
  await expect(pending.getByText(email)).toHaveCount(0);

  // Removing asks with the browser's dialog; the member's next page is the sign-in form.
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toBe(`Remove ${email} from the team? They are signed out at once and can no longer sign in. Their entries in the audit log stay.`);
    void dialog.accept();
  });
  await memberCard(page, email).getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Member removed; their session has ended." })).toBeVisible();
  await joining.goto("/admin/projects");
  await expect(joining.getByRole("heading", { name: "Admin Login" })).toBeVisible();
  await joining.context().close();

  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Team: Audit log", level: 2 })).toBeVisible();
  await expect(mainTab(page, "Team")).toHaveAttribute("aria-selected", "true");
  const table = page.getByRole("table", { name: "Audit log entries, newest first" });
  // Other tests on the same site invite and remove members meanwhile: this member's own entries, not merely the newest.
  await expect(
    table
      .getByRole("row")
      .filter({ hasText: "Removed a member" })
      .filter({ hasText: `Member: ${email}` }),
  ).toHaveCount(1);
  await expect(table.getByRole("row").filter({ hasText: "Accepted an invitation" }).filter({ hasText: email })).toHaveCount(1);
  await expectAccessible(page, "the Audit log");
});

test("keyboard only: invite, join and filter the Audit log, focus always shown", async ({ page, browser }) => {
  const email = uniqueEmail("keyboard-invitee");
  await openTeam(page);
  const form = inviteForm(page);
  const address = form.getByLabel("E-mail address");
  await tabUntilFocused(page, address);
  await expectFocusIndicator(address, "the invitation's address");
  await page.keyboard.type(email);
  // Into the roles: the first is Owner; the arrow keys choose among them.
  await page.keyboard.press("Tab");
  await expectFocusIndicator(form.getByRole("radio", { name: "Owner" }), "the first role");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(form.getByRole("radio", { name: "Enquiries" })).toBeChecked();
  await page.keyboard.press("Tab");
  await expectFocusIndicator(form.getByRole("button", { name: "Create invitation link" }), "the invitation's button");
  await page.keyboard.press("Enter");
  const shown = page.getByRole("region", { name: MAIL_OFF });
  await expect(shown).toBeFocused();
  await page.keyboard.press("Tab");
  const linkField = shown.getByRole("textbox", { name: `Invitation link for ${email}` });
  await expectFocusIndicator(linkField, "the link");
  const link = await linkField.inputValue();
  await page.keyboard.press("Tab");
  await expectFocusIndicator(shown.getByRole("button", { name: "Copy link" }), "Copy link");

  const joining = await invitee(browser);
  await joining.goto(link);
  await waitForHydration(joining);
  const name = joining.getByLabel("Your name");
  await tabUntilFocused(joining, name);
  await expectFocusIndicator(name, "the name");
  await joining.keyboard.type("Kit Keys");
  await joining.keyboard.press("Tab");
  await expectFocusIndicator(joining.getByLabel("Choose a password"), "the password");
  // Too short: the browser keeps the form (the same rule as the server's), focus stays to correct it.
  await joining.keyboard.type("short");
  await joining.keyboard.press("Enter");
  await expect(joining).toHaveURL(link);
  await joining.getByLabel("Choose a password").fill("");
  await joining.keyboard.type(PASSWORD);
  await joining.keyboard.press("Enter");
  await expect(joining).toHaveURL(`${ADMIN_URL}/admin/enquiries`);
  await expect(dashboardTabs(joining)).toHaveText(["Contact Submissions"]);
  await joining.context().close();

  await page.goto("/admin/team/audit");
  await waitForHydration(page);
  const action = page.getByLabel("Action");
  await tabUntilFocused(page, action);
  await expectFocusIndicator(action, "the action filter");
  await action.selectOption({ label: "Accepted an invitation" });
  await tabUntilFocused(page, page.getByRole("button", { name: "Filter" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/team\/audit\?person=&kind=invitation-accepted/);
  const rows = page.getByRole("table", { name: "Audit log entries, newest first" }).getByRole("row");
  await expect(rows.filter({ hasText: email })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Signed in" })).toHaveCount(0);
  const exportLink = page.getByRole("link", { name: "Export CSV" });
  await expect(exportLink).toHaveAttribute("href", "/admin/team/audit.csv?kind=invitation-accepted");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the Team tab, the Audit log and a link that does not work pass axe-core, and nothing spills sideways", async ({ page, browser }) => {
    await openTeam(page);
    await expectAccessible(page, "the Team tab at 375 px");
    await page.goto("/admin/team/audit");
    await waitForHydration(page);
    await expectAccessible(page, "the Audit log at 375 px");
    // The table scrolls inside its own region, which the keyboard can reach.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const stranger = await invitee(browser);
    await stranger.setViewportSize({ width: 375, height: 812 });
    await stranger.goto("/admin/join?token=made-up");
    await expect(stranger.getByRole("alert")).toHaveText(
      "This invitation link is not valid. Check that you copied all of it, or ask an owner to invite you again.",
    );
    await expectAccessible(stranger, "the invitation's page for a made-up link at 375 px");
    await stranger.context().close();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("revoking an invitation asks on the page first; the revoked link then says it was withdrawn", async ({ page, browser }) => {
    const email = uniqueEmail("revoked-nojs");
    await page.goto("/admin/team");
    const form = inviteForm(page);
    await form.getByLabel("E-mail address").fill(email);
    await form.getByRole("radio", { name: "Owner" }).check();
    await form.getByRole("button", { name: "Create invitation link" }).click();
    const link = await page.getByRole("textbox", { name: `Invitation link for ${email}` }).inputValue();

    const card = page.getByRole("list", { name: "Pending invitations" }).getByRole("article").filter({ hasText: email });
    await card.getByRole("button", { name: "Revoke" }).click();
    const question = page.getByRole("alert").filter({ hasText: `Revoke the invitation to ${email}? Its link stops working at once.` });
    await expect(question).toBeVisible();
    await question.getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByText("Invitation revoked: its link no longer works.")).toBeVisible();

    const stranger = await invitee(browser);
    await stranger.goto(link);
    await expect(stranger.getByRole("alert")).toHaveText("This invitation was withdrawn. Ask an owner if you should have a new one.");
    await stranger.context().close();
  });
});
