import { expect, test, type Page } from "@playwright/test";
import { VALUATION_TEXT } from "~/enquiries/valuation";
import { expectAccessible } from "./axe";
import { enquiriesFrom, tabUntilFocused, uniqueEmail, waitForHydration } from "./fixtures";
import { SIGNED_OUT, signedInState } from "./signed-in";

/*
 * The landlord's valuation request (issue 22, decision 057) on the site's
 * server: found from the landing page, typed from the keyboard as a landlord
 * would, with and without JavaScript, and then in the admin inbox with its
 * details. axe-core scans the page in its states, and a 360 px wide phone
 * scrolls only downwards.
 */

test.use({ storageState: SIGNED_OUT });
// Typed at a person's pace, with the time trap waited out twice and axe-core run several times.
test.describe.configure({ timeout: 120_000 });

type Landlord = { name: string; email: string; address: string; postcode: string };

const form = (page: Page) => page.locator('form[action="/valuation"]');

/** The form's time trap wants 3 s from the page's token (issued-at rounded up to the second): wait until 3.5 s after it. */
async function waitOutTimeTrap(page: Page): Promise<void> {
  const token = await form(page).locator('input[name="formToken"]').inputValue();
  const issuedAt = Number(token.split(".")[0]) * 1000;
  await page.waitForTimeout(Math.max(0, issuedAt + 3_500 - Date.now()));
}

/**
 * From the page's top, the keyboard only: Tab to each field, type, choose a
 * select's option by typing its first letters and a radio group's with Space or the
 * arrows, then Enter on the button.
 */
async function typeRequest(page: Page, landlord: Landlord): Promise<void> {
  const scope = form(page);
  const keys = page.keyboard;
  await tabUntilFocused(page, scope.getByRole("textbox", { name: "Address of the property" }));
  await keys.type(landlord.address);
  await keys.press("Tab");
  await keys.type(landlord.postcode);
  await keys.press("Tab");
  // A select's option is chosen by typing its first letters.
  await keys.type("Terraced");
  await keys.press("Tab");
  await keys.type("3");
  await keys.press("Tab");
  // Vacant, let or not yet bought: the first is focused, the arrow moves to Let and chooses it.
  await keys.press("ArrowDown");
  await keys.press("Tab");
  // When: Space chooses the first, As soon as possible.
  await keys.press("Space");
  await keys.press("Tab");
  await keys.type(landlord.name);
  await keys.press("Tab");
  await keys.type(landlord.email);
  await keys.press("Tab");
  await keys.type("0113 496 0000");
  await keys.press("Tab");
  // Best time to call: Morning, Afternoon, Evening.
  await keys.press("ArrowDown");
  await keys.press("ArrowDown");
  await keys.press("Tab");
  await keys.type("The tenants leave at the end of March.");

  await expect(scope.getByRole("combobox", { name: "Type of property" })).toHaveValue("terraced");
  await expect(scope.getByRole("combobox", { name: "Bedrooms" })).toHaveValue("3");
  await expect(scope.getByRole("radio", { name: "Let (tenants living there)" })).toBeChecked();
  await expect(scope.getByRole("radio", { name: "As soon as possible" })).toBeChecked();
  await expect(scope.getByRole("radio", { name: "Evening (after 5pm)" })).toBeChecked();
  await expect(scope.getByRole("textbox", { name: "Phone Number" })).toHaveValue("0113 496 0000");
  await waitOutTimeTrap(page);
  await keys.press("Tab");
  await expect(scope.getByRole("button", { name: "Request my free valuation" })).toBeFocused();
  await keys.press("Enter");
}

/** The admin of the site's server finds the request in Contact Submissions, with its details. */
async function expectInInbox(page: Page, landlord: Landlord): Promise<void> {
  const admin = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin, storageState: signedInState("site"), javaScriptEnabled: true });
  const inbox = await admin.newPage();
  await inbox.goto(`/admin/enquiries?q=${encodeURIComponent(landlord.email)}`);
  const card = inbox.getByRole("article", { name: landlord.name });
  await expect(card).toBeVisible();
  await expect(card.getByText("Valuation request", { exact: true })).toBeVisible();
  // It starts in the pipeline as New.
  await expect(card.getByRole("combobox", { name: "Status" })).toHaveValue("new");
  for (const [label, value] of [
    ["Property address", landlord.address],
    ["Postcode", "LS1 6AF"],
    ["Property type", "Terraced house"],
    ["Bedrooms", "3"],
    ["Vacant, let or not yet bought", "Let (tenants living there)"],
    ["Would like it let", "As soon as possible"],
    ["Best time to call", "Evening (after 5pm)"],
  ]) {
    await expect(card.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]")).toHaveText(value!);
  }
  await expect(card).toContainText("The tenants leave at the end of March.");
  await expectAccessible(inbox, "the inbox with a valuation request");
  await admin.close();
}

function landlord(label: string): Landlord {
  return { name: `Valuation ${label}`, email: uniqueEmail(`valuation-${label}`), address: "14 Albion Street, Leeds", postcode: "ls16af" };
}

test("the hero and the pricing section link to the valuation page", async ({ page }) => {
  await page.goto("/");
  const links = page.locator('a[href="/valuation"]');
  await expect(links).toHaveCount(2);
  await expect(page.locator("#home").getByRole("link", { name: "Request a free rental valuation" })).toBeVisible();
  await expect(page.locator("#pricing").getByRole("link", { name: "Request a free rental valuation" })).toBeVisible();
  await page.locator("#home").getByRole("link", { name: "Request a free rental valuation" }).click();
  await expect(page).toHaveURL(/\/valuation$/);
  await expect(page.getByRole("heading", { level: 1, name: "Request a free rental valuation" })).toBeVisible();
});

test.describe("with JavaScript", () => {
  test("a landlord types the request from the keyboard; a bad postcode gets the form's message first; it reaches the inbox", async ({ page }) => {
    const person = landlord("script");
    await page.goto("/valuation");
    await waitForHydration(page);
    await expectAccessible(page, "/valuation");

    await typeRequest(page, { ...person, postcode: "LS99 ZZZ1" });
    const error = page.getByText(VALUATION_TEXT.postcode, { exact: true });
    await expect(error).toBeVisible();
    const postcode = form(page).getByRole("textbox", { name: "Postcode" });
    await expect(postcode).toBeFocused();
    await expect(postcode).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, "/valuation with a bad postcode");
    expect(enquiriesFrom(person.email)).toEqual([]);

    await postcode.fill("");
    await page.keyboard.type(person.postcode);
    await waitOutTimeTrap(page);
    await page.keyboard.press("Enter");
    await expect(page.getByText(VALUATION_TEXT.success, { exact: true })).toBeVisible();
    // Focus moves to the answer, for a screen reader to read it.
    await expect(page.locator(":focus")).toHaveText(VALUATION_TEXT.success);
    // A fresh form for the next request.
    await expect(form(page).getByRole("textbox", { name: "Address of the property" })).toHaveValue("");
    await expectAccessible(page, "/valuation after sending");
    expect(enquiriesFrom(person.email)).toHaveLength(1);
    await expectInInbox(page, person);
  });

  test("at 360 px wide the page scrolls only downwards", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto("/valuation");
    await waitForHydration(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expect(form(page).getByRole("button", { name: "Request my free valuation" })).toBeVisible();
    await expectAccessible(page, "/valuation at 360 px");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a bad postcode comes back with the form's message and what was typed; the corrected request reaches the inbox", async ({ page }) => {
    const person = landlord("no-script");
    await page.goto("/valuation");
    await typeRequest(page, { ...person, postcode: "12345" });
    await expect(page.getByText(VALUATION_TEXT.postcode, { exact: true })).toBeVisible();
    const postcode = form(page).getByRole("textbox", { name: "Postcode" });
    await expect(postcode).toHaveAttribute("aria-invalid", "true");
    await expect(form(page).getByRole("textbox", { name: "Address of the property" })).toHaveValue(person.address);
    await expect(form(page).getByRole("radio", { name: "Evening (after 5pm)" })).toBeChecked();
    // axe-core runs in the page, which has no JavaScript here: the server's refusal is scanned as it came, in a page that has.
    const refusal = await page.content();
    const scanner = await page.context().browser()!.newContext({ javaScriptEnabled: true });
    const scanned = await scanner.newPage();
    await scanned.setContent(refusal);
    await expect(scanned.getByText(VALUATION_TEXT.postcode, { exact: true })).toBeVisible();
    await expectAccessible(scanned, "/valuation refused without JavaScript");
    await scanner.close();
    expect(enquiriesFrom(person.email)).toEqual([]);

    await postcode.fill(person.postcode);
    await waitOutTimeTrap(page);
    await form(page).getByRole("button", { name: "Request my free valuation" }).press("Enter");
    await expect(page.getByText(VALUATION_TEXT.success, { exact: true })).toBeVisible();
    expect(enquiriesFrom(person.email)).toHaveLength(1);
    await expectInInbox(page, person);
  });
});
