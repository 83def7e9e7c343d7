import { expect, type Locator, type Page } from "@playwright/test";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { FLOOD_SIGNAL, type SpamSignal } from "~/enquiries/spam";
import { NO_MAIL, addNotification, type NotificationJob } from "../support/enquiries";
import { setSubmissionRead } from "~/enquiries/inbox.server";
import type { UserType } from "~/enquiries/schema";
import { openDatabase, type Db } from "~/platform/db/db.server";
import { waitForHydration } from "./fixtures";
import { TEST_ACTOR } from "../support/actors";

/**
 * The admin tests run against the "admin" server of playwright.config.ts: a
 * database of its own (so other spec files' enquiries never change its
 * counts), an admin account made from ADMIN_EMAIL/ADMIN_PASSWORD at start, and
 * a company name with characters that must be escaped in a mailto: URL.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through playwright.config.ts`);
  return value;
}

export const ADMIN_URL = required("E2E_ADMIN_URL");
export const ADMIN_EMAIL = required("E2E_ADMIN_EMAIL");
export const ADMIN_PASSWORD = required("E2E_ADMIN_PASSWORD");
export const ADMIN_COMPANY_NAME = required("E2E_ADMIN_COMPANY_NAME");
export const SESSION_COOKIE = "__Host-admin_session";

export const LOGIN = {
  title: "Admin Login",
  subtitle: "Sign in to access the admin dashboard",
  failure: "Error signing in. Please check your credentials.",
  busy: "Signing in...",
  checking: "Checking sign-in...",
} as const;

export const INBOX = {
  loading: "Loading contact submissions...",
  deleteConfirm: "Are you sure you want to delete this contact submission? This action cannot be undone.",
  deleted: "Contact submission deleted successfully.",
  markedRead: "Submission marked as read.",
  markedUnread: "Submission marked as unread.",
  emptyAll: "No contact submissions yet",
  emptyUnread: "No unread submissions",
  emptyRead: "No read submissions",
  emptySpam: "No spam caught",
  notSpamDone: "Moved to the inbox as unread.",
  released: "Released from Held: it is in your inbox now.",
  emptyHeld: "Nothing held",
  retried: "The notification e-mail will be sent again now.",
  bulkConfirm: (count: number) => `Are you sure you want to delete ${count} submissions?`,
  bulkMarkedRead: (count: number) => `${count} submissions marked as read.`,
  bulkDeleted: (count: number) => `${count} submissions deleted.`,
} as const;

// ---- the admin server's database, through the app's own data layer ----

/** Runs `work` on a second connection to a server's SQLite database (WAL lets both write). */
async function withDb<T>(dataDir: string, work: (db: Db) => Promise<T>): Promise<T> {
  const database = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/** The admin server's database. */
export function withAdminDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
  return withDb(required("E2E_ADMIN_DATA_DIR"), work);
}

/**
 * The "site" server's database, for admin pages that must not disturb the
 * admin server's counted inbox and projects (add to it, never empty it).
 */
export function withSiteDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
  return withDb(required("E2E_DATA_DIR"), work);
}

export type SeedEnquiry = {
  name: string;
  email: string;
  phone?: string;
  userType: UserType;
  message: string;
  /** ISO time of submission (the inbox lists newest first); now when left out. */
  createdAt?: string;
  read?: boolean;
  /** Caught as spam, for this reason (a code of app/enquiries/spam.ts). */
  spam?: SpamSignal;
  /** Arrived during a flood: held apart, under Held (without counting it for the dashboard's banner). */
  held?: boolean;
};

/** Empties the inbox and stores these enquiries, as the contact form would. Returns their ids in order. */
export async function resetInbox(enquiries: SeedEnquiry[] = []): Promise<string[]> {
  return withAdminDb(async (db) => {
    await db.deleteFrom("email_outbox").execute();
    await db.deleteFrom("contact_submissions").execute();
    return addEnquiries(db, enquiries);
  });
}

/** Stores these enquiries, as the contact form would, beside those already there. Returns their ids in order. */
export async function addEnquiries(db: Db, enquiries: SeedEnquiry[]): Promise<string[]> {
  const ids: string[] = [];
  for (const enquiry of enquiries) {
    const { name, email, phone, userType, message } = enquiry;
    const { id } = await saveEnquiry(
      db,
      { name, email, phone, userType, message },
      { ...NO_MAIL, verdict: enquiry.spam ? { kind: "spam", signals: [enquiry.spam] } : undefined },
    );
    if (enquiry.createdAt) {
      await db.updateTable("contact_submissions").set({ created_at: enquiry.createdAt }).where("id", "=", id).execute();
    }
    if (enquiry.read) await setSubmissionRead(db, id, true, TEST_ACTOR);
    if (enquiry.held) await db.updateTable("contact_submissions").set({ spam_signals: FLOOD_SIGNAL }).where("id", "=", id).execute();
    ids.push(id);
  }
  return ids;
}

/** Writes the notification e-mail job of an enquiry as the outbox would hold it (the admin server has e-mail off). */
export async function seedNotification(submissionId: string, job: NotificationJob): Promise<void> {
  await withAdminDb((db) => addNotification(db, submissionId, job));
}

/** The notification job of an enquiry, as stored. */
export async function storedNotification(submissionId: string) {
  return withAdminDb((db) =>
    db.selectFrom("email_outbox").select(["status", "attempts", "next_attempt_at"]).where("submission_id", "=", submissionId).executeTakeFirst(),
  );
}

export type StoredInboxRow = { id: string; name: string; read: boolean; spam: string | null };

/** What the admin server has stored, newest first. */
export async function storedInbox(): Promise<StoredInboxRow[]> {
  return withAdminDb(async (db) => {
    const rows = await db.selectFrom("contact_submissions").select(["id", "name", "is_read", "spam_reason"]).orderBy("created_at", "desc").execute();
    return rows.map((row) => ({ id: row.id, name: row.name, read: row.is_read === true || row.is_read === 1, spam: row.spam_reason }));
  });
}

// ---- pages ----

export function loginHeading(page: Page): Locator {
  return page.getByRole("heading", { name: LOGIN.title, level: 1 });
}

export function loginFields(page: Page) {
  return {
    email: page.getByLabel("Email", { exact: true }),
    password: page.getByLabel("Password", { exact: true }),
    submit: page.getByRole("button", { name: "Sign In", exact: true }),
  };
}

export function welcome(page: Page): Locator {
  return page.getByText(`Welcome, ${ADMIN_EMAIL}`, { exact: true });
}

/** Fills the sign-in form and submits it; waits for hydration first when JavaScript runs. */
export async function submitSignIn(
  page: Page,
  credentials: { email: string; password: string } = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
): Promise<void> {
  const fields = loginFields(page);
  await fields.email.fill(credentials.email);
  await fields.password.fill(credentials.password);
  await fields.submit.click();
}

/** Opens /admin, signs in with the admin's credentials and waits for the dashboard. */
export async function signIn(page: Page): Promise<void> {
  await page.goto("/admin");
  await expect(loginHeading(page)).toBeVisible();
  await waitForHydration(page);
  await submitSignIn(page);
  await expect(welcome(page)).toBeVisible();
}

/** Opens the Contact Submissions tab (filter: all) by its URL, hydrated; the page's context is signed in (signed-in.ts). */
export async function openInbox(page: Page, filter: "all" | "unread" | "read" | "spam" = "all"): Promise<void> {
  await page.goto(filter === "all" ? "/admin/enquiries" : `/admin/enquiries?filter=${filter}`);
  await expect(page.getByRole("heading", { name: "Contact Submissions", level: 2 })).toBeVisible();
  await waitForHydration(page);
}

/** The dashboard's two tabs. */
export function mainTab(page: Page, name: "Renovation Projects" | "Contact Submissions" | "Website" | "Team"): Locator {
  return page.getByRole("tablist", { name: "Admin Dashboard" }).getByRole("tab", { name, exact: true });
}

/** A filter tab of the inbox, whatever its count: "All (3)" is filterTab(page, "All"). */
export function filterTab(page: Page, label: "All" | "Unread" | "Read" | "Held" | "Spam"): Locator {
  return page.getByRole("tablist", { name: "Filter submissions" }).getByRole("tab", { name: new RegExp(`^${label} \\(`) });
}

/**
 * Shows another filter and waits until its list has arrived: the tab is
 * selected by the view the server answered with, and the list is no longer
 * busy. (Acting on a card before then acts on the view being left, whose
 * notice is not the new view's.)
 */
export async function showFilter(page: Page, label: "All" | "Unread" | "Read" | "Held" | "Spam"): Promise<void> {
  await filterTab(page, label).click();
  await expect(filterTab(page, label)).toHaveAttribute("aria-selected", "true");
  await expect(page.locator("#inbox-list")).toHaveAttribute("aria-busy", "false");
}

/** Asserts the four filter tabs' labels, e.g. { all: 3, unread: 2, read: 1 } (spam 0 unless given). */
export async function expectCounts(page: Page, counts: { all: number; unread: number; read: number; held?: number; spam?: number }): Promise<void> {
  await expect(page.getByRole("tablist", { name: "Filter submissions" }).getByRole("tab")).toHaveText([
    `All (${counts.all})`,
    `Unread (${counts.unread})`,
    `Read (${counts.read})`,
    `Held (${counts.held ?? 0})`,
    `Spam (${counts.spam ?? 0})`,
  ]);
}

/** The list of cards in the inbox panel. */
export function cards(page: Page): Locator {
  return page.locator("#inbox-list").getByRole("article");
}

/** The card of the enquiry from this (unique) sender: the article named by its h3. */
export function card(page: Page, name: string): Locator {
  return cards(page).filter({ has: page.getByRole("heading", { level: 3, name }) });
}

/**
 * The senders' names of the cards shown, top to bottom (without the "Unread"
 * badge). Read once: a page still arriving (a plain form's answer streams
 * in) may hold only some cards, so compare it with expect.poll.
 */
export async function cardNames(page: Page): Promise<string[]> {
  return cards(page)
    .getByRole("heading", { level: 3 })
    .evaluateAll((headings) => headings.map((h) => (h.firstChild?.textContent ?? "").trim()));
}

/** The notice above the cards after an action. */
export function notice(page: Page, text: string): Locator {
  return page.locator("#inbox-list").getByRole("status").filter({ hasText: text });
}

/** Resolves when released: holds requests in a page.route handler until the test lets them go. */
export function gate(): { wait: Promise<void>; release: () => void } {
  let release!: () => void;
  const wait = new Promise<void>((resolve) => (release = resolve));
  return { wait, release };
}

/**
 * The page's next action (a POST to a route's `.data`) reaches the server at once; its answer is
 * held back from the page until `release()`. `answered` resolves once the server has answered.
 */
export async function holdActionAnswer(page: Page): Promise<{ answered: Promise<void>; release: () => void; stop: () => Promise<void> }> {
  const held = gate();
  const answered = gate();
  const isData = (url: URL) => url.pathname.endsWith(".data");
  await page.route(isData, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    const response = await route.fetch();
    answered.release();
    await held.wait;
    await route.fulfill({ response });
  });
  return { answered: answered.wait, release: held.release, stop: () => page.unroute(isData) };
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
