import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { REPLY_TEXT } from "~/admin/ReplyPage";
import { INBOX_TEXT } from "~/admin/texts";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { openDatabase } from "~/platform/db/db.server";
import { TEST_ADMIN, TEST_ADMIN_ENV } from "../support/admin-http";
import { startServer, type SpawnedServer } from "../support/server";
import { parseMessage, startSmtpServer, testCertificate, type TestSmtpServer } from "../support/smtp";
import { expectAccessible } from "./axe";
import { loginHeading, submitSignIn } from "./admin-fixtures";
import { tabUntilFocused, waitForHydration } from "./fixtures";

/**
 * Replying from the dashboard (issue 22, decision 059), on a server of its own
 * that sends through a real SMTP server started here: from the card's Reply,
 * a template is chosen, the reply sent from the keyboard, and the message
 * received carries the threading headers; with JavaScript and without, axe
 * finding nothing, at 360 px wide.
 */
const MAIL_FROM = "Example Lettings <site@mail.example.com>";

let smtp: TestSmtpServer;
let server: SpawnedServer;
let dataDir: string;

test.describe.configure({ mode: "serial" });
test.setTimeout(90_000);

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "property-e2e-replies-"));
  smtp = await startSmtpServer(undefined, { tls: true });
  server = await startServer({
    ...TEST_ADMIN_ENV,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    SMTP_URL: smtp.url,
    MAIL_FROM,
    CONTACT_NOTIFY_TO: "office@example.com",
    NODE_EXTRA_CA_CERTS: testCertificate().certFile,
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test.use({ contextOptions: { reducedMotion: "reduce" }, viewport: { width: 360, height: 800 } });

/** An enquiry stored as the contact form stores it, its notification queued with it; its id and the notification job's. */
async function seedEnquiry(name: string, email: string): Promise<{ id: string; notificationId: string }> {
  const database = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    const { id } = await saveEnquiry(
      database.db,
      { name, email, phone: undefined, userType: "landlord", message: "A three-bedroom house in Leeds to let from March." },
      { mail: { from: MAIL_FROM, notifyTo: ["office@example.com"] }, company: PLACEHOLDER_COMPANY },
    );
    const job = await database.db
      .selectFrom("email_outbox")
      .select("id")
      .where("submission_id", "=", id)
      .where("kind", "=", "notification")
      .executeTakeFirstOrThrow();
    return { id, notificationId: job.id };
  } finally {
    await database.close();
  }
}

async function signIn(page: Page, javaScriptEnabled: boolean) {
  await page.goto(`${server.url}/admin/enquiries`);
  await expect(loginHeading(page)).toBeVisible();
  if (javaScriptEnabled) await waitForHydration(page);
  await submitSignIn(page, TEST_ADMIN);
  await expect(page.getByRole("heading", { name: "Contact Submissions" })).toBeVisible();
}

async function expectNoSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

for (const javaScriptEnabled of [true, false]) {
  const how = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test.describe(how, () => {
    test.use({ javaScriptEnabled });

    test(`replies from a template, from the keyboard, through a real SMTP server, threaded (${how})`, async ({ page }) => {
      const name = javaScriptEnabled ? "Lena Scripted" : "Lena Plain";
      const email = javaScriptEnabled ? "lena.scripted@example.com" : "lena.plain@example.com";
      const { id, notificationId } = await seedEnquiry(name, email);
      await signIn(page, javaScriptEnabled);

      const enquiry = page.locator(`#enquiry-${id}`);
      // The specification's mailto link stays, and Reply is beside it.
      await expect(enquiry.getByRole("link", { name: INBOX_TEXT.reply })).toHaveAttribute("href", new RegExp(`^mailto:${email.replace(/\./g, "\\.")}`));
      const reply = enquiry.getByRole("link", { name: INBOX_TEXT.replyHere, exact: true });
      await tabUntilFocused(page, reply);
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { name: REPLY_TEXT.title(name) })).toBeVisible();
      if (javaScriptEnabled) await waitForHydration(page);
      await expectNoSideScroll(page);
      if (javaScriptEnabled) await expectAccessible(page, "the reply composer");

      // The first template, filled: the visitor's first name, the company.
      const body = page.getByLabel(REPLY_TEXT.body);
      await expect(body).toHaveValue(new RegExp(`^Hello ${name.split(" ")[0]},`));
      await expect(page.getByLabel(REPLY_TEXT.subject)).toHaveValue(`Re: Your enquiry to ${PLACEHOLDER_COMPANY.name}`);

      // Another template, chosen from the keyboard.
      const template = page.getByLabel(REPLY_TEXT.template);
      await template.focus();
      await template.selectOption({ label: "Offer a valuation visit" });
      const use = page.getByRole("button", { name: REPLY_TEXT.useTemplate });
      await tabUntilFocused(page, use);
      await page.keyboard.press("Enter");
      await expect(page.getByLabel(REPLY_TEXT.subject)).toHaveValue(`Re: A free rental valuation from ${PLACEHOLDER_COMPANY.name}`);
      await expect(body).toHaveValue(/free rental valuation/);

      await body.focus();
      await page.keyboard.press("End");
      await body.press("Control+End");
      await page.keyboard.type("\nP.S. Tuesday at ten suits us.");
      const send = page.getByRole("button", { name: REPLY_TEXT.send });
      await tabUntilFocused(page, send);
      await page.keyboard.press("Enter");
      await expect(page.getByText(REPLY_TEXT.sent(email))).toBeVisible();
      if (javaScriptEnabled) await expectAccessible(page, "the reply sent");

      await expect.poll(() => smtp.messages.some((message) => message.envelopeTo.includes(email)), { timeout: 30_000 }).toBe(true);
      const message = await parseMessage(smtp.messages.find((received) => received.envelopeTo.includes(email))!);
      expect(message.subject).toBe(`Re: A free rental valuation from ${PLACEHOLDER_COMPANY.name}`);
      expect(message.text).toContain("P.S. Tuesday at ten suits us.");
      expect(message.inReplyTo).toBe(`<${notificationId}@mail.example.com>`);
      expect(message.header("references")).toEqual([`<${notificationId}@mail.example.com>`]);
      expect(message.replyTo?.map((address) => address.address)).toEqual(["office@example.com"]);

      // On the card: the reply with its delivery state, and the enquiry Contacted.
      await page.getByRole("link", { name: REPLY_TEXT.back }).first().click();
      await expect(enquiry.getByRole("heading", { name: INBOX_TEXT.replies(1) })).toBeVisible();
      await expect(enquiry.getByLabel(INBOX_TEXT.status.label)).toHaveValue("contacted");
      await expect(async () => {
        await page.reload();
        await expect(enquiry.getByText(REPLY_TEXT.delivery.sent, { exact: true })).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
      await expectNoSideScroll(page);
      if (javaScriptEnabled) await expectAccessible(page, "the card with its reply", `#enquiry-${id}`);
    });
  });
}

test("an owner edits the templates, reasons and acknowledgement on a page axe finds nothing on", async ({ page }) => {
  await signIn(page, true);
  await page.getByRole("link", { name: INBOX_TEXT.replySettings }).click();
  await expect(page.getByRole("heading", { name: "Replies and reasons" })).toBeVisible();
  await waitForHydration(page);
  await expectNoSideScroll(page);
  await expectAccessible(page, "the enquiries' settings");
  await page.getByRole("textbox", { name: "Reasons for Not proceeding" }).fill("Chose another agent\nWants to sell instead");
  const on = page.getByRole("checkbox", { name: "Send it" });
  await on.focus();
  await page.keyboard.press("Space");
  await expect(on).toBeChecked();
  const save = page.getByRole("button", { name: "Save settings" });
  await tabUntilFocused(page, save);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Send it" })).toBeChecked();
});

/** The notification job of the enquiry from this address: the reply threads under its Message-ID. */
async function notificationOf(email: string): Promise<string> {
  const database = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    const row = await database.db
      .selectFrom("email_outbox as o")
      .innerJoin("contact_submissions as s", "s.id", "o.submission_id")
      .select("o.id")
      .where("s.email", "=", email)
      .where("o.kind", "=", "notification")
      .executeTakeFirstOrThrow();
    return row.id;
  } finally {
    await database.close();
  }
}

test("the journey of issue 22: a landlord's valuation request found in the inbox, assigned, noted, replied to from a template, Instructed, counted", async ({
  page,
  browser,
}) => {
  // The landlord, on the public page, in a browser of their own.
  const visitor = await browser.newContext({ baseURL: server.url, viewport: { width: 360, height: 800 } });
  const landlord = await visitor.newPage();
  await landlord.goto("/valuation");
  await waitForHydration(landlord);
  const form = landlord.locator('form[action="/valuation"]');
  await form.getByRole("textbox", { name: "Address of the property" }).fill("14 Albion Street, Leeds");
  await form.getByRole("textbox", { name: "Postcode" }).fill("ls1 6af");
  await form.getByRole("combobox", { name: "Type of property" }).selectOption("terraced");
  await form.getByRole("combobox", { name: "Bedrooms" }).selectOption("3");
  await form.getByRole("radio", { name: "Let (tenants living there)" }).check();
  await form.getByRole("radio", { name: "As soon as possible" }).check();
  await form.getByRole("textbox", { name: /name/i }).last().fill("Vera Valuation");
  await form.getByRole("textbox", { name: /e-?mail/i }).fill("vera.valuation@example.com");
  await form.getByRole("textbox", { name: "Phone Number" }).fill("0113 496 0000");
  await form.getByRole("radio", { name: "Evening (after 5pm)" }).check();
  // The form's time trap: a person takes more than 3 seconds.
  await landlord.waitForTimeout(3_500);
  await form.getByRole("button", { name: "Request my free valuation" }).click();
  await expect(landlord.getByText("Thank you! We have your valuation request", { exact: false })).toBeVisible();
  await visitor.close();

  // The team: found in the inbox as a Valuation request, New.
  await signIn(page, true);
  await waitForHydration(page);
  const card = page.getByRole("article", { name: "Vera Valuation" });
  await expect(card.getByText("Valuation request", { exact: true })).toBeVisible();
  await expect(card.getByLabel(INBOX_TEXT.status.label)).toHaveValue("new");

  // Assigned (to the member signed in: the only one), and noted.
  await card.getByLabel(INBOX_TEXT.assign.label, { exact: true }).selectOption({ index: 1 });
  await card.getByRole("button", { name: INBOX_TEXT.assign.save }).click();
  await expect(page.getByText(INBOX_TEXT.assign.assigned)).toBeVisible();
  await card.getByLabel(INBOX_TEXT.notes.label).fill("Wants it let by March; call in the evening.");
  await card.getByRole("button", { name: INBOX_TEXT.notes.add }).click();
  await expect(card).toContainText("Wants it let by March; call in the evening.");

  // Replied to from a template, through the test's SMTP server, threaded under the company's notification.
  await card.getByRole("link", { name: INBOX_TEXT.replyHere, exact: true }).click();
  await expect(page.getByRole("heading", { name: REPLY_TEXT.title("Vera Valuation") })).toBeVisible();
  await page.getByLabel(REPLY_TEXT.template).selectOption({ label: "Offer a valuation visit" });
  await page.getByRole("button", { name: REPLY_TEXT.useTemplate }).click();
  // Every template starts "Hello Vera,": wait for this one's subject and words, or Send may post the first template's.
  await expect(page.getByLabel(REPLY_TEXT.subject)).toHaveValue(`Re: A free rental valuation from ${PLACEHOLDER_COMPANY.name}`);
  await expect(page.getByLabel(REPLY_TEXT.body)).toHaveValue(/^Hello Vera,\n\nThank you for your enquiry\. We would be glad to visit/);
  await page.getByRole("button", { name: REPLY_TEXT.send }).click();
  await expect(page.getByText(REPLY_TEXT.sent("vera.valuation@example.com"))).toBeVisible();
  // Her acknowledgement may be there too (an owner turned it on above): the reply is the one that answers.
  const replyTo = async () => {
    for (const received of smtp.messages.filter((each) => each.envelopeTo.includes("vera.valuation@example.com"))) {
      const parsed = await parseMessage(received);
      if (parsed.subject?.startsWith("Re: ")) return parsed;
    }
    return undefined;
  };
  await expect.poll(async () => (await replyTo()) !== undefined, { timeout: 30_000 }).toBe(true);
  const message = (await replyTo())!;
  expect(message.subject).toBe(`Re: A free rental valuation from ${PLACEHOLDER_COMPANY.name}`);
  const notificationId = await notificationOf("vera.valuation@example.com");
  expect(message.inReplyTo).toBe(`<${notificationId}@mail.example.com>`);
  expect(message.header("references")).toEqual([`<${notificationId}@mail.example.com>`]);

  // Back on the card: Contacted by the reply; then Instructed.
  await page.getByRole("link", { name: REPLY_TEXT.back }).first().click();
  await expect(card.getByLabel(INBOX_TEXT.status.label)).toHaveValue("contacted");
  await card.getByLabel(INBOX_TEXT.status.label).selectOption("instructed");
  await card.getByRole("button", { name: INBOX_TEXT.status.save }).click();
  await expect(page.getByText(INBOX_TEXT.status.changed("Instructed"))).toBeVisible();

  // Its timeline says what happened, in order; the team's figures count it this week.
  await card.locator("summary", { hasText: /^Timeline/ }).click();
  await expect(card.getByRole("listitem").filter({ hasText: /Reply “Re: A free rental valuation/ })).toBeVisible();
  await page.reload();
  const table = page.getByRole("region", { name: "How the team is doing" }).getByRole("table", { name: "This week and last week" });
  const figure = (name: string) => table.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
  await expect(figure("Kind: Valuation request").getByRole("cell").first()).toHaveText("1");
  await expect(figure("Status: Instructed").getByRole("cell").first()).toHaveText("1");
  await expectAccessible(page, "the inbox after the journey");
});
