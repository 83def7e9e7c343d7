import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { memberActor } from "~/audit/actor";
import { createAdmin } from "~/auth/admins.server";
import { inviteMember } from "~/auth/invitations.server";
import { TEST_ACTOR } from "../support/actors";
import { loginFields, loginHeading, withSiteDb } from "./admin-fixtures";
import { waitForHydration } from "./fixtures";

/**
 * The member's account page and "Sign in with a passkey", in Chromium, on
 * the "site" server at http://localhost:<port> (browsers refuse passkeys at
 * a bare IP address such as 127.0.0.1): a passkey registered and used
 * through Chromium's virtual authenticator (CDP WebAuthn), two-step sign-in
 * set up from the keyboard with a code computed here, a session ended from
 * another browser; axe-core finds nothing on the new screens. Each test
 * makes a member of its own.
 */
const SITE = process.env.E2E_SITE_URL!.replace("127.0.0.1", "localhost");
const PASSWORD = "an e2e account page password";
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

test.use({ contextOptions: { reducedMotion: "reduce" } });
test.setTimeout(90_000);

async function newMember(): Promise<{ email: string; password: string }> {
  const email = `account-${randomBytes(4).toString("hex")}@example.com`;
  await withSiteDb((db) => createAdmin(db, email, PASSWORD, TEST_ACTOR));
  return { email, password: PASSWORD };
}

async function signInAt(page: Page, member: { email: string; password: string }, path = "/admin/account"): Promise<void> {
  await page.goto(`${SITE}${path}`);
  await expect(loginHeading(page)).toBeVisible();
  await waitForHydration(page);
  const fields = loginFields(page);
  await fields.email.fill(member.email);
  await fields.password.fill(member.password);
  await fields.submit.click();
  await expect(page.getByRole("heading", { name: "Your account", level: 2 })).toBeVisible();
}

async function expectAccessible(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    where,
  ).toEqual([]);
}

/** Presses Tab until `target` has the focus (at most 80 times), as a keyboard user reaches it. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let i = 0; i < 80; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("the control was not reached with Tab");
}

/** Chromium's virtual authenticator (CDP WebAuthn): a platform passkey store that says yes with the user verified. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

test("a passkey is added on the account page and signs in through the virtual authenticator", async ({ page }) => {
  const member = await newMember();
  await addVirtualAuthenticator(page);

  await signInAt(page, member);
  await waitForHydration(page);
  await page.getByLabel("Name of the new passkey").fill("Virtual authenticator");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible();
  await expect(page.getByText("Virtual authenticator", { exact: true })).toBeVisible();
  await expectAccessible(page, "the account page with a passkey");

  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(loginHeading(page)).toBeVisible();
  await page.goto(`${SITE}/admin`);
  await waitForHydration(page);
  await expectAccessible(page, "the sign-in form with its passkey button");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByText(`Welcome, ${member.email}`)).toBeVisible();

  // Removing it asks first: "Cancel" keeps it, "OK" removes it.
  await page.goto(`${SITE}/admin/account`);
  await waitForHydration(page);
  const remove = page.getByRole("button", { name: "Remove Virtual authenticator" });
  page.once("dialog", (dialog) => void dialog.dismiss());
  await remove.click();
  await expect(page.getByText("Virtual authenticator", { exact: true })).toBeVisible();
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toContain("Remove the passkey “Virtual authenticator”?");
    void dialog.accept();
  });
  await remove.click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey “Virtual authenticator” removed." })).toBeVisible();
  await expect(page.getByText("Virtual authenticator", { exact: true })).toHaveCount(0);
});

test("an invited member joins with a passkey instead of a password, from the keyboard, and signs in with it", async ({ page }) => {
  await addVirtualAuthenticator(page);
  const email = `joiner-${randomBytes(4).toString("hex")}@example.com`;
  const link = await withSiteDb(async (db) => {
    // Invited by an owner of the site (the invitation names who sent it).
    const owner = await db.selectFrom("admin_users").select(["id", "email"]).where("role", "=", "owner").orderBy("created_at").executeTakeFirstOrThrow();
    const actor = memberActor({ adminId: owner.id, email: owner.email, role: "owner" }, "127.0.0.1");
    const invited = await inviteMember(db, { email, role: "editor" }, actor, { mail: undefined, companyName: "Test", siteUrl: SITE });
    if (!invited.ok || invited.delivery.kind !== "link") throw new Error("not invited");
    return invited.delivery.link;
  });

  await page.goto(link);
  await waitForHydration(page);
  await expectAccessible(page, "the invitation's page with its passkey button");
  const join = page.getByRole("button", { name: "Join with a passkey" });
  // Without a name it says so and puts the keyboard there.
  await tabTo(page, join);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Please type your name first." })).toBeVisible();
  await expect(page.getByLabel("Your name")).toBeFocused();
  await page.keyboard.type("Pat Keys");
  await tabTo(page, join);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/projects$/);
  await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();

  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(loginHeading(page)).toBeVisible();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
});

test("two-step sign-in is set up from the keyboard with a code computed here, and the recovery codes are shown once", async ({ page }) => {
  const member = await newMember();
  await signInAt(page, member);
  await waitForHydration(page);
  await expectAccessible(page, "the account page");

  await tabTo(page, page.getByRole("button", { name: "Set up two-step sign-in" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const key = (await page.getByTestId("totp-secret").textContent())!.replace(/\s/g, "");
  await expectAccessible(page, "the set-up with its QR code");

  const code = new TOTP({ secret: Secret.fromBase32(key), algorithm: "SHA1", digits: 6, period: 30 }).generate();
  await tabTo(page, page.getByLabel("2. The six-digit code the app shows"));
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await expect(page.getByRole("link", { name: "Download the codes as a text file" })).toHaveAttribute("download", "recovery-codes.txt");
  await expectAccessible(page, "the recovery codes");

  await page.reload();
  await expect(page.getByText(/On since .*10 of 10 recovery codes left\./)).toBeVisible();
  await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
});

test("a session is ended from another browser, and that browser is signed out at its next request", async ({ browser, page }) => {
  const member = await newMember();
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  try {
    await signInAt(otherPage, member);
    await signInAt(page, member);
    await waitForHydration(page);
    const sessions = page.getByTestId("sessions").getByRole("listitem");
    await expect(sessions).toHaveCount(2);
    await expect(sessions.filter({ hasText: "This browser" })).toHaveCount(1);
    await tabTo(page, page.getByRole("button", { name: /^Sign out .* last seen/ }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "That browser is signed out." })).toBeVisible();
    await expect(sessions).toHaveCount(1);

    await otherPage.reload();
    await expect(loginHeading(otherPage)).toBeVisible();
  } finally {
    await other.close();
  }
});
