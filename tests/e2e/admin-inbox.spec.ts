import { expect, test, type Locator, type Page, type Request } from "@playwright/test";
import {
  ADMIN_COMPANY_NAME,
  ADMIN_URL,
  INBOX,
  card,
  cardNames,
  cards,
  expectCounts,
  filterTab,
  holdActionAnswer,
  loginHeading,
  mainTab,
  notice,
  openInbox,
  resetInbox,
  seedNotification,
  showFilter,
  storedInbox,
  storedNotification,
  submitSignIn,
  welcome,
  type SeedEnquiry,
  withSiteDb,
} from "./admin-fixtures";
import { colours, expectFocusIndicator, tabUntilFocused, waitForHydration } from "./fixtures";
import { expectAccessible } from "./axe";
import { SIGNED_OUT, signedInState } from "./signed-in";

/**
 * The Contact Submissions tab (SPEC §5, §8, §9) on the "admin" server. Every
 * test empties that server's inbox and seeds its own enquiries, then counts
 * them, so the tests of this file run one after the other, in one worker
 * (mode "default": in order, and a failure does not skip the rest). They
 * start signed in (the admin server's saved session: signed-in.ts), but for
 * the one that signs in without JavaScript.
 */
test.describe.configure({ mode: "default" });
test.use({ baseURL: ADMIN_URL, storageState: signedInState("admin") });

const button = (scope: Locator, name: string) => scope.getByRole("button", { name, exact: true });
/** The "Unread" badge of a card (next to, or in, the sender's name). */
const unreadBadge = (scope: Locator) => scope.getByText("Unread", { exact: true });

/** Records the POST requests the page sends. */
function recordPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request);
  });
  return posts;
}

/** The part of a mailto: URL before its query, decoded: the address it writes to. */
function mailtoRecipient(href: string): string {
  expect(href.startsWith("mailto:"), `${href} is a mailto: link`).toBe(true);
  return decodeURIComponent(href.slice("mailto:".length).split("?")[0]!);
}

/** What a mailto: URL's query holds, decoded (encodeURIComponent's %20, never "+"). */
function mailtoFields(href: string): Record<string, string> {
  const query = href.includes("?") ? href.slice(href.indexOf("?") + 1) : "";
  return Object.fromEntries(
    query
      .split("&")
      .filter(Boolean)
      .map((pair) => {
        const [key = "", value = ""] = pair.split("=");
        return [decodeURIComponent(key), decodeURIComponent(value)];
      }),
  );
}

/** Hue in degrees and chroma (0–1) of an sRGB colour. */
function hueAndChroma([r = 0, g = 0, b = 0]: number[]): { hue: number; chroma: number } {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const delta = max - min;
  let hue = 0;
  if (delta > 0) {
    if (max === r) hue = 60 * (((g - b) / delta) % 6);
    else if (max === g) hue = 60 * ((b - r) / delta + 2);
    else hue = 60 * ((r - g) / delta + 4);
  }
  return { hue: (hue + 360) % 360, chroma: delta / 255 };
}

test("filter tabs All, Unread and Read show live counts; mark as read and mark as unread move a card between them", async ({ page }) => {
  const [first, second, third] = ["Uma Newest", "Una Middle", "Rita Oldest"];
  await resetInbox([
    { name: third!, email: "rita@example.com", userType: "tenant", message: "Read already.", createdAt: "2026-11-01T10:00:00.000Z", read: true },
    { name: second!, email: "una@example.com", userType: "landlord", message: "Second unread.", createdAt: "2026-11-02T10:00:00.000Z" },
    { name: first!, email: "uma@example.com", userType: "investor", message: "Newest unread.", createdAt: "2026-11-03T10:00:00.000Z" },
  ]);
  await openInbox(page);
  await expect(page.getByText("Manage and respond to customer inquiries", { exact: true })).toBeVisible();
  await expect(button(page.locator("main"), "Refresh")).toBeVisible();
  await expectCounts(page, { all: 3, unread: 2, read: 1 });
  await expect(filterTab(page, "All")).toHaveAttribute("aria-selected", "true");
  await expect(filterTab(page, "All")).toHaveAttribute("href", "/admin/enquiries");
  await expect(mainTab(page, "Contact Submissions")).toHaveAttribute("aria-selected", "true");
  // The header says how many are unread, whichever tab is open, and leads to them.
  await expect(page.getByRole("banner").getByRole("link", { name: "2 unread enquiries" })).toHaveAttribute("href", "/admin/enquiries?filter=unread");
  // Newest first.
  await expect.poll(() => cardNames(page)).toEqual([first, second, third]);
  await expect(page.getByRole("article", { name: first })).toBeVisible();
  await expect(unreadBadge(card(page, first!))).toBeVisible();
  await expect(unreadBadge(card(page, third!))).toHaveCount(0);
  await expect(button(card(page, first!), "Mark as read")).toBeVisible();
  await expect(button(card(page, third!), "Mark as unread")).toBeVisible();

  await showFilter(page, "Unread");
  await expect(page).toHaveURL(/\/admin\/enquiries\?filter=unread$/);
  await expect(filterTab(page, "Unread")).toHaveAttribute("aria-selected", "true");
  await expect(filterTab(page, "All")).toHaveAttribute("aria-selected", "false");
  await expect.poll(() => cardNames(page)).toEqual([first, second]);
  await showFilter(page, "Read");
  await expect(page).toHaveURL(/\/admin\/enquiries\?filter=read$/);
  await expect.poll(() => cardNames(page)).toEqual([third]);
  await showFilter(page, "All");
  await expect(page).toHaveURL(/\/admin\/enquiries$/);
  await expect.poll(() => cardNames(page)).toEqual([first, second, third]);

  // Mark as read: the card, the counts and the database change without a reload.
  await button(card(page, first!), "Mark as read").click();
  await expect(notice(page, INBOX.markedRead)).toBeVisible();
  await expect(button(card(page, first!), "Mark as unread")).toBeVisible();
  await expect(unreadBadge(card(page, first!))).toHaveCount(0);
  await expectCounts(page, { all: 3, unread: 1, read: 2 });
  expect((await storedInbox()).map((row) => [row.name, row.read])).toEqual([
    [first, true],
    [second, false],
    [third, true],
  ]);
  await expect(page.getByRole("banner").getByRole("link", { name: "1 unread enquiry" })).toBeVisible();
  // Seen from the other tab as well.
  await mainTab(page, "Renovation Projects").click();
  await expect(page).toHaveURL(/\/admin\/projects$/);
  await expect(page.getByRole("banner").getByRole("link", { name: "1 unread enquiry" })).toBeVisible();
  await mainTab(page, "Contact Submissions").click();
  await expect.poll(() => cardNames(page)).toEqual([first, second, third]);

  // Mark as unread.
  await button(card(page, third!), "Mark as unread").click();
  await expect(notice(page, INBOX.markedUnread)).toBeVisible();
  await expect(button(card(page, third!), "Mark as read")).toBeVisible();
  await expect(unreadBadge(card(page, third!))).toBeVisible();
  await expectCounts(page, { all: 3, unread: 2, read: 1 });
  expect((await storedInbox()).map((row) => [row.name, row.read])).toEqual([
    [first, true],
    [second, false],
    [third, false],
  ]);

  // Marked read in the Unread view, a card leaves it.
  await showFilter(page, "Unread");
  await expect.poll(() => cardNames(page)).toEqual([second, third]);
  await button(card(page, second!), "Mark as read").click();
  await expect(notice(page, INBOX.markedRead)).toBeVisible();
  await expect.poll(() => cardNames(page)).toEqual([third]);
  await expectCounts(page, { all: 3, unread: 1, read: 2 });
  await showFilter(page, "Read");
  await expect.poll(() => cardNames(page)).toEqual([first, second]);

  // A reload shows what the server stored.
  await page.reload();
  await expect(filterTab(page, "Read")).toHaveAttribute("aria-selected", "true");
  await expectCounts(page, { all: 3, unread: 1, read: 2 });
  await expect.poll(() => cardNames(page)).toEqual([first, second]);
});

test("empty states: 'No contact submissions yet', 'No unread submissions', 'No read submissions'", async ({ page }) => {
  await resetInbox();
  await openInbox(page);
  await expectCounts(page, { all: 0, unread: 0, read: 0 });
  await expect(page.getByText(INBOX.emptyAll, { exact: true })).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
  await showFilter(page, "Unread");
  await expect(page.getByText(INBOX.emptyUnread, { exact: true })).toBeVisible();
  await showFilter(page, "Read");
  await expect(page.getByText(INBOX.emptyRead, { exact: true })).toBeVisible();
  await expect(page.getByText(INBOX.emptyAll, { exact: true })).toHaveCount(0);

  // One unread enquiry: Read is empty; marked read in the Unread view, Unread becomes empty at once.
  await resetInbox([{ name: "Solo Sender", email: "solo@example.com", userType: "other", message: "Just me." }]);
  await page.goto("/admin/enquiries?filter=read");
  await expectCounts(page, { all: 1, unread: 1, read: 0 });
  await expect(page.getByText(INBOX.emptyRead, { exact: true })).toBeVisible();
  await showFilter(page, "Unread");
  await expect.poll(() => cardNames(page)).toEqual(["Solo Sender"]);
  await button(card(page, "Solo Sender"), "Mark as read").click();
  await expect(page.getByText(INBOX.emptyUnread, { exact: true })).toBeVisible();
  await expectCounts(page, { all: 1, unread: 0, read: 1 });
});

test("Delete asks with confirm(): dismissed, nothing is deleted; accepted, the card goes and 'Contact submission deleted successfully.' shows", async ({
  page,
}) => {
  await resetInbox([
    { name: "Kim Keep", email: "kim@example.com", userType: "tenant", message: "Keep me.", createdAt: "2026-11-01T09:00:00.000Z" },
    { name: "Dora Delete", email: "dora@example.com", userType: "landlord", message: "Delete me.", createdAt: "2026-11-02T09:00:00.000Z" },
  ]);
  await openInbox(page);
  await expectCounts(page, { all: 2, unread: 2, read: 0 });
  const doomed = card(page, "Dora Delete");
  const deleteButton = button(doomed, "Delete submission");
  await expect(deleteButton).toHaveText("Delete");

  const posts = recordPosts(page);
  const dialogs: { type: string; message: string }[] = [];
  page.once("dialog", (dialog) => {
    dialogs.push({ type: dialog.type(), message: dialog.message() });
    void dialog.dismiss();
  });
  await deleteButton.click();
  await expect.poll(() => dialogs).toEqual([{ type: "confirm", message: INBOX.deleteConfirm }]);
  // Dismissed: nothing was sent, nothing changed.
  await expect(doomed).toBeVisible();
  await expect(deleteButton).toBeEnabled();
  await expectCounts(page, { all: 2, unread: 2, read: 0 });
  await expect(page.locator("#inbox-list").getByRole("status")).toHaveCount(0);
  expect(posts).toEqual([]);
  expect((await storedInbox()).map((row) => row.name)).toEqual(["Dora Delete", "Kim Keep"]);

  page.once("dialog", (dialog) => {
    dialogs.push({ type: dialog.type(), message: dialog.message() });
    void dialog.accept();
  });
  await deleteButton.click();
  await expect(notice(page, INBOX.deleted)).toBeVisible();
  await expect(doomed).toHaveCount(0);
  // The focused button went with its card: focus moves to the notice, not to the top of the page.
  await expect(page.locator("#inbox-list [data-focus-fallback]")).toBeFocused();
  await expect(card(page, "Kim Keep")).toBeVisible();
  await expectCounts(page, { all: 1, unread: 1, read: 0 });
  expect(dialogs).toHaveLength(2);
  expect(dialogs[1]).toEqual({ type: "confirm", message: INBOX.deleteConfirm });
  expect((await storedInbox()).map((row) => row.name)).toEqual(["Kim Keep"]);

  await page.reload();
  await expect(card(page, "Kim Keep")).toBeVisible();
  await expect(card(page, "Dora Delete")).toHaveCount(0);
});

test("a delete's notice shows when the list has lost the card before the delete's answer comes back", async ({ page }) => {
  await resetInbox([
    { name: "Kim Keep", email: "kim@example.com", userType: "tenant", message: "Keep me.", createdAt: "2026-11-01T09:00:00.000Z" },
    { name: "Dora Delete", email: "dora@example.com", userType: "landlord", message: "Delete me.", createdAt: "2026-11-02T09:00:00.000Z" },
  ]);
  await openInbox(page);
  // The delete reaches the server at once; its answer is held back from the page.
  const hold = await holdActionAnswer(page);
  page.once("dialog", (dialog) => void dialog.accept());
  await button(card(page, "Dora Delete"), "Delete submission").click();
  await hold.answered;
  // Meanwhile another answer (here Refresh; in the keyboard journey, the revalidation after an
  // earlier action) brings the list without the card, which goes while its delete is in flight.
  await button(page.locator("main"), "Refresh").click();
  await expect(card(page, "Dora Delete")).toHaveCount(0);
  hold.release();
  await expect(notice(page, INBOX.deleted)).toBeVisible();
  await expect(card(page, "Kim Keep")).toBeVisible();
  await hold.stop();
});

test("Refresh picks up an enquiry sent after the page loaded, and keeps the filter", async ({ page, request }) => {
  await resetInbox([{ name: "Olive Older", email: "olive@example.com", userType: "tenant", message: "Earlier.", createdAt: "2026-11-01T08:00:00.000Z" }]);
  await openInbox(page);
  await expectCounts(page, { all: 1, unread: 1, read: 0 });

  const sent = await request.post("/api/contact", {
    data: { name: "Nora Newcomer", email: "nora@example.com", phone: "", userType: "investor", message: "Sent just now." },
  });
  expect(sent.status()).toBe(201);
  // Not shown until asked.
  await expect(card(page, "Nora Newcomer")).toHaveCount(0);
  await expectCounts(page, { all: 1, unread: 1, read: 0 });

  await button(page.locator("main"), "Refresh").click();
  await expect.poll(() => cardNames(page)).toEqual(["Nora Newcomer", "Olive Older"]);
  await expectCounts(page, { all: 2, unread: 2, read: 0 });
  await expect(page).toHaveURL(/\/admin\/enquiries$/);

  // In the Read view, Refresh stays there.
  await showFilter(page, "Read");
  await expect(page.getByText(INBOX.emptyRead, { exact: true })).toBeVisible();
  await request.post("/api/contact", {
    data: { name: "Pat Later", email: "pat@example.com", userType: "other", message: "Later still." },
  });
  await button(page.locator("main"), "Refresh").click();
  await expectCounts(page, { all: 3, unread: 3, read: 0 });
  await expect(page).toHaveURL(/\/admin\/enquiries\?filter=read$/);
  await expect(filterTab(page, "Read")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText(INBOX.emptyRead, { exact: true })).toBeVisible();
});

test.describe("in a browser set to New York time and US English", () => {
  // The dates are UK time, formatted en-GB, whatever the browser's own zone and locale.
  test.use({ timezoneId: "America/New_York", locale: "en-US" });

  test("each card: name, mailto and tel links, coloured user-type badge, message, UK date, 'Reply via Email' link", async ({ page }) => {
    const seeds: (SeedEnquiry & { badge: string; date: string })[] = [
      {
        name: "Amelia Landlord",
        email: "amelia.landlord@example.com",
        phone: "020 7946 0123",
        userType: "landlord",
        message: "Three flats in Hackney need managing.",
        createdAt: "2026-11-20T14:05:00.000Z",
        badge: "Landlord",
        date: "20 Nov 2026, 14:05",
      },
      {
        name: "Tom Tenant",
        email: "tom@example.com",
        userType: "tenant",
        message: "The boiler is broken.",
        // British Summer Time: an hour ahead of UTC.
        createdAt: "2026-07-01T09:30:00.000Z",
        badge: "Tenant",
        date: "1 Jul 2026, 10:30",
      },
      {
        name: "Ivy Investor",
        email: "ivy@example.com",
        phone: "07700 900456",
        userType: "investor",
        message: "Looking for a portfolio manager.",
        // Half an hour before the clocks went forward (01:00 UTC, 29 March 2026)…
        createdAt: "2026-03-29T00:30:00.000Z",
        badge: "Property Investor",
        date: "29 Mar 2026, 00:30",
      },
      {
        name: "Oscar Other",
        email: "oscar@example.com",
        userType: "other",
        message: "Just a question.",
        // …and half an hour after.
        createdAt: "2026-03-29T01:30:00.000Z",
        badge: "Other",
        date: "29 Mar 2026, 02:30",
      },
    ];
    await resetInbox(seeds);
    await openInbox(page);
    await expect.poll(() => cardNames(page)).toEqual(["Amelia Landlord", "Tom Tenant", "Oscar Other", "Ivy Investor"]);

    for (const seed of seeds) {
      const scope = card(page, seed.name);
      await expect(scope.getByRole("heading", { level: 3 })).toContainText(seed.name);
      const mail = scope.getByRole("link", { name: seed.email, exact: true });
      await expect(mail).toHaveAttribute("href", `mailto:${seed.email}`);
      const tel = scope.locator('a[href^="tel:"]');
      if (seed.phone) {
        await expect(tel).toHaveText(seed.phone);
        await expect(tel).toHaveAttribute("href", `tel:+44${seed.phone.replace(/\s/g, "").slice(1)}`);
      } else {
        await expect(tel).toHaveCount(0);
      }
      await expect(scope.getByText(seed.badge, { exact: true })).toBeVisible();
      await expect(scope.getByText(seed.message, { exact: true })).toBeVisible();
      // The card's own date comes first; its timeline's times come after.
      const time = scope.locator("time").first();
      await expect(time).toHaveText(seed.date);
      await expect(time).toHaveAttribute("datetime", seed.createdAt!);

      const reply = scope.getByRole("link", { name: "Reply via Email", exact: true });
      const href = (await reply.getAttribute("href")) ?? "";
      expect(mailtoRecipient(href)).toBe(seed.email);
      expect(href, "spaces as %20, never +").not.toContain("+");
      expect(href).toContain("%20");
      const fields = mailtoFields(href);
      expect(Object.keys(fields)).toEqual(["subject", "body"]);
      expect(fields.subject).toBe(`Re: Your inquiry to ${ADMIN_COMPANY_NAME}`);
      expect(fields.body).toMatch(new RegExp(`^Dear ${seed.name},`));
    }

    // Landlord blue, Tenant green, Property Investor purple, Other neutral.
    const badge = (name: string, label: string) => card(page, name).getByText(label, { exact: true });
    const text = async (name: string, label: string) => hueAndChroma((await colours(badge(name, label))).text);
    const landlord = await text("Amelia Landlord", "Landlord");
    expect(landlord.hue, "Landlord is blue").toBeGreaterThanOrEqual(200);
    expect(landlord.hue).toBeLessThanOrEqual(250);
    const tenant = await text("Tom Tenant", "Tenant");
    expect(tenant.hue, "Tenant is green").toBeGreaterThanOrEqual(90);
    expect(tenant.hue).toBeLessThanOrEqual(170);
    const investor = await text("Ivy Investor", "Property Investor");
    expect(investor.hue, "Property Investor is purple").toBeGreaterThanOrEqual(260);
    expect(investor.hue).toBeLessThanOrEqual(310);
    for (const coloured of [landlord, tenant, investor]) expect(coloured.chroma).toBeGreaterThan(0.25);
    const other = await colours(badge("Oscar Other", "Other"));
    expect(hueAndChroma(other.text).chroma, "Other is neutral").toBeLessThan(0.2);
    expect(hueAndChroma(other.background).chroma, "Other is neutral").toBeLessThan(0.1);
  });
});

test("HTML and script in an enquiry's fields show as literal text and never run", async ({ page, request }) => {
  const payload = {
    name: `<img src=x onerror="window.__xss=1">`,
    // As hostile as the contact form's e-mail rule lets through: quotes, &, ?, #, %, =.
    email: "x'onmouseover=window.__xss=1&cc=victim%40evil.example?#@example.com",
    phone: "<svg onload=window.__xss=1>",
    userType: "other",
    message: `<script>window.__xss=1</script>\n<img src=x onerror=alert(1)> "quoted" & 'single' </p></article>`,
  };
  await resetInbox();
  const sent = await request.post("/api/contact", { data: payload });
  expect(sent.status(), await sent.text()).toBe(201);

  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));

  await openInbox(page);
  await expectCounts(page, { all: 1, unread: 1, read: 0 });
  const scope = cards(page).first();
  await expect(scope.getByRole("heading", { level: 3 })).toContainText(payload.name);
  await expect.poll(() => cardNames(page)).toEqual([payload.name]);
  await expect(scope.getByText("<script>window.__xss=1</script>")).toBeVisible();
  await expect(scope.getByText(payload.message.split("\n")[0]!)).toHaveText(payload.message);
  const mail = scope.getByRole("link", { name: payload.email, exact: true });
  await expect(mail).toBeVisible();
  const mailHref = (await mail.getAttribute("href")) ?? "";
  expect(mailtoRecipient(mailHref)).toBe(payload.email);
  expect(mailHref, "the address's ? and & cannot start a query of their own").not.toMatch(/[?&#]/);
  await expect(scope.locator('a[href^="tel:"]')).toHaveText(payload.phone);

  const replyHref = (await scope.getByRole("link", { name: "Reply via Email", exact: true }).getAttribute("href")) ?? "";
  expect(mailtoRecipient(replyHref)).toBe(payload.email);
  const reply = mailtoFields(replyHref);
  expect(Object.keys(reply), "no cc or other header smuggled in").toEqual(["subject", "body"]);
  expect(reply.body).toMatch(/^Dear <img src=x onerror="window.__xss=1">,/);

  // None of it became markup: no image, script or event handler from the payload.
  await expect(scope.locator("img, script, iframe, object, embed")).toHaveCount(0);
  await expect(page.locator("[onerror], [onload], [onmouseover]")).toHaveCount(0);
  await mail.hover();
  await button(scope, "Mark as read").click();
  await expect(notice(page, INBOX.markedRead)).toBeVisible();
  await page.reload();
  await expect(scope.getByRole("heading", { level: 3 })).toContainText(payload.name);
  await page.waitForLoadState("load");
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  // A payload that had become markup would at least have tripped the Content-Security-Policy.
  expect(problems).toEqual([]);
});

/** The bulk bar: a form named "Bulk actions" above the cards. */
const bulkBar = (page: Page) => page.getByRole("form", { name: "Bulk actions" });
/** A card's checkbox, labelled with the sender's name. */
const tick = (page: Page, name: string) => page.getByRole("checkbox", { name: `Select ${name}`, exact: true });

test("search by name, e-mail or message: keeps the filter, the counts follow, an empty result offers 'Clear search'", async ({ page }) => {
  await resetInbox([
    { name: "Agatha Boiler", email: "agatha@example.com", userType: "landlord", message: "Hello.", createdAt: "2026-11-01T09:00:00.000Z" },
    {
      name: "Bertie Wooster",
      email: "bertie@example.com",
      userType: "tenant",
      message: "My BOILER is noisy.",
      createdAt: "2026-11-02T09:00:00.000Z",
      read: true,
    },
    { name: "Cora Crawley", email: "boiler.fan@example.org", userType: "investor", message: "Gutters.", createdAt: "2026-11-03T09:00:00.000Z" },
    { name: "Dan Else", email: "dan@example.com", userType: "other", message: "Windows.", createdAt: "2026-11-04T09:00:00.000Z" },
    { name: "Spam Boiler", email: "spam@example.com", userType: "other", message: "Cheap boilers.", spam: "links" },
  ]);
  await openInbox(page);
  await expectCounts(page, { all: 4, unread: 3, read: 1, spam: 1 });
  const search = page.getByRole("searchbox", { name: "Search submissions" });
  await search.fill("Boiler");
  await search.press("Enter");
  await expect(page).toHaveURL(/\/admin\/enquiries\?q=Boiler$/);
  await expect.poll(() => cardNames(page)).toEqual(["Cora Crawley", "Bertie Wooster", "Agatha Boiler"]);
  await expectCounts(page, { all: 3, unread: 2, read: 1, spam: 1 });
  // Sent with Enter, the search box keeps focus and its words.
  await expect(search).toBeFocused();
  await expect(search).toHaveValue("Boiler");
  // The header counts the whole inbox, whatever the search.
  await expect(page.getByRole("banner").getByRole("link", { name: "3 unread enquiries" })).toBeVisible();

  // Another filter keeps the search, and the search box keeps the filter.
  await showFilter(page, "Read");
  await expect(page).toHaveURL(/\/admin\/enquiries\?filter=read&q=Boiler$/);
  await expect.poll(() => cardNames(page)).toEqual(["Bertie Wooster"]);
  await expect(search).toHaveValue("Boiler");
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", "/admin/enquiries.csv?filter=read&q=Boiler");
  await search.fill("zebra_%");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/enquiries\?filter=read&q=zebra_%25$/);
  await expect(page.getByText("No submissions match “zebra_%”", { exact: true })).toBeVisible();
  await expectCounts(page, { all: 0, unread: 0, read: 0, spam: 0 });
  await page.getByRole("link", { name: "Clear search", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/enquiries\?filter=read$/);
  await expect(search).toHaveValue("");
  await expectCounts(page, { all: 4, unread: 3, read: 1, spam: 1 });
});

test("Spam (n) lists caught submissions with their reason; Not spam moves one to the inbox as unread", async ({ page }) => {
  const [, honey] = await resetInbox([
    { name: "Real Rachel", email: "rachel@example.com", userType: "landlord", message: "Two flats.", createdAt: "2026-11-01T09:00:00.000Z", read: true },
    { name: "Bot Honey", email: "honey@example.com", userType: "other", message: "Buy now.", createdAt: "2026-11-02T09:00:00.000Z", spam: "honeypot" },
    { name: "Bot Links", email: "links@example.com", userType: "other", message: "http://a http://b", createdAt: "2026-11-03T09:00:00.000Z", spam: "links" },
  ]);
  await openInbox(page);
  await expectCounts(page, { all: 1, unread: 0, read: 1, spam: 2 });
  await expect.poll(() => cardNames(page)).toEqual(["Real Rachel"]);
  await expect(page.getByRole("banner").getByRole("link", { name: /unread enquir/ })).toHaveCount(0);

  await showFilter(page, "Spam");
  await expect(page).toHaveURL(/\/admin\/enquiries\?filter=spam$/);
  await expect(filterTab(page, "Spam")).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => cardNames(page)).toEqual(["Bot Links", "Bot Honey"]);
  await expect(card(page, "Bot Honey")).toContainText("Caught as spam: Filled in the hidden field that only bots see");
  await expect(card(page, "Bot Links")).toContainText("Caught as spam: Three or more links in the message");
  await expect(card(page, "Bot Honey").getByText(/Notification e-mail/)).toHaveCount(0);

  await button(card(page, "Bot Honey"), "Not spam").click();
  await expect(notice(page, INBOX.notSpamDone)).toBeVisible();
  await expect.poll(() => cardNames(page)).toEqual(["Bot Links"]);
  await expectCounts(page, { all: 2, unread: 1, read: 1, spam: 1 });
  expect((await storedInbox()).find((row) => row.id === honey)).toMatchObject({ spam: null, read: false });
  await expect(page.getByRole("banner").getByRole("link", { name: "1 unread enquiry" })).toBeVisible();

  await showFilter(page, "All");
  await expect.poll(() => cardNames(page)).toEqual(["Bot Honey", "Real Rachel"]);
  await expect(unreadBadge(card(page, "Bot Honey"))).toBeVisible();

  await resetInbox([{ name: "Only Real", email: "real@example.com", userType: "tenant", message: "Hi." }]);
  await page.goto("/admin/enquiries?filter=spam");
  await expect(page.getByText(INBOX.emptySpam, { exact: true })).toBeVisible();
});

test("Held (n) lists what arrived during a flood, out of All; Not spam releases one to the inbox", async ({ page }) => {
  const [, genuine] = await resetInbox([
    { name: "Real Rachel", email: "rachel@example.com", userType: "landlord", message: "Two flats.", createdAt: "2026-11-01T09:00:00.000Z", read: true },
    { name: "Flood Genuine", email: "genuine@example.com", userType: "landlord", message: "Three houses.", createdAt: "2026-11-02T09:00:00.000Z", held: true },
    { name: "Flood Bot", email: "bot@example.com", userType: "other", message: "Buy now.", createdAt: "2026-11-03T09:00:00.000Z", held: true },
  ]);
  await openInbox(page);
  await expectCounts(page, { all: 1, unread: 0, read: 1, held: 2 });
  await expect.poll(() => cardNames(page)).toEqual(["Real Rachel"]);

  await showFilter(page, "Held");
  await expect(page).toHaveURL(/\/admin\/enquiries\?filter=held$/);
  await expect(filterTab(page, "Held")).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => cardNames(page)).toEqual(["Flood Bot", "Flood Genuine"]);
  await expect(card(page, "Flood Genuine").getByText("Held in a flood", { exact: true })).toBeVisible();
  await expect(card(page, "Flood Genuine")).toContainText("Held apart from your inbox, with no e-mail of its own: Arrived during a flood");

  await button(card(page, "Flood Genuine"), "Not spam").click();
  await expect(notice(page, INBOX.released)).toBeVisible();
  await expect.poll(() => cardNames(page)).toEqual(["Flood Bot"]);
  await expectCounts(page, { all: 2, unread: 1, read: 1, held: 1 });
  expect((await storedInbox()).find((row) => row.id === genuine)).toMatchObject({ spam: null, read: false });

  await showFilter(page, "All");
  await expect.poll(() => cardNames(page)).toEqual(["Flood Genuine", "Real Rachel"]);

  await resetInbox([{ name: "Only Real", email: "real@example.com", userType: "tenant", message: "Hi." }]);
  await page.goto("/admin/enquiries?filter=held");
  await expect(page.getByText(INBOX.emptyHeld, { exact: true })).toBeVisible();
});

test("an enquiry sent within 3 seconds of opening the page, with or without JavaScript, is in All and Unread marked Possible spam", async ({
  page,
  browser,
}) => {
  await resetInbox([]);
  // As a person with autofill who pastes a prepared message: filled in and sent at once.
  for (const [name, javaScriptEnabled] of [
    ["Quick With Script", true],
    ["Quick Without Script", false],
  ] as const) {
    const visitor = await browser.newContext({ baseURL: ADMIN_URL, javaScriptEnabled, storageState: SIGNED_OUT });
    const landing = await visitor.newPage();
    await landing.goto("/");
    if (javaScriptEnabled) await waitForHydration(landing);
    const contactForm = landing.locator("#contact form");
    await contactForm.getByRole("textbox", { name: /name/i }).fill(name);
    await contactForm.getByRole("textbox", { name: /e-?mail/i }).fill(`${name.toLowerCase().replaceAll(" ", ".")}@example.com`);
    await contactForm.getByRole("combobox").selectOption("landlord");
    await contactForm.getByRole("textbox", { name: /message/i }).fill("Autofilled and pasted: a flat in Hove to let.");
    // The token of a page opened this very moment: on a busy machine the page load alone can take 3 s.
    const fresh = /name="formToken" value="([^"]+)"/.exec(await (await landing.request.get("/")).text())![1]!;
    await contactForm.locator('input[name="formToken"]').evaluate((input, token) => ((input as HTMLInputElement).value = token), fresh);
    await contactForm.getByRole("button", { name: /send/i }).click();
    await expect(landing.locator("#contact").getByText("Thank you for your message! We'll get back to you within 24 hours.", { exact: true })).toBeVisible();
    await visitor.close();
  }

  await openInbox(page);
  await expectCounts(page, { all: 2, unread: 2, read: 0, spam: 0 });
  await expect.poll(() => cardNames(page)).toEqual(["Quick Without Script", "Quick With Script"]);
  for (const name of ["Quick With Script", "Quick Without Script"]) {
    await expect(card(page, name).getByText("Possible spam", { exact: true })).toBeVisible();
    await expect(unreadBadge(card(page, name))).toBeVisible();
    await expect(card(page, name)).toContainText("Kept in your inbox, but the spam rules noticed: Sent within 3 seconds of opening the page");
  }
  await showFilter(page, "Unread");
  await expect.poll(() => cardNames(page)).toEqual(["Quick Without Script", "Quick With Script"]);

  // Not spam takes the mark away; Move to Spam files the enquiry away.
  await button(card(page, "Quick With Script"), "Not spam").click();
  await expect(notice(page, "No longer marked as possible spam.")).toBeVisible();
  await expect(card(page, "Quick With Script").getByText("Possible spam", { exact: true })).toHaveCount(0);
  await button(card(page, "Quick Without Script"), "Move to Spam").click();
  await expect(notice(page, "Moved to Spam.")).toBeVisible();
  await expectCounts(page, { all: 1, unread: 1, read: 0, spam: 1 });
  await showFilter(page, "Spam");
  await expect(card(page, "Quick Without Script")).toContainText("Caught as spam: Sent within 3 seconds of opening the page");
});

test("select two and bulk mark read; the bar says how many are selected; 'Select all on this page'", async ({ page }) => {
  await resetInbox([
    { name: "Ann Able", email: "ann@example.com", userType: "tenant", message: "One.", createdAt: "2026-11-01T09:00:00.000Z" },
    { name: "Ben Baker", email: "ben@example.com", userType: "tenant", message: "Two.", createdAt: "2026-11-02T09:00:00.000Z" },
    { name: "Cal Cole", email: "cal@example.com", userType: "tenant", message: "Three.", createdAt: "2026-11-03T09:00:00.000Z" },
  ]);
  await openInbox(page);
  const bar = bulkBar(page);
  await expect(bar.getByText("No submissions selected")).toBeVisible();
  await tick(page, "Ann Able").check();
  await tick(page, "Cal Cole").check();
  await expect(bar.getByText("2 selected", { exact: true })).toBeVisible();
  await expect(bar.getByRole("checkbox", { name: "Select all on this page" })).not.toBeChecked();

  await button(bar, "Mark as read").click();
  await expect(notice(page, INBOX.bulkMarkedRead(2))).toBeVisible();
  await expectCounts(page, { all: 3, unread: 1, read: 2 });
  expect((await storedInbox()).map((row) => [row.name, row.read])).toEqual([
    ["Cal Cole", true],
    ["Ben Baker", false],
    ["Ann Able", true],
  ]);
  await expect(unreadBadge(card(page, "Ann Able"))).toHaveCount(0);

  const all = bar.getByRole("checkbox", { name: "Select all on this page" });
  await all.check();
  await expect(bar.getByText("3 selected", { exact: true })).toBeVisible();
  await expect(tick(page, "Ben Baker")).toBeChecked();
  await all.uncheck();
  await expect(bar.getByText("No submissions selected")).toBeVisible();
  await expect(tick(page, "Ann Able")).not.toBeChecked();
});

test("bulk delete asks with confirm(): dismissed, nothing is deleted; accepted, they go and focus moves to the notice", async ({ page }) => {
  await resetInbox([
    { name: "Kept Kay", email: "kay@example.com", userType: "tenant", message: "Keep.", createdAt: "2026-11-01T09:00:00.000Z" },
    { name: "Gone Gil", email: "gil@example.com", userType: "tenant", message: "Go.", createdAt: "2026-11-02T09:00:00.000Z" },
    { name: "Gone Gwen", email: "gwen@example.com", userType: "tenant", message: "Go too.", createdAt: "2026-11-03T09:00:00.000Z" },
  ]);
  await openInbox(page);
  await tick(page, "Gone Gil").check();
  await tick(page, "Gone Gwen").check();
  const posts = recordPosts(page);
  const dialogs: string[] = [];
  page.once("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await button(bulkBar(page), "Delete selected").click();
  await expect.poll(() => dialogs).toEqual([INBOX.bulkConfirm(2)]);
  expect(posts).toEqual([]);
  await expect.poll(() => cardNames(page)).toEqual(["Gone Gwen", "Gone Gil", "Kept Kay"]);
  expect((await storedInbox()).length).toBe(3);

  page.once("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  await button(bulkBar(page), "Delete selected").click();
  await expect(notice(page, INBOX.bulkDeleted(2))).toBeVisible();
  await expect.poll(() => cardNames(page)).toEqual(["Kept Kay"]);
  await expect(page.locator("#inbox-list [data-focus-fallback]")).toBeFocused();
  expect(dialogs).toEqual([INBOX.bulkConfirm(2), INBOX.bulkConfirm(2)]);
  expect((await storedInbox()).map((row) => row.name)).toEqual(["Kept Kay"]);
  await expect(bulkBar(page).getByText("No submissions selected")).toBeVisible();
});

test("keyboard only: tick with Space, act from the bulk bar with Enter", async ({ page }) => {
  await resetInbox([
    { name: "Key One", email: "one@example.com", userType: "tenant", message: "One.", createdAt: "2026-11-01T09:00:00.000Z" },
    { name: "Key Two", email: "two@example.com", userType: "tenant", message: "Two.", createdAt: "2026-11-02T09:00:00.000Z" },
  ]);
  await openInbox(page);
  const bar = bulkBar(page);
  await tabUntilFocused(page, bar.getByRole("checkbox", { name: "Select all on this page" }));
  await expectFocusIndicator(bar.getByRole("checkbox", { name: "Select all on this page" }), "Select all on this page");
  await page.keyboard.press("Space");
  await expect(bar.getByText("2 selected", { exact: true })).toBeVisible();
  await tabUntilFocused(page, button(bar, "Mark as read"));
  await page.keyboard.press("Enter");
  await expect(notice(page, INBOX.bulkMarkedRead(2))).toBeVisible();
  await expectCounts(page, { all: 2, unread: 0, read: 2 });

  // Untick one card from the keyboard, then go back up to the bar and delete the other.
  await tabUntilFocused(page, tick(page, "Key One"));
  await expectFocusIndicator(tick(page, "Key One"), "a card's checkbox");
  await page.keyboard.press("Space");
  await expect(bar.getByText("1 selected", { exact: true })).toBeVisible();
  await tabUntilFocused(page, button(bar, "Delete selected"), "Shift+Tab");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.keyboard.press("Enter");
  await expect(notice(page, "1 submission deleted.")).toBeVisible();
  await expect.poll(() => cardNames(page)).toEqual(["Key One"]);
  await expect(page.locator("#inbox-list [data-focus-fallback]")).toBeFocused();
});

test("keyboard only, focus always visible: Refresh, search and Clear search, mark read and unread, Reply via Email, Retry now, Delete, Not spam, Export CSV, Data requests", async ({
  page,
}) => {
  test.slow();
  const [kim] = await resetInbox([
    {
      name: "Key Kim",
      email: "kim@example.com",
      phone: "020 7946 0123",
      userType: "landlord",
      message: "Boiler again.",
      createdAt: "2026-11-03T09:00:00.000Z",
    },
    { name: "Key Lee", email: "lee@example.com", userType: "tenant", message: "Damp.", createdAt: "2026-11-02T09:00:00.000Z", read: true },
    { name: "Key Spam", email: "spam@example.com", userType: "other", message: "Cheap.", createdAt: "2026-11-01T09:00:00.000Z", spam: "links" },
  ]);
  await seedNotification(kim!, { status: "failed", attempts: 8, lastError: "Connection refused" });
  await openInbox(page);

  const refresh = page.getByRole("button", { name: "Refresh", exact: true });
  await tabUntilFocused(page, refresh);
  await expectFocusIndicator(refresh, "Refresh");
  await page.keyboard.press("Enter");
  await expect.poll(() => cardNames(page)).toEqual(["Key Kim", "Key Lee"]);
  await expectFocusIndicator(refresh, "Refresh, after refreshing");

  const search = page.getByRole("searchbox", { name: "Search submissions" });
  await tabUntilFocused(page, search);
  await expectFocusIndicator(search, "the search box");
  await page.keyboard.type("Kim");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/enquiries\?q=Kim$/);
  await expect.poll(() => cardNames(page)).toEqual(["Key Kim"]);
  await expectFocusIndicator(search, "the search box, after searching");
  const clear = page.getByRole("link", { name: "Clear search", exact: true });
  await tabUntilFocused(page, clear);
  await expectFocusIndicator(clear, "Clear search");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/enquiries$/);
  await expect.poll(() => cardNames(page)).toEqual(["Key Kim", "Key Lee"]);
  // The link went with the search: the search box, now empty, has focus.
  await expectFocusIndicator(search, "the search box, after Clear search");

  const kimCard = card(page, "Key Kim");
  await tabUntilFocused(page, button(kimCard, "Mark as read"));
  await expectFocusIndicator(button(kimCard, "Mark as read"), "Mark as read");
  await page.keyboard.press("Enter");
  await expect(notice(page, INBOX.markedRead)).toBeVisible();
  await expectFocusIndicator(button(kimCard, "Mark as unread"), "Mark as unread");
  await page.keyboard.press("Space");
  await expect(notice(page, INBOX.markedUnread)).toBeVisible();
  await expectFocusIndicator(button(kimCard, "Mark as read"), "Mark as read again");
  await expect(unreadBadge(kimCard)).toBeVisible();

  // Reply via Email opens the mail program, outside the browser: reached and shown, not followed.
  const reply = kimCard.getByRole("link", { name: "Reply via Email", exact: true });
  await tabUntilFocused(page, reply, "Shift+Tab");
  await expectFocusIndicator(reply, "Reply via Email");
  await expect(reply).toHaveAttribute("href", /^mailto:kim@example\.com\?/);

  const retry = button(kimCard, "Retry now");
  await tabUntilFocused(page, retry);
  await expectFocusIndicator(retry, "Retry now");
  await page.keyboard.press("Enter");
  await expect(notice(page, INBOX.retried)).toBeVisible();
  expect((await storedNotification(kim!))?.next_attempt_at).not.toBeNull();

  const deleteLee = button(card(page, "Key Lee"), "Delete submission");
  await tabUntilFocused(page, deleteLee);
  await expectFocusIndicator(deleteLee, "Delete submission");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.keyboard.press("Enter");
  await expect(notice(page, INBOX.deleted)).toBeVisible();
  await expect.poll(() => cardNames(page)).toEqual(["Key Kim"]);
  await expect(page.locator("#inbox-list [data-focus-fallback]")).toBeFocused();

  await tabUntilFocused(page, filterTab(page, "All"), "Shift+Tab");
  await expectFocusIndicator(filterTab(page, "All"), "the All filter");
  await page.keyboard.press("End");
  await expect(page).toHaveURL(/\/admin\/enquiries\?filter=spam$/);
  await expectFocusIndicator(filterTab(page, "Spam"), "the Spam filter");
  const notSpam = button(card(page, "Key Spam"), "Not spam");
  await tabUntilFocused(page, notSpam);
  await expectFocusIndicator(notSpam, "Not spam");
  await page.keyboard.press("Enter");
  await expect(notice(page, INBOX.notSpamDone)).toBeVisible();
  await expect(page.getByText(INBOX.emptySpam, { exact: true })).toBeVisible();
  await expect(page.locator("#inbox-list [data-focus-fallback]")).toBeFocused();
  expect((await storedInbox()).map((row) => [row.name, row.spam])).toEqual([
    ["Key Kim", null],
    ["Key Spam", null],
  ]);

  const exportCsv = page.getByRole("link", { name: "Export CSV", exact: true });
  await tabUntilFocused(page, exportCsv, "Shift+Tab");
  await expectFocusIndicator(exportCsv, "Export CSV");
  const download = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);

  const dataRequests = page.getByRole("link", { name: "Data requests (GDPR)", exact: true });
  await page.keyboard.press("Tab");
  await expectFocusIndicator(dataRequests, "Data requests (GDPR)");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Data requests (UK GDPR)", level: 1 })).toBeVisible();
});

test("each real card says where its notification e-mail is; a failed one has 'Retry now'", async ({ page }) => {
  const [failed, sent, queued, spam] = await resetInbox([
    { name: "Failed Fay", email: "fay@example.com", userType: "landlord", message: "One.", createdAt: "2026-11-01T09:00:00.000Z" },
    { name: "Sent Sid", email: "sid@example.com", userType: "tenant", message: "Two.", createdAt: "2026-11-02T09:00:00.000Z" },
    { name: "Queued Quin", email: "quin@example.com", userType: "investor", message: "Three.", createdAt: "2026-11-03T09:00:00.000Z" },
    { name: "Spam Stan", email: "stan@example.com", userType: "other", message: "Four.", spam: "too-fast" },
  ]);
  await seedNotification(failed!, { status: "failed", attempts: 8, lastError: "Connection refused by smtp.example.com" });
  await seedNotification(sent!, { status: "sent", attempts: 1, sentAt: "2026-07-01T08:30:00.000Z" });
  await seedNotification(queued!, { status: "queued", attempts: 0, nextAttemptAt: new Date().toISOString() });
  await seedNotification(spam!, { status: "failed", attempts: 1, lastError: "not shown" });
  await openInbox(page);
  await expect(card(page, "Failed Fay")).toContainText("Notification e-mail: failed — Connection refused by smtp.example.com; gave up after 8 attempts");
  await expect(card(page, "Sent Sid")).toContainText("Notification e-mail: sent 1 Jul 2026, 09:30");
  await expect(card(page, "Queued Quin")).toContainText("Notification e-mail: queued");
  await expect(button(card(page, "Sent Sid"), "Retry now")).toHaveCount(0);
  await expect(button(card(page, "Queued Quin"), "Retry now")).toHaveCount(0);

  await button(card(page, "Failed Fay"), "Retry now").click();
  await expect(notice(page, INBOX.retried)).toBeVisible();
  await expect(card(page, "Failed Fay")).toContainText(/Notification e-mail: failed — Connection refused by smtp\.example\.com; retrying (now|at \d\d:\d\d)/);
  expect((await storedNotification(failed!))?.next_attempt_at).not.toBeNull();

  await showFilter(page, "Spam");
  await expect.poll(() => cardNames(page)).toEqual(["Spam Stan"]);
  await expect(card(page, "Spam Stan").getByText(/Notification e-mail/)).toHaveCount(0);
  await expect(button(card(page, "Spam Stan"), "Retry now")).toHaveCount(0);
});

test.describe("on a 360 px wide phone", () => {
  test.use({ viewport: { width: 360, height: 800 } });

  test("search, tabs, the status, assignee and Due filters, bulk bar, spam reasons, status lines and a card's pipeline fit without sideways scrolling", async ({
    page,
  }) => {
    const long = "averyveryverylongnamewithoutanyspacesatallthatkeepsgoing";
    const [first] = await resetInbox([
      { name: `${long} Landlord`, email: `${long}@example-lettings-company.co.uk`, phone: "020 7946 0999", userType: "landlord", message: `${long} ${long}` },
      { name: "Spam Sam", email: "sam@example.com", userType: "other", message: `${long}${long}`, spam: "link-in-name" },
    ]);
    await seedNotification(first!, {
      status: "failed",
      attempts: 3,
      lastError: `${long}: ${long}`,
      nextAttemptAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await withSiteDb((db) => db.updateTable("contact_submissions").set({ follow_up_on: "2026-01-01" }).where("id", "=", first!).execute());
    for (const filter of ["all", "spam"] as const) {
      await (filter === "all" ? openInbox(page) : page.goto("/admin/enquiries?filter=spam"));
      await waitForHydration(page);
      await expect(bulkBar(page)).toBeVisible();
      await expect(page.getByRole("searchbox", { name: "Search submissions" })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${filter}: sideways overflow in px`).toBeLessThanOrEqual(0);
    }
  });
});

test("the dashboard says quietly, on both tabs, that e-mail notifications are off", async ({ page }) => {
  await resetInbox();
  await openInbox(page);
  const note = page.getByText("E-mail notifications are off: new enquiries are only shown here.", { exact: true });
  await expect(note).toBeVisible();
  await mainTab(page, "Renovation Projects").click();
  await expect(note).toBeVisible();
  await expect(page.getByText(/Notification e-mails are failing/)).toHaveCount(0);
});

test("the pipeline's Status from the keyboard: Contacted, then Not proceeding with a reason; a note; the filter by status beside the tabs; axe finds nothing", async ({
  page,
}) => {
  await resetInbox([
    { name: "Lena Landlord", email: "lena@example.com", userType: "landlord", message: "Two flats to let.", createdAt: "2026-11-02T12:00:00.000Z" },
    { name: "Tom Tenant", email: "tom@example.com", userType: "tenant", message: "Looking for a flat.", createdAt: "2026-11-01T12:00:00.000Z" },
  ]);
  await openInbox(page);
  const lena = card(page, "Lena Landlord");
  const status = lena.getByLabel("Status", { exact: true });
  await expect(status).toHaveValue("new");
  // Reached with Tab; the native list is the browser's own keyboard control.
  await tabUntilFocused(page, status);
  await status.selectOption("contacted");
  await tabUntilFocused(page, button(lena, "Update status"));
  await page.keyboard.press("Enter");
  await expect(notice(page, "Status changed to Contacted.")).toBeVisible();
  await expect(lena).toContainText(/Contacted \(changed by /);

  // Not proceeding shows why, from a list or typed.
  await status.selectOption("not-proceeding");
  const reason = lena.getByLabel("Why it is not proceeding");
  await expect(reason).toBeVisible();
  await reason.selectOption("Fees too high");
  await expectAccessible(page, "a card choosing Not proceeding");
  await button(lena, "Update status").click();
  await expect(notice(page, "Status changed to Not proceeding.")).toBeVisible();
  await expect(lena).toContainText("Not proceeding: Fees too high");

  // A note for the team, from the keyboard: shown on the card with who and when, and the box empty again.
  const note = lena.getByLabel("Add a note (only the team sees it)");
  await tabUntilFocused(page, note);
  await page.keyboard.type("Called back; prefers e-mail.");
  await page.keyboard.press("Tab");
  await expectFocusIndicator(button(lena, "Add note"), "Add note");
  await page.keyboard.press("Enter");
  await expect(notice(page, "Note added.")).toBeVisible();
  await expect(lena.getByRole("heading", { name: "Notes (1)" })).toBeVisible();
  await expect(lena).toContainText("Called back; prefers e-mail.");
  await expect(lena.getByLabel("Add a note (only the team sees it)")).toHaveValue("");

  // The filter by status, beside the specification's tabs; the tabs' counts follow it.
  await page.getByLabel("Show enquiries with the status").selectOption("new");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page).toHaveURL(/status=new/);
  await expect.poll(() => cardNames(page)).toEqual(["Tom Tenant"]);
  await expect(filterTab(page, "All")).toContainText("(1)");
  await expectAccessible(page, "the inbox filtered by status");
});

/** A UK day `days` from today, as a date field holds it: "2026-11-26". */
function ukDay(days: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date(Date.now() + days * 86_400_000));
}

test("Assigned to and Follow up on from the keyboard; Mine and Due beside the tabs; the header counts what is due; axe finds nothing", async ({ page }) => {
  await resetInbox([
    { name: "Lena Landlord", email: "lena@example.com", userType: "landlord", message: "Two flats to let.", createdAt: "2026-11-02T12:00:00.000Z" },
    { name: "Tom Tenant", email: "tom@example.com", userType: "tenant", message: "Looking for a flat.", createdAt: "2026-11-01T12:00:00.000Z" },
  ]);
  await openInbox(page);
  const lena = card(page, "Lena Landlord");
  const assignee = lena.getByLabel("Assigned to", { exact: true });
  await expect(assignee).toHaveValue("");
  await tabUntilFocused(page, assignee);
  await assignee.selectOption({ index: 1 });
  await tabUntilFocused(page, button(lena, "Assign"));
  await expectFocusIndicator(button(lena, "Assign"), "Assign");
  await page.keyboard.press("Enter");
  await expect(notice(page, "Enquiry assigned.")).toBeVisible();
  await expect(card(page, "Lena Landlord").getByLabel("Assigned to", { exact: true })).not.toHaveValue("");

  // A follow-up day three days ago: overdue, said in words.
  const followUp = card(page, "Lena Landlord").getByLabel("Follow up on");
  await tabUntilFocused(page, followUp);
  await followUp.fill(ukDay(-3));
  await button(card(page, "Lena Landlord"), "Save date").click();
  await expect(notice(page, "Follow-up date saved.")).toBeVisible();
  await expect(card(page, "Lena Landlord").getByText("Overdue", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "1 to follow up" })).toBeVisible();
  // The timeline, folded under its own summary, opened from the keyboard.
  const timeline = card(page, "Lena Landlord").locator("summary", { hasText: /^Timeline \(3\)$/ });
  await tabUntilFocused(page, timeline);
  await page.keyboard.press("Enter");
  await expect(
    card(page, "Lena Landlord")
      .getByRole("listitem")
      .filter({ hasText: /Assigned to .+ by / }),
  ).toBeVisible();
  await expect(
    card(page, "Lena Landlord")
      .getByRole("listitem")
      .filter({ hasText: /Follow up on \w+day \d+ \w+ \d{4}, set by / }),
  ).toBeVisible();
  await expectAccessible(page, "a card assigned, with a follow-up day and its timeline open");

  // Mine, beside the tabs; the tabs' counts follow it.
  await page.getByLabel("Assigned to", { exact: true }).first().selectOption("mine");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page).toHaveURL(/assignee=mine/);
  await expect.poll(() => cardNames(page)).toEqual(["Lena Landlord"]);
  await expect(filterTab(page, "All")).toContainText("(1)");

  // Due, from the header's count.
  await page.getByRole("link", { name: "1 to follow up" }).click();
  await expect(page).toHaveURL(/due=1/);
  await expect(page.getByLabel(/^Due: to follow up today or earlier/)).toBeChecked();
  await expect.poll(() => cardNames(page)).toEqual(["Lena Landlord"]);
  await expectAccessible(page, "the inbox's Due view");

  // Cleared, nothing is due.
  await button(card(page, "Lena Landlord"), "Clear date").click();
  await expect(page.getByText("No enquiries here match what you chose.")).toBeVisible();
  await expect(page.getByRole("link", { name: /to follow up$/ })).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign in, open Contact Submissions, mark as read, delete after the on-page confirmation", async ({ page }) => {
    await resetInbox([
      { name: "Ned Plain", email: "ned@example.com", userType: "tenant", message: "Older, stays.", createdAt: "2026-11-01T12:00:00.000Z" },
      {
        name: "Nina Plain",
        email: "nina@example.com",
        phone: "07700 900789",
        userType: "landlord",
        message: "Newer, goes.",
        createdAt: "2026-11-02T12:00:00.000Z",
      },
    ]);
    // Signed out, to sign in through the plain form.
    await page.context().clearCookies();
    await page.goto("/admin");
    await expect(loginHeading(page)).toBeVisible();
    await submitSignIn(page);
    await expect(welcome(page)).toBeVisible();

    await mainTab(page, "Contact Submissions").click();
    await expect(page).toHaveURL(/\/admin\/enquiries$/);
    await expectCounts(page, { all: 2, unread: 2, read: 0 });
    await expect.poll(() => cardNames(page)).toEqual(["Nina Plain", "Ned Plain"]);
    const nina = card(page, "Nina Plain");
    await expect(nina.locator("time").first()).toHaveText("2 Nov 2026, 12:00");

    // Mark as read: a plain form post; the page that comes back says so.
    await button(nina, "Mark as read").click();
    await expect(notice(page, INBOX.markedRead)).toBeVisible();
    await expect(mainTab(page, "Contact Submissions")).toHaveAttribute("aria-selected", "true");
    await expect(button(nina, "Mark as unread")).toBeVisible();
    await expect(unreadBadge(nina)).toHaveCount(0);
    await expectCounts(page, { all: 2, unread: 1, read: 1 });
    expect((await storedInbox()).map((row) => [row.name, row.read])).toEqual([
      ["Nina Plain", true],
      ["Ned Plain", false],
    ]);

    // Delete: the page asks first, in the card, with the same words.
    await button(nina, "Delete submission").click();
    const confirmation = nina.getByRole("alert");
    await expect(confirmation).toContainText(INBOX.deleteConfirm);
    expect((await storedInbox()).length, "nothing is deleted before the confirmation").toBe(2);
    // Cancel keeps it.
    await confirmation.getByRole("link", { name: "Cancel", exact: true }).click();
    await expect(nina.getByRole("alert")).toHaveCount(0);
    await expect(nina).toBeVisible();
    expect((await storedInbox()).length).toBe(2);

    await button(nina, "Delete submission").click();
    await button(nina.getByRole("alert"), "Delete submission").click();
    await expect(notice(page, INBOX.deleted)).toBeVisible();
    await expect(card(page, "Nina Plain")).toHaveCount(0);
    await expect(card(page, "Ned Plain")).toBeVisible();
    await expectCounts(page, { all: 1, unread: 1, read: 0 });
    expect((await storedInbox()).map((row) => row.name)).toEqual(["Ned Plain"]);

    // The filter tabs are links too.
    await showFilter(page, "Read");
    await expect(page).toHaveURL(/\/admin\/enquiries\?filter=read$/);
    await expect(page.getByText(INBOX.emptyRead, { exact: true })).toBeVisible();
  });

  test("search, Spam and Not spam, bulk mark read, and bulk delete after the on-page confirmation, all as plain forms and links", async ({ page }) => {
    await resetInbox([
      { name: "Plain Ada", email: "ada@example.com", userType: "tenant", message: "About the boiler.", createdAt: "2026-11-01T12:00:00.000Z" },
      { name: "Plain Bea", email: "bea@example.com", userType: "tenant", message: "Gutters.", createdAt: "2026-11-02T12:00:00.000Z" },
      { name: "Plain Cy", email: "cy@example.com", userType: "tenant", message: "Boiler again.", createdAt: "2026-11-03T12:00:00.000Z" },
      { name: "Plain Bot", email: "bot@example.com", userType: "other", message: "Spam.", createdAt: "2026-11-04T12:00:00.000Z", spam: "no-token" },
    ]);
    await page.goto("/admin/enquiries");
    await expectCounts(page, { all: 3, unread: 3, read: 0, spam: 1 });

    // Search: a GET form.
    await page.getByRole("searchbox", { name: "Search submissions" }).fill("boiler");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/enquiries\?q=boiler$/);
    await expect.poll(() => cardNames(page)).toEqual(["Plain Cy", "Plain Ada"]);
    await page.getByRole("link", { name: "Clear search", exact: true }).click();

    // Spam and Not spam.
    await showFilter(page, "Spam");
    await expect(page).toHaveURL(/\/admin\/enquiries\?filter=spam$/);
    await expect(card(page, "Plain Bot")).toContainText("Caught as spam: Sent without the form's timing token");
    await button(card(page, "Plain Bot"), "Not spam").click();
    await expect(notice(page, INBOX.notSpamDone)).toBeVisible();
    await expectCounts(page, { all: 4, unread: 4, read: 0, spam: 0 });
    await expect(page.getByText(INBOX.emptySpam, { exact: true })).toBeVisible();

    // Bulk mark read: the ticked boxes join the bar's form.
    await showFilter(page, "All");
    await tick(page, "Plain Ada").check();
    await tick(page, "Plain Bea").check();
    await button(bulkBar(page), "Mark as read").click();
    await expect(notice(page, INBOX.bulkMarkedRead(2))).toBeVisible();
    await expectCounts(page, { all: 4, unread: 2, read: 2 });

    // "Select all on this page" is a link that comes back with every box ticked.
    await bulkBar(page).getByRole("link", { name: "Select all on this page" }).click();
    await expect(page).toHaveURL(/select=all/);
    for (const name of ["Plain Bot", "Plain Cy", "Plain Bea", "Plain Ada"]) await expect(tick(page, name)).toBeChecked();
    await tick(page, "Plain Bot").uncheck();
    await tick(page, "Plain Cy").uncheck();

    // Bulk delete: the page asks first; Cancel keeps them; confirmed, they go.
    await button(bulkBar(page), "Delete selected").click();
    const confirmation = page.locator("#inbox-list").getByRole("alert");
    await expect(confirmation).toContainText(INBOX.bulkConfirm(2));
    expect((await storedInbox()).length, "nothing is deleted before the confirmation").toBe(4);
    await confirmation.getByRole("link", { name: "Cancel", exact: true }).click();
    await expect(page.locator("#inbox-list").getByRole("alert")).toHaveCount(0);
    expect((await storedInbox()).length).toBe(4);

    await tick(page, "Plain Ada").check();
    await tick(page, "Plain Bea").check();
    await button(bulkBar(page), "Delete selected").click();
    await button(page.locator("#inbox-list").getByRole("alert"), "Delete selected").click();
    await expect(notice(page, INBOX.bulkDeleted(2))).toBeVisible();
    await expect.poll(() => cardNames(page)).toEqual(["Plain Bot", "Plain Cy"]);
    expect((await storedInbox()).map((row) => row.name)).toEqual(["Plain Bot", "Plain Cy"]);
  });
  test("Assigned to, Follow up on and Due without JavaScript, as plain forms", async ({ page }) => {
    await resetInbox([
      { name: "Paul Plain", email: "paul@example.com", userType: "landlord", message: "A house to let.", createdAt: "2026-11-02T12:00:00.000Z" },
      { name: "Quinn Plain", email: "quinn@example.com", userType: "tenant", message: "A room.", createdAt: "2026-11-01T12:00:00.000Z" },
    ]);
    await page.goto("/admin/enquiries");
    await card(page, "Paul Plain").getByLabel("Assigned to", { exact: true }).selectOption({ index: 1 });
    await button(card(page, "Paul Plain"), "Assign").click();
    await expect(notice(page, "Enquiry assigned.")).toBeVisible();
    await card(page, "Paul Plain").getByLabel("Follow up on").fill(ukDay(0));
    await button(card(page, "Paul Plain"), "Save date").click();
    await expect(card(page, "Paul Plain").getByText("Due today", { exact: true })).toBeVisible();
    await page.getByLabel(/^Due: to follow up today or earlier \(1\)/).check();
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await expect(page).toHaveURL(/due=1/);
    await expect.poll(() => cardNames(page)).toEqual(["Paul Plain"]);
  });

  test("the Status without JavaScript: Not proceeding asks for its reason on the page, then keeps it", async ({ page }) => {
    await resetInbox([
      { name: "Petra Plain", email: "petra@example.com", userType: "landlord", message: "A house to let.", createdAt: "2026-11-02T12:00:00.000Z" },
    ]);
    await page.goto("/admin/enquiries");
    const petra = card(page, "Petra Plain");
    await petra.getByLabel("Status", { exact: true }).selectOption("not-proceeding");
    await button(petra, "Update status").click();
    await expect(page.getByText("Choose why it is not proceeding, or type the reason.")).toBeVisible();
    const again = card(page, "Petra Plain");
    await again.getByLabel("Why it is not proceeding").selectOption("other");
    await again.getByLabel("The reason, in a few words").fill("Selling instead");
    await button(again, "Update status").click();
    await expect(card(page, "Petra Plain")).toContainText("Not proceeding: Selling instead");
  });
});

test("How the team is doing: the week's figures follow a status change, fit 360 px, and axe finds nothing", async ({ page }) => {
  await resetInbox([
    { name: "Fiona Figures", email: "fiona@example.com", userType: "landlord", message: "A flat to let." },
    { name: "Gus Waiting", email: "gus@example.com", userType: "landlord", message: "A house to let." },
  ]);
  await page.setViewportSize({ width: 360, height: 800 });
  await openInbox(page);
  const table = page.getByRole("region", { name: "How the team is doing" }).getByRole("table", { name: "This week and last week" });
  const figure = (name: string) => table.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
  await expect(table.getByRole("columnheader", { name: /^This week/ })).toBeVisible();
  await expect(figure("Enquiries").getByRole("cell").first()).toHaveText("2");
  await expect(figure("Became Instructed").getByRole("cell").first()).toHaveText("0% (0 of 2)");
  await expect(figure("Median time to first response (office hours)").getByRole("cell").first()).toHaveText("No responses yet");

  const fiona = card(page, "Fiona Figures");
  await fiona.getByLabel("Status", { exact: true }).selectOption("instructed");
  await button(fiona, "Update status").click();
  await expect(notice(page, "Status changed to Instructed.")).toBeVisible();
  await expect(figure("Status: Instructed").getByRole("cell").first()).toHaveText("1");
  await expect(figure("Became Instructed").getByRole("cell").first()).toHaveText("50% (1 of 2)");
  await expect(figure("Answered").getByRole("cell").first()).toHaveText("1 of 2");
  await expect(figure("Median time to first response (office hours)").getByRole("cell").first()).not.toHaveText("No responses yet");
  await expect(page.getByRole("link", { name: "Month by month (CSV)" })).toHaveAttribute("href", "/admin/enquiries/figures.csv");

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "sideways overflow in px").toBeLessThanOrEqual(0);
  await expectAccessible(page, "the figures of how the team is doing");
});

test("Older and Newer page by a cursor, say which page, and keep the cards of each (decision 058)", async ({ page }) => {
  // 53 enquiries, three to each second: the first page ends inside a tie.
  const enquiries: SeedEnquiry[] = Array.from({ length: 53 }, (_, index) => ({
    name: `Pager ${String(index).padStart(2, "0")}`,
    email: `pager${index}@example.com`,
    userType: "tenant",
    message: "A room to rent.",
    createdAt: new Date(Date.UTC(2026, 10, 3, 12, 0, Math.floor(index / 3))).toISOString(),
  }));
  await resetInbox(enquiries);
  await openInbox(page);
  const pager = page.getByRole("navigation", { name: "Pages of submissions" });
  await expect(pager.getByText("Page 1", { exact: true })).toBeVisible();
  const first = await cardNames(page);
  expect(first).toHaveLength(50);

  await pager.getByRole("link", { name: /Older submissions/ }).click();
  await expect(page).toHaveURL(/[?&]page=2&after=/);
  await expect(pager.getByText("Page 2", { exact: true })).toBeVisible();
  await expect(cards(page)).toHaveCount(3);
  const second = await cardNames(page);
  expect([...first, ...second].sort()).toEqual(enquiries.map((enquiry) => enquiry.name).sort());
  await expect(pager.getByRole("link", { name: /Older submissions/ })).toHaveCount(0);

  await pager.getByRole("link", { name: /Newer submissions/ }).click();
  await expect(pager.getByText("Page 1", { exact: true })).toBeVisible();
  await expect(cards(page)).toHaveCount(50);
  expect(await cardNames(page)).toEqual(first);
});
