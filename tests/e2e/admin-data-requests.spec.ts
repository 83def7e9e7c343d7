import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import type { DataExport } from "~/enquiries/data-requests.server";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { NO_MAIL } from "../support/enquiries";
import { withSiteDb } from "./admin-fixtures";
import { expectFocusIndicator, tabUntilFocused, uniqueEmail, waitForHydration } from "./fixtures";
import { signedInState } from "./signed-in";

/**
 * Data requests (UK GDPR) at /admin/data-requests. These run on the "site"
 * server of playwright.config.ts, signed in as an admin of their own
 * (SITE_ADMIN, whose session the global setup saved: signed-in.ts), not on
 * the "admin" server: the inbox tests there empty and count its enquiries,
 * and the enquiries seeded here would upset their counts (and vanish under
 * them). Every test uses addresses no other test uses.
 */
test.use({ storageState: signedInState("site") });

/** Two enquiries from the person (one caught as spam) and one from somebody else. */
async function seedPerson(label: string): Promise<{ email: string; other: string }> {
  const email = uniqueEmail(label);
  const other = uniqueEmail(`${label}-other`);
  await withSiteDb(async (db) => {
    await saveEnquiry(db, { name: "Petra Request", email, phone: "020 7946 0555", userType: "landlord", message: "Two flats in Hackney." }, NO_MAIL);
    await saveEnquiry(
      db,
      { name: "Petra R", email: email.toUpperCase(), phone: undefined, userType: "other", message: "A second note." },
      { ...NO_MAIL, verdict: { kind: "spam", signals: ["links"] } },
    );
    await saveEnquiry(db, { name: "Oscar Other", email: other, phone: undefined, userType: "tenant", message: "Not Petra's business." }, NO_MAIL);
  });
  return { email, other };
}

async function storedFor(email: string): Promise<number> {
  return withSiteDb(async (db) => {
    const rows = await db.selectFrom("contact_submissions").select("id").where("email", "in", [email, email.toUpperCase()]).execute();
    return rows.length;
  });
}

async function openDataRequests(page: Page, path = "/admin/data-requests"): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Data requests (UK GDPR)", level: 1 })).toBeVisible();
}

const emailField = (page: Page) => page.getByLabel("Email address", { exact: true });
const heldText = (email: string) => `2 submissions (1 of them spam) and 0 e-mail jobs are held for ${email}.`;
const confirmText = (email: string) => `Erase 2 submissions for ${email}, and the e-mails about them? This action cannot be undone.`;

test("finds what is held for an address, downloads it as JSON, and erases it after confirm()", async ({ page }) => {
  const { email, other } = await seedPerson("gdpr");
  await openDataRequests(page);
  await waitForHydration(page);

  const typed = `  ${email.toUpperCase()} `;
  await emailField(page).fill(typed);
  await page.getByRole("button", { name: "Find", exact: true }).click();
  const result = page.getByText(heldText(email.toUpperCase()), { exact: true });
  await expect(result).toBeVisible();
  // Focus goes to what was found, so a screen reader says it at once.
  await expect(result).toBeFocused();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download as JSON", exact: true }).click()]);
  expect(download.suggestedFilename()).toMatch(/^data-request-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile(await download.path(), "utf8");
  const file = JSON.parse(text) as DataExport;
  expect(file.submissions.map((submission) => submission.name).sort()).toEqual(["Petra R", "Petra Request"]);
  expect(file.submissions.find((submission) => submission.name === "Petra R")?.spam_reason).toBe("links");
  expect(text).not.toContain(other);
  expect(text).not.toContain("Oscar Other");

  // The browser's own dialog asks; dismissed, nothing goes.
  const dialogs: string[] = [];
  page.once("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole("button", { name: "Erase", exact: true }).click();
  await expect.poll(() => dialogs).toEqual([confirmText(email.toUpperCase())]);
  expect(await storedFor(email)).toBe(2);

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Erase", exact: true }).click();
  const erased = page.getByRole("status").filter({ hasText: `Erased 2 submissions for ${email.toUpperCase()}.` });
  await expect(erased).toBeVisible();
  await expect(page.getByText(`Nothing is held for ${email.toUpperCase()}.`, { exact: true })).toBeVisible();
  // The Erase button went with the data: focus moved to the message that says what happened.
  await expect(page.locator("[data-focus-fallback]")).toBeFocused();
  expect(await storedFor(email)).toBe(0);
  expect(await storedFor(other), "somebody else's enquiry stays").toBe(1);
});

test("works from the keyboard alone, with a visible focus ring on each control", async ({ page }) => {
  const { email } = await seedPerson("gdpr-keys");
  await openDataRequests(page);
  await waitForHydration(page);

  await tabUntilFocused(page, emailField(page));
  await expectFocusIndicator(emailField(page), "Email address");
  await page.keyboard.type(email);
  await page.keyboard.press("Enter");
  await expect(page.getByText(heldText(email), { exact: true })).toBeFocused();

  await page.keyboard.press("Tab");
  await expectFocusIndicator(page.getByRole("link", { name: "Download as JSON", exact: true }), "Download as JSON");
  await page.keyboard.press("Tab");
  await expectFocusIndicator(page.getByRole("button", { name: "Erase", exact: true }), "Erase");

  page.once("dialog", (dialog) => void dialog.accept());
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: `Erased 2 submissions for ${email}.` })).toBeVisible();
  await expect(page.locator("[data-focus-fallback]")).toBeFocused();
  expect(await storedFor(email)).toBe(0);
});

test("says clearly when the address is not valid, and changes nothing", async ({ page }) => {
  const { email } = await seedPerson("gdpr-invalid");
  await openDataRequests(page);
  await waitForHydration(page);
  await emailField(page).fill(`${email}, someone@example.com`);
  await page.getByRole("button", { name: "Find", exact: true }).click();
  const message = page.getByRole("alert").filter({ hasText: "Please enter a valid email address" });
  await expect(message).toBeFocused();
  await expect(emailField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("button", { name: "Erase", exact: true })).toHaveCount(0);
  expect(await storedFor(email)).toBe(2);
});

test.describe("on a 375 px wide phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("a long address and the result fit without sideways scrolling", async ({ page }) => {
    const { email } = await seedPerson("gdpr-a-very-long-label-for-an-address-that-keeps-going-without-spaces");
    await openDataRequests(page, `/admin/data-requests?email=${encodeURIComponent(email)}`);
    await expect(page.getByText(heldText(email), { exact: true })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, "sideways overflow in px").toBeLessThanOrEqual(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("finds, then erases only after the on-page confirmation (Cancel keeps everything)", async ({ page }) => {
    const { email, other } = await seedPerson("gdpr-nojs");
    await openDataRequests(page);
    await emailField(page).fill(email);
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await expect(page.getByText(heldText(email), { exact: true })).toBeVisible();

    await page.getByRole("button", { name: "Erase", exact: true }).click();
    const confirmation = page.getByRole("alert").filter({ hasText: confirmText(email) });
    await expect(confirmation).toBeVisible();
    expect(await storedFor(email), "nothing is erased before the confirmation").toBe(2);
    await confirmation.getByRole("link", { name: "Cancel", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect(await storedFor(email)).toBe(2);

    await page.getByRole("button", { name: "Erase", exact: true }).click();
    await page.getByRole("alert").getByRole("button", { name: "Erase", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: `Erased 2 submissions for ${email}.` })).toBeVisible();
    expect(await storedFor(email)).toBe(0);
    expect(await storedFor(other)).toBe(1);
  });
});
