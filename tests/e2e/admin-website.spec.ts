import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { png } from "./admin-projects-fixtures";
import { tabUntilFocused, waitForHydration } from "./fixtures";
import { SIGNED_OUT, signedInState } from "./signed-in";
import { minimalPdf } from "../support/documents";

/**
 * The Website tab (issue 15) on the "website" server of playwright.config.ts:
 * what these tests publish is live on that server's / only, so no other
 * test's landing page changes under it. They run in order: each starts from
 * what the one before published. Each starts signed in (that server's saved
 * session: signed-in.ts); the visitors they open are signed out.
 */
const WEBSITE_URL = process.env.E2E_WEBSITE_URL!;
test.describe.configure({ mode: "serial" });
test.setTimeout(90_000);
test.use({ storageState: signedInState("website") });

async function openWebsiteTab(page: Page): Promise<void> {
  await page.goto(`${WEBSITE_URL}/admin/website`);
  await expect(page.getByRole("heading", { name: "Website", level: 2 })).toBeVisible();
  await waitForHydration(page);
}

type Section = "Company" | "Hero" | "Services" | "Renovations" | "Pricing" | "About" | "Contact" | "Business hours" | "Fees" | "Legal details" | "Policies";
const SECTIONS: Section[] = [
  "Company",
  "Hero",
  "Services",
  "Renovations",
  "Pricing",
  "About",
  "Contact",
  "Business hours",
  "Fees",
  "Legal details",
  "Policies",
];

async function saveSection(page: Page, section: Section, fill: Record<string, string>): Promise<void> {
  await page.getByRole("tab", { name: section, exact: true }).click();
  await expect(page.getByRole("heading", { name: section, level: 3 })).toBeVisible();
  for (const [label, value] of Object.entries(fill)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toHaveText(`${section} saved to the draft. Preview it, or publish to make it live.`);
}

/** `only`: the parts to scan, "#a + #b" (else the whole page). */
async function expectNoAxeViolations(page: Page, where: string, only?: string): Promise<void> {
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]);
  for (const selector of only?.split(" + ") ?? []) builder.include(selector);
  const { violations } = await builder.analyze();
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    `axe-core violations on ${where}`,
  ).toEqual([]);
}

test("edits every section; the preview shows the draft while / stays live; publish makes it live; an old version is restored", async ({ page, browser }) => {
  await openWebsiteTab(page);
  await saveSection(page, "Company", { "Company name *": "Thames Valley Lettings", "Phone *": "0118 496 0000" });
  await saveSection(page, "Hero", { "Headline *": "Lettings Done Properly", "Promise 1 *": "Prices Include VAT" });
  await saveSection(page, "Pricing", { "Plan 1 price (£) *": "85", "Section title *": "Clear Fees, Every Month" });
  await saveSection(page, "About", { "Quote in the blue panel *": "Every home, looked after like our own." });
  await saveSection(page, "Contact", { "Section title *": "Talk To Us" });
  await saveSection(page, "Business hours", { "Phone line hours *": "Phone line open 8am – 8pm, every day" });
  await expect(page.getByText(/^Unpublished changes, last saved .* by admin@example\.com\.$/)).toBeVisible();

  // The preview, in a tab of its own, shows the draft…
  const [preview] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: /Preview draft/ }).click()]);
  await expect(preview.getByRole("heading", { name: "Lettings Done Properly", level: 1 })).toBeVisible();
  await expect(preview.getByText("Preview: this is how the site will look. Visitors do not see it until it is published.")).toBeVisible();
  await expect(preview.getByText("£85", { exact: true })).toBeVisible();
  await expect(preview.getByText("Prices Include VAT")).toBeVisible();
  await expect(preview.getByText("Every home, looked after like our own.")).toBeVisible();
  await expect(preview.getByText("Phone line open 8am – 8pm, every day")).toBeVisible();
  await preview.close();

  // …while a visitor still sees the live site.
  const visitorContext = await browser.newContext({ storageState: SIGNED_OUT });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${WEBSITE_URL}/`);
  await expect(visitor.getByRole("heading", { name: "Professional Property Management Services", level: 1 })).toBeVisible();
  await expect(visitor.getByText("£80", { exact: true })).toBeVisible();

  page.on("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Published. Version 1 is live now.");
  await expect(page.getByText("The draft is the same as the live site.")).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole("heading", { name: "Lettings Done Properly", level: 1 })).toBeVisible();
  await expect(visitor.getByText("£85", { exact: true })).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "Clear Fees, Every Month" })).toBeVisible();
  await expect(visitor).toHaveTitle("Thames Valley Lettings | Professional Property Management Services");

  // A second publish, then the first one back.
  await saveSection(page, "Hero", { "Headline *": "A Headline We Regret" });
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Published. Version 2 is live now.");
  await visitor.reload();
  await expect(visitor.getByRole("heading", { name: "A Headline We Regret", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Restore Version 1" }).click();
  await expect(page.getByRole("status")).toHaveText("Version 1 restored: it is live now as version 3.");
  await expect(page.getByText("restored from version 1")).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole("heading", { name: "Lettings Done Properly", level: 1 })).toBeVisible();
  await visitorContext.close();
});

test("a field left empty is refused with its own message and nothing changes; discard goes back to what is live", async ({ page }) => {
  await openWebsiteTab(page);
  await page.getByRole("tab", { name: "Company", exact: true }).click();
  await page.getByLabel("Company name *", { exact: true }).fill("");
  await page.getByLabel("Email *", { exact: true }).fill("not-an-address");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please correct the highlighted fields. Nothing was saved.");
  const name = page.getByLabel("Company name *", { exact: true });
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("Please fill in company name.");
  await expect(page.getByLabel("Email *", { exact: true })).toHaveAccessibleDescription("Please enter a valid email address");
  await expect(page.getByText("The draft is the same as the live site.")).toBeVisible();

  // What was typed stays in the form to be corrected.
  await expect(page.getByLabel("Email *", { exact: true })).toHaveValue("not-an-address");
  await saveSection(page, "Company", { "Company name *": "Draft We Throw Away", "Email *": "hello@example.com" });
  page.on("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Discard draft" }).click();
  await expect(page.getByRole("status")).toHaveText("The draft is back to what is live.");
  await expect(page.getByLabel("Company name *", { exact: true })).toHaveValue("Thames Valley Lettings");
});

test("keyboard only: edit a field, save and publish; axe finds nothing on any section", async ({ page }) => {
  // Eleven axe scans, some of long forms: minutes on a busy machine.
  test.setTimeout(300_000);
  await openWebsiteTab(page);
  for (const [index, section] of SECTIONS.entries()) {
    await page.getByRole("tab", { name: section, exact: true }).click();
    await expect(page.getByRole("heading", { name: section, level: 3 })).toBeVisible();
    // The page around the section's form is the same for every section: scanned whole once.
    await expectNoAxeViolations(page, `the Website tab, ${section}`, index === 0 ? undefined : "#website-section-panel");
  }
  await page.getByRole("tab", { name: "Hero", exact: true }).click();
  const headline = page.getByLabel("Headline *", { exact: true });
  await tabUntilFocused(page, headline);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Typed Without A Mouse");
  await tabUntilFocused(page, page.getByRole("button", { name: "Save draft" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Hero saved to the draft. Preview it, or publish to make it live.");
  page.on("dialog", (dialog) => void dialog.accept());
  await page.keyboard.press("Shift+Tab");
  await tabUntilFocused(page, page.getByRole("button", { name: "Publish", exact: true }), "Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText(/^Published\. Version \d+ is live now\.$/);
});

test("fees, legal details and a policy: edited in the tab, published, and on /fees, /privacy and the footer; axe finds nothing there", async ({
  page,
  browser,
}) => {
  await openWebsiteTab(page);
  await page.getByRole("tab", { name: "Fees", exact: true }).click();
  await page.getByLabel("We are not VAT registered, so no VAT is added to our prices.").check();
  await page.getByLabel("Landlord fee 1: name", { exact: true }).fill("Tenant find");
  await page.getByLabel("Landlord fee 1: amount including VAT (£)", { exact: true }).fill("480");
  await page.getByLabel("Landlord fee 1: what it covers", { exact: true }).fill("Advertising and viewings for a new tenant.");
  await page.getByLabel("Landlord fee 1: how it is calculated", { exact: true }).fill("Once, when a tenancy starts.");
  await page.getByLabel("Tenant fee 1: name", { exact: true }).fill("Inventory fee");
  await expect(page.getByText(/^Check this fee:/)).toHaveCount(0);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please correct the highlighted fields. Nothing was saved.");
  // Typed, then saved: the warning comes with the saved page.
  await page.getByLabel("Tenant fee 1: amount including VAT (£)", { exact: true }).fill("25");
  await page.getByLabel("Tenant fee 1: what it covers", { exact: true }).fill("A check of the inventory at the end.");
  await page.getByLabel("Tenant fee 1: how it is calculated", { exact: true }).fill("Once.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toHaveText("Fees saved to the draft. Preview it, or publish to make it live.");
  await expect(page.getByText(/^Check this fee: This looks like a fee the Tenant Fees Act 2019 bans/)).toBeVisible();
  await page.getByLabel("Remove this fee").nth(1).check();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toHaveText("Fees saved to the draft. Preview it, or publish to make it live.");
  await expect(page.getByText(/^Check this fee:/)).toHaveCount(0);

  await saveSection(page, "Legal details", {
    "Redress scheme": "The Property Ombudsman",
    "Redress scheme membership number": "D01234",
    "Company number": "01234567",
  });
  await page.getByRole("tab", { name: "Policies", exact: true }).click();
  await page.getByRole("button", { name: "Start the Privacy Policy from a template" }).click();
  await expect(page.getByRole("status")).toHaveText("Policies saved to the draft. Preview it, or publish to make it live.");
  await expect(page.getByLabel("Privacy Policy", { exact: true })).toHaveValue(/^> \*\*Template: review before publishing\.\*\*/);
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(/^Published\. Version \d+ is live now\.$/);

  const visitorContext = await browser.newContext({ storageState: SIGNED_OUT });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${WEBSITE_URL}/`);
  await expect(visitor.getByText("We are not VAT registered, so no VAT is added to our prices.")).toBeVisible();
  await visitor.getByRole("link", { name: "See all our fees" }).click();
  await expect(visitor).toHaveURL(`${WEBSITE_URL}/fees`);
  await expect(visitor.getByRole("heading", { name: "Our fees", level: 1 })).toBeVisible();
  await expect(visitor.getByRole("row", { name: /Tenant find £480 Per property/ })).toBeVisible();
  await expect(visitor.getByText("Fees to tenants")).toHaveCount(0);
  await expect(visitor.getByText("Member of The Property Ombudsman (membership number D01234).")).toBeVisible();
  await expectNoAxeViolations(visitor, "/fees");
  await visitor.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(visitor).toHaveURL(`${WEBSITE_URL}/privacy`);
  await expect(visitor.getByRole("heading", { name: "Who we are", level: 2 })).toBeVisible();
  await expectNoAxeViolations(visitor, "/privacy");
  // Terms of Service is not written: still the specification's placeholder.
  await expect(visitor.getByRole("contentinfo").getByRole("link", { name: "Terms of Service" })).toHaveCount(0);
  await visitorContext.close();
});

/** Keyboard only: Tab to the file input, Space opens the picker, the file is chosen there. */
async function chooseFileByKeyboard(page: Page, label: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await tabUntilFocused(page, page.getByLabel(label, { exact: true }));
  const chooser = page.waitForEvent("filechooser");
  await page.keyboard.press("Space");
  await (await chooser).setFiles(file);
}

test("keyboard only: upload a logo and a certificate, publish; the header shows the logo and /fees links the certificate", async ({ page, browser }) => {
  // Two uploads through the image pipeline, a refusal, a publish and two axe scans.
  test.slow();
  await openWebsiteTab(page);
  await tabUntilFocused(page, page.getByRole("tab", { name: "Company", exact: true }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Company", level: 3 })).toBeVisible();
  await chooseFileByKeyboard(page, "Upload the logo", { name: "logo.png", mimeType: "image/png", buffer: await png(200, 200, "#1d4ed8") });
  await tabUntilFocused(page, page.getByRole("button", { name: "Save draft" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Company saved to the draft. Preview it, or publish to make it live.");
  await expect(page.getByRole("img", { name: "The current logo" })).toBeVisible();

  // A page of HTML named .pdf is refused by its content, with the reason, and nothing is saved.
  // The section tabs are one stop: back to the selected one, then End and ArrowLeft to Legal details.
  await tabUntilFocused(page, page.getByRole("tab", { name: "Company", exact: true }), "Shift+Tab");
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Legal details", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Legal details", level: 3 })).toBeVisible();
  await chooseFileByKeyboard(page, "Upload the client money protection certificate", {
    name: "certificate.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("<html><script>alert(1)</script></html>"),
  });
  await tabUntilFocused(page, page.getByRole("button", { name: "Save draft" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert")).toHaveText("Please correct the highlighted fields. Nothing was saved.");
  await expect(page.getByLabel("Upload the client money protection certificate", { exact: true })).toHaveAccessibleDescription(
    /Please upload a valid image file/,
  );

  await tabUntilFocused(page, page.getByLabel("Client money protection scheme", { exact: true }), "Shift+Tab");
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Propertymark Client Money Protection");
  await chooseFileByKeyboard(page, "Upload the client money protection certificate", {
    name: "certificate.pdf",
    mimeType: "application/pdf",
    buffer: minimalPdf(),
  });
  await tabUntilFocused(page, page.getByRole("button", { name: "Save draft" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Legal details saved to the draft. Preview it, or publish to make it live.");
  await expect(page.getByRole("link", { name: "Open the current client money protection certificate (PDF)" })).toBeVisible();
  await expectNoAxeViolations(page, "the Website tab, Legal details with a certificate");

  page.on("dialog", (dialog) => void dialog.accept());
  // Up past the section's fields to its tab, then on up to Publish.
  await tabUntilFocused(page, page.getByRole("tab", { name: "Legal details", exact: true }), "Shift+Tab");
  await tabUntilFocused(page, page.getByRole("button", { name: "Publish", exact: true }), "Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText(/^Published\. Version \d+ is live now\.$/);

  const visitorContext = await browser.newContext({ storageState: SIGNED_OUT });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${WEBSITE_URL}/fees`);
  // Beside the company's name in the header, the logo is decoration (alt="").
  const logo = visitor.getByRole("banner").locator("img");
  await expect(logo).toHaveAttribute("src", /^\/images\/\d{13}-[a-z0-9]{12}\.png$/);
  expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth), "the uploaded logo loads").toBeGreaterThan(0);
  await expect(visitor.getByRole("contentinfo").getByRole("link", { name: "Our client money protection certificate (PDF)" })).toBeVisible();
  const certificate = visitor.getByRole("main").getByRole("link", { name: "Our client money protection certificate (PDF)" });
  await expect(certificate).toHaveAttribute("href", /^\/images\/\d{13}-[a-z0-9]{12}\.pdf$/);
  const served = await visitor.request.get(`${WEBSITE_URL}${await certificate.getAttribute("href")}`);
  expect(served.headers()["content-type"]).toBe("application/pdf");
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  expect(
    Buffer.from(await served.body())
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");
  await expectNoAxeViolations(visitor, "/fees with the certificate");
  await visitorContext.close();
});

test("services, renovation cards and business hours: edited, added, removed and reordered; the preview shows the draft while / stays live; publish", async ({
  page,
  browser,
}) => {
  // Eight saves, a preview, a publish and a scan: longer than most on a busy machine.
  test.setTimeout(180_000);
  await openWebsiteTab(page);
  await page.getByRole("tab", { name: "Services", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Services", level: 3 })).toBeVisible();
  // A half-filled service is refused with its own message; what was typed stays.
  await page.getByLabel("Group 1, service 1: title", { exact: true }).fill("Rent Collected On Time");
  await page.getByLabel("Group 1, service 1: description", { exact: true }).fill("");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please correct the highlighted fields. Nothing was saved.");
  await expect(page.getByLabel("Group 1, service 1: title", { exact: true })).toHaveAccessibleDescription(
    "Please give the service a title and a description, or tick Remove.",
  );
  await expect(page.getByLabel("Group 1, service 1: title", { exact: true })).toHaveValue("Rent Collected On Time");

  await page.getByLabel("Group 1, service 1: description", { exact: true }).fill("Rent in your account on the day it is due, every month.");
  await page.getByLabel("New service in group 2: title", { exact: true }).fill("Energy Performance Advice");
  await page.getByLabel("New service in group 2: description", { exact: true }).fill("What to improve before the EPC rules change.");
  await page.getByLabel("New service in group 2: icon", { exact: true }).selectOption({ label: "Sparkles" });
  await page.getByLabel("Remove Group 2, service 2").check();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toHaveText("Services saved to the draft. Preview it, or publish to make it live.");
  await expect(page.getByLabel("Group 2, service 3: title", { exact: true })).toHaveValue("Energy Performance Advice");
  await expect(page.getByLabel("Group 2, service 3: icon", { exact: true })).toHaveValue("sparkles");

  // Reordered from the keyboard: the Move button saves, and focus stays on it in the service's new place.
  await tabUntilFocused(page, page.getByRole("button", { name: "Move up (Group 1, service 3)" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Services saved to the draft. Preview it, or publish to make it live.");
  await expect(page.getByRole("button", { name: "Move up (Group 1, service 2)" })).toBeFocused();
  const titles = (group: number, count: number) =>
    Array.from({ length: count }, (_, index) => page.getByLabel(`Group ${group}, service ${index + 1}: title`, { exact: true }));
  expect(await Promise.all(titles(1, 3).map((field) => field.inputValue()))).toEqual([
    "Rent Collected On Time",
    "Tenant-Landlord Relations",
    "Property Maintenance & Repairs",
  ]);

  await saveSection(page, "Renovations", { "Card 2: title *": "Interiors That Let", "Introduction *": "Homes we have turned around." });

  await page.getByRole("tab", { name: "Business hours", exact: true }).click();
  await page.getByRole("group", { name: "Saturday" }).getByLabel("Open", { exact: true }).uncheck();
  await page.getByRole("group", { name: "Monday" }).getByLabel("Closes").fill("17:30");
  await page.getByRole("group", { name: "Sunday" }).getByLabel("Open", { exact: true }).check();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please correct the highlighted fields. Nothing was saved.");
  await expect(page.getByRole("group", { name: "Sunday" }).getByLabel("Opens")).toHaveAccessibleDescription(
    "Please give Sunday's opening and closing times, or untick Open.",
  );
  await page.getByRole("group", { name: "Sunday" }).getByLabel("Open", { exact: true }).uncheck();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toHaveText("Business hours saved to the draft. Preview it, or publish to make it live.");

  const newServices = [
    "Rent Collected On Time",
    "Tenant-Landlord Relations",
    "Property Maintenance & Repairs",
    "Legal Compliance & Documentation",
    "24/7 Emergency Response",
    "Energy Performance Advice",
  ];
  const newHours = ["Monday9:00 – 17:30", "Tuesday – Friday9:00 – 18:00", "Saturday – SundayClosed"];
  const [preview] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: /Preview draft/ }).click()]);
  await expect(preview.locator("#services h4")).toHaveText(newServices);
  await expect(preview.locator("#renovations").getByRole("heading", { name: "Interiors That Let", level: 3 })).toBeVisible();
  await expect(preview.getByText("Homes we have turned around.")).toBeVisible();
  await expect(preview.locator("#contact dl > div")).toHaveText(newHours);
  await preview.close();

  const visitorContext = await browser.newContext({ storageState: SIGNED_OUT });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${WEBSITE_URL}/`);
  await expect(visitor.locator("#services h4")).toHaveText([
    "Rent Collection & Financial Management",
    "Property Maintenance & Repairs",
    "Tenant-Landlord Relations",
    "Legal Compliance & Documentation",
    "Property Insurance Coordination",
    "24/7 Emergency Response",
  ]);
  await expect(visitor.locator("#contact dl > div")).toHaveText(["Monday – Friday9:00 – 18:00", "Saturday10:00 – 16:00", "SundayClosed"]);

  page.on("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(/^Published\. Version \d+ is live now\.$/);
  await visitor.reload();
  await expect(visitor.locator("#services h4")).toHaveText(newServices);
  await expect(visitor.locator("#renovations").getByRole("heading", { name: "Interiors That Let", level: 3 })).toBeVisible();
  await expect(visitor.locator("#contact dl > div")).toHaveText(newHours);
  // The whole landing page is scanned by accessibility.spec.ts: here the parts these edits drew.
  await expectNoAxeViolations(visitor, "/ with edited services and hours", "#services + #renovations + #contact");
  await visitorContext.close();
});

test.describe("on a 375 px wide phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the Website tab's sections and /fees fit without sideways scrolling, and axe finds nothing on /fees", async ({ page }) => {
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await openWebsiteTab(page);
    for (const section of ["Company", "Services", "Pricing", "Business hours", "Fees", "Policies"] as const) {
      await page.getByRole("tab", { name: section, exact: true }).click();
      await expect(page.getByRole("heading", { name: section, level: 3 })).toBeVisible();
      expect(await overflow(), `${section}: sideways overflow in px`).toBeLessThanOrEqual(0);
    }
    await page.goto(`${WEBSITE_URL}/fees`);
    await expect(page.getByRole("heading", { name: "Our fees", level: 1 })).toBeVisible();
    expect(await overflow(), "/fees: sideways overflow in px").toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "/fees at 375 px");
  });
});
