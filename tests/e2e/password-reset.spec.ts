import { expect, test } from "@playwright/test";
import { memberWithResetLink } from "../support/reset-links";
import { withSiteDb } from "./admin-fixtures";
import { expectAccessible } from "./axe";
import { tabUntilFocused, uniqueEmail } from "./fixtures";
import { SIGNED_OUT } from "./signed-in";

/**
 * "Forgot your password?" in a browser (issue 21, decision 051): reached from
 * the sign-in form by keyboard; on these servers e-mail is off, so the answer
 * says who can help (the e-mail itself is password-reset-http.test.ts's, with
 * a real SMTP server). The link's page, made as the outbox worker makes it,
 * sets a new password without JavaScript, and the sign-in then takes it.
 */
test.use({ storageState: SIGNED_OUT, contextOptions: { reducedMotion: "reduce" } });

const NEW_PASSWORD = "a brand new password from the browser";

test("Forgot your password? from the sign-in form by keyboard; without e-mail it says who can help; the link's page; axe finds nothing", async ({ page }) => {
  await page.goto("/admin/sign-in");
  await tabUntilFocused(page, page.getByRole("link", { name: "Forgot your password?" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Forgot your password?", level: 1 })).toBeVisible();
  await expectAccessible(page, "/admin/forgot-password");
  await tabUntilFocused(page, page.getByLabel("Email", { exact: true }));
  await page.keyboard.type("someone@example.com");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert")).toContainText("This site cannot send e-mail");
  await expectAccessible(page, "the answer without e-mail");

  const token = await withSiteDb((db) => memberWithResetLink(db, uniqueEmail("reset-axe")));
  await page.goto(`/admin/reset-password?token=${token}`);
  await expect(page.getByRole("heading", { name: "Set a new password", level: 1 })).toBeVisible();
  await expectAccessible(page, "/admin/reset-password");
  await page.goto(`/admin/reset-password?token=${"A".repeat(43)}`);
  await expect(page.getByRole("alert")).toContainText("This link does not work.");
  await expectAccessible(page, "a made-up link");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the link's page sets a new password; the sign-in says so and takes it", async ({ page }) => {
    const email = uniqueEmail("resetter");
    const token = await withSiteDb((db) => memberWithResetLink(db, email));
    await page.goto(`/admin/reset-password?token=${token}`);
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Repeat the new password", { exact: true }).fill(`${NEW_PASSWORD}!`);
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expect(page.getByRole("alert")).toHaveText("The two passwords are not the same.");
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Repeat the new password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expect(page).toHaveURL(/\/admin\/sign-in\?reset=done$/);
    await expect(page.getByRole("status")).toContainText("Your new password is set");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
  });
});
