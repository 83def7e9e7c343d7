import { expect, test, type Page, type Request, type Route } from "@playwright/test";
import { MESSAGES, colours, dominated, enquiriesFrom, gotoLanding, section, uniqueEmail, type StoredEnquiryRow } from "./fixtures";

const form = (page: Page) => section(page, "contact").locator("form");
const fields = (page: Page) => {
  const scope = form(page);
  return {
    name: scope.getByRole("textbox", { name: /name/i }),
    email: scope.getByRole("textbox", { name: /e-?mail/i }),
    phone: scope.getByRole("textbox", { name: /phone/i }),
    userType: scope.getByRole("combobox"),
    message: scope.getByRole("textbox", { name: /message/i }),
    submit: scope.getByRole("button", { name: /send/i }),
  };
};
const notice = (page: Page, text: string) => section(page, "contact").getByText(text, { exact: true });

const lineFeeds = (text: string) => text.replace(/\r\n/g, "\n");

type Values = { name: string; email: string; phone: string; userType: string; message: string };

function validValues(label: string): Values {
  return {
    name: "Jane Tester",
    email: uniqueEmail(label),
    phone: "07700 900123",
    userType: "investor",
    message: `Hello from the ${label} end-to-end test.\nPlease call me about two flats in Leeds.`,
  };
}

async function fill(page: Page, values: Partial<Values>): Promise<void> {
  const f = fields(page);
  if (values.name !== undefined) await f.name.fill(values.name);
  if (values.email !== undefined) await f.email.fill(values.email);
  if (values.phone !== undefined) await f.phone.fill(values.phone);
  if (values.userType !== undefined) await f.userType.selectOption(values.userType);
  if (values.message !== undefined) await f.message.fill(values.message);
}

async function expectValues(page: Page, values: Values): Promise<void> {
  const f = fields(page);
  await expect(f.name).toHaveValue(values.name);
  await expect(f.email).toHaveValue(values.email);
  await expect(f.phone).toHaveValue(values.phone);
  await expect(f.userType).toHaveValue(values.userType);
  await expect(f.message).toHaveValue(values.message);
}

/**
 * A person takes more than 3 s to fill in the form; the server's time trap
 * counts from the page's token (issued-at rounded up to the second), so wait
 * until 3.5 s after that before sending, or the enquiry is kept as spam.
 */
async function waitOutTimeTrap(page: Page): Promise<void> {
  const token = await form(page).locator('input[name="formToken"]').inputValue();
  const issuedAt = Number(token.split(".")[0]) * 1000;
  expect(issuedAt, "the form's time-trap token").toBeGreaterThan(0);
  await page.waitForTimeout(Math.max(0, issuedAt + 3_500 - Date.now()));
}

/** Why a stored enquiry was caught as spam; null for a real one. */
function spamReason(row: StoredEnquiryRow | undefined): string | null | undefined {
  return (row as (StoredEnquiryRow & { spam_reason: string | null }) | undefined)?.spam_reason;
}

async function expectCleared(page: Page): Promise<void> {
  await expectValues(page, { name: "", email: "", phone: "", userType: "", message: "" });
}

/** Records the POST requests the page sends (the enquiry, whatever URL the form uses). */
function recordPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request);
  });
  return posts;
}

/** Intercepts the form's POST; the handler decides what happens to it. */
async function interceptPosts(page: Page, handler: (route: Route) => Promise<void>): Promise<void> {
  await page.route("**/*", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    return handler(route);
  });
}

/** Replaces one field of a JSON, URL-encoded or multipart request body. */
function withField(request: Request, field: string, value: string): string {
  const body = request.postData() ?? "";
  const type = request.headers()["content-type"] ?? "";
  if (type.includes("application/json")) return JSON.stringify({ ...JSON.parse(body), [field]: value });
  if (type.includes("application/x-www-form-urlencoded")) {
    const params = new URLSearchParams(body);
    params.set(field, value);
    return params.toString();
  }
  if (type.includes("multipart/form-data")) {
    const pattern = new RegExp(`(name="${field}"\\r\\n\\r\\n)[^\\r]*`);
    expect(body, `the ${field} part of the multipart body`).toMatch(pattern);
    return body.replace(pattern, `$1${value}`);
  }
  throw new Error(`Unexpected content type of the enquiry: ${type}`);
}

test.describe("contact form (JavaScript on)", () => {
  test.beforeEach(async ({ page }) => {
    await gotoLanding(page);
  });

  test("offers the user types Landlord, Tenant, Property Investor and Other; the message has 5 rows", async ({ page }) => {
    const options = await fields(page)
      .userType.locator("option")
      .evaluateAll((elements) => elements.map((option) => ({ value: (option as HTMLOptionElement).value, label: option.textContent?.trim() })));
    expect(options.filter((option) => option.value !== "")).toEqual([
      { value: "landlord", label: "Landlord" },
      { value: "tenant", label: "Tenant" },
      { value: "investor", label: "Property Investor" },
      { value: "other", label: "Other" },
    ]);
    await expect(fields(page).userType).toHaveValue("");
    await expect(fields(page).message).toHaveAttribute("rows", "5");
  });

  test("an empty submit shows 'Please fill in all required fields' from our own validation", async ({ page }) => {
    const posts = recordPosts(page);
    // No built-in "required" bubble may block the submission.
    expect(await form(page).evaluate((element: HTMLFormElement) => element.noValidate)).toBe(true);
    await fields(page).submit.click();
    const error = notice(page, MESSAGES.required);
    await expect(error).toBeVisible();
    const { text, background } = await colours(error);
    expect(dominated(text, "red") || dominated(background, "red"), "the error notice is red").toBe(true);
    // The browser checked it with the shared schema: nothing was sent.
    expect(posts.map((request) => request.url())).toEqual([]);
    await expect(fields(page).submit).toBeEnabled();
  });

  test("only white space counts as empty", async ({ page }) => {
    await fill(page, { name: "   ", email: "jane@example.com", userType: "tenant", message: "  \n " });
    await fields(page).submit.click();
    await expect(notice(page, MESSAGES.required)).toBeVisible();
  });

  test("an invalid e-mail shows 'Please enter a valid email address' and keeps the fields", async ({ page }) => {
    const values = { ...validValues("bad-email"), email: "not-an-email" };
    await fill(page, values);
    await fields(page).submit.click();
    await expect(notice(page, MESSAGES.invalidEmail)).toBeVisible();
    await expect(notice(page, MESSAGES.required)).toHaveCount(0);
    await expectValues(page, values);
    await expect(notice(page, MESSAGES.success)).toHaveCount(0);
  });

  test("a valid enquiry: Sending... while submitting, then the green notice, a cleared form and a stored row", async ({ page }) => {
    const values = { ...validValues("success"), name: "  Jane Tester  " };
    await fill(page, values);

    // Hold the request until the submitting state has been seen.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    await interceptPosts(page, async (route) => {
      arrived();
      await released;
      await route.continue();
    });

    await waitOutTimeTrap(page);
    await fields(page).submit.click();
    await requested;
    await expect(fields(page).submit).toHaveText("Sending...");
    await expect(fields(page).submit).toBeDisabled();
    expect(enquiriesFrom(values.email)).toEqual([]);
    release();

    const success = notice(page, MESSAGES.success);
    await expect(success).toBeVisible();
    const { text, background } = await colours(success);
    expect(dominated(text, "green") || dominated(background, "green"), "the success notice is green").toBe(true);
    await expectCleared(page);
    await expect(fields(page).submit).toBeEnabled();
    await expect(fields(page).submit).not.toHaveText("Sending...");

    const stored = enquiriesFrom(values.email);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      name: "Jane Tester",
      email: values.email,
      phone: values.phone,
      user_type: values.userType,
      is_read: 0,
    });
    expect(spamReason(stored[0])).toBeNull();
    expect(lineFeeds(stored[0]!.message)).toBe(values.message);
  });

  test("the phone is optional", async ({ page }) => {
    const values = { ...validValues("no-phone"), phone: "" };
    await fill(page, values);
    await waitOutTimeTrap(page);
    await fields(page).submit.click();
    await expect(notice(page, MESSAGES.success)).toBeVisible();
    const stored = enquiriesFrom(values.email);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.phone).toBeNull();
    expect(spamReason(stored[0])).toBeNull();
  });

  test("shows the server's error text when the server refuses, and keeps the form", async ({ page }) => {
    const values = validValues("server-refuses");
    await fill(page, values);
    // The browser and the server share one schema, so only a request altered on
    // its way can reach the server with a 41-character phone number.
    await interceptPosts(page, async (route) => {
      await route.continue({ postData: withField(route.request(), "phone", "0".repeat(41)) });
    });
    await fields(page).submit.click();
    const error = notice(page, "Please keep your phone number under 40 characters");
    await expect(error).toBeVisible();
    const { text, background } = await colours(error);
    expect(dominated(text, "red") || dominated(background, "red"), "the error notice is red").toBe(true);
    await expectValues(page, values);
    await expect(fields(page).submit).toBeEnabled();
    expect(enquiriesFrom(values.email)).toEqual([]);
  });

  test("the server also refuses an e-mail that smuggles a second recipient", async ({ page }) => {
    const values = validValues("smuggle");
    await fill(page, values);
    await interceptPosts(page, async (route) => {
      await route.continue({ postData: withField(route.request(), "email", `${values.email},victim@example.org`) });
    });
    await fields(page).submit.click();
    await expect(notice(page, MESSAGES.invalidEmail)).toBeVisible();
    await expectValues(page, values);
    expect(enquiriesFrom(values.email)).toEqual([]);
    expect(enquiriesFrom(`${values.email},victim@example.org`)).toEqual([]);
  });

  test("a network failure shows a red error notice and keeps the form", async ({ page }) => {
    const values = validValues("network");
    await fill(page, values);
    await interceptPosts(page, (route) => route.abort("connectionrefused"));
    const failed = page.waitForEvent("requestfailed");
    await fields(page).submit.click();
    await failed;
    await expect(form(page), "the form is still on the page").toBeVisible();
    // SPEC §8: the thrown message, else "Failed to send message. Please try again." — in red.
    const alert = section(page, "contact").getByRole("alert").filter({ hasText: /\S/ });
    await expect(alert).toBeVisible();
    const { text, background } = await colours(alert.getByText(/\S/).last());
    expect(dominated(text, "red") || dominated(background, "red"), "the error notice is red").toBe(true);
    await expect(notice(page, MESSAGES.success)).toHaveCount(0);
    await expectValues(page, values);
    await expect(fields(page).submit).toBeEnabled();
  });

  test("an error notice goes away on a successful retry", async ({ page }) => {
    const values = validValues("retry");
    await fill(page, { ...values, email: "not-an-email" });
    await fields(page).submit.click();
    await expect(notice(page, MESSAGES.invalidEmail)).toBeVisible();
    await fields(page).email.fill(values.email);
    await waitOutTimeTrap(page);
    await fields(page).submit.click();
    await expect(notice(page, MESSAGES.success)).toBeVisible();
    await expect(notice(page, MESSAGES.invalidEmail)).toHaveCount(0);
    expect(enquiriesFrom(values.email)).toHaveLength(1);
    expect(spamReason(enquiriesFrom(values.email)[0])).toBeNull();
  });

  test("the honeypot field is out of sight, out of the accessibility tree and out of the tab order", async ({ page }) => {
    const honeypot = form(page).locator('input[name="website"]');
    await expect(honeypot).toHaveCount(1);
    await expect(honeypot).not.toBeInViewport();
    await expect(honeypot).toHaveAttribute("tabindex", "-1");
    await expect(form(page).getByRole("textbox", { name: "Leave this field empty" })).toHaveCount(0);
    // It comes just before the name in the page; Shift+Tab from the name skips it.
    await fields(page).name.focus();
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name") ?? document.activeElement?.tagName)).not.toBe("website");
  });

  test("the privacy notice under the form says what is kept, why and for how long, and names the Privacy Policy", async ({ page }) => {
    const privacy = section(page, "contact").getByText(/only to answer your enquiry/);
    await expect(privacy).toBeVisible();
    await expect(privacy).toContainText("never sell them or share them with third parties for marketing");
    await expect(privacy).toContainText("kept only as long as needed to deal with your enquiry, and deleted on request");
    await expect(privacy.getByText("Privacy Policy", { exact: true })).toBeVisible();
  });
});

test.describe("contact form without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an empty submit shows the spec's error notice and keeps what was typed", async ({ page }) => {
    await page.goto("/");
    await fill(page, { name: "No Script Visitor", phone: "07700 900456" });
    await fields(page).submit.click();
    await page.waitForLoadState("domcontentloaded");
    await expect(notice(page, MESSAGES.required)).toBeVisible();
    await expect(fields(page).name).toHaveValue("No Script Visitor");
    await expect(fields(page).phone).toHaveValue("07700 900456");
    await expect(notice(page, MESSAGES.success)).toHaveCount(0);
  });

  test("an invalid e-mail shows its notice and keeps every field", async ({ page }) => {
    await page.goto("/");
    const values = { ...validValues("nojs-bad-email"), email: "not-an-email" };
    await fill(page, values);
    await fields(page).submit.click();
    await expect(notice(page, MESSAGES.invalidEmail)).toBeVisible();
    await expectValues(page, values);
  });

  test("a valid submission shows the success notice, clears the form and stores the enquiry", async ({ page }) => {
    await page.goto("/");
    const values = validValues("nojs-success");
    await fill(page, values);
    await waitOutTimeTrap(page);
    await fields(page).submit.click();
    await expect(notice(page, MESSAGES.success)).toBeVisible();
    await expectCleared(page);
    const stored = enquiriesFrom(values.email);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: values.name, user_type: values.userType, phone: values.phone });
    expect(spamReason(stored[0])).toBeNull();
    // A plain form post sends line breaks as CR LF.
    expect(lineFeeds(stored[0]!.message)).toBe(values.message);
  });

  test("a bot that fills in every field it finds, at once, is told it worked, and its enquiry is kept as spam", async ({ page }) => {
    await page.goto("/");
    const values = validValues("nojs-bot");
    await fill(page, values);
    // People never see this field; a script filling in the form's inputs does.
    await form(page).locator('input[name="website"]').fill("https://cheap-seo.example");
    await fields(page).submit.click();
    await expect(notice(page, MESSAGES.success)).toBeVisible();
    await expectCleared(page);
    const stored = enquiriesFrom(values.email);
    expect(stored).toHaveLength(1);
    // Filed under Spam for the honeypot (and, sent at once, the time trap noticed it too).
    expect(spamReason(stored[0])?.split("+")).toContain("honeypot");
  });
});
