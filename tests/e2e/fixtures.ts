import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect, type Locator, type Page } from "@playwright/test";

export { ACTIVE_IN_ORDER, HIDDEN_PROJECT, SEED_PROJECTS } from "./seed-data";

/** The anchors of SPEC §2, top to bottom. */
export const SECTION_IDS = ["home", "services", "renovations", "pricing", "about", "contact"] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/** Header navigation: accessible name → the section it scrolls to. */
export const NAV_TARGETS: ReadonlyArray<readonly [name: string, target: SectionId]> = [
  ["Home", "home"],
  ["Services", "services"],
  ["Renovations", "renovations"],
  ["Pricing", "pricing"],
  ["About", "about"],
  ["Contact Us", "contact"],
];

export const MESSAGES = {
  required: "Please fill in all required fields",
  invalidEmail: "Please enter a valid email address",
  success: "Thank you for your message! We'll get back to you within 24 hours.",
  failure: "Failed to send message. Please try again.",
} as const;

export function section(page: Page, id: SectionId): Locator {
  return page.locator(`#${id}`);
}

/** Escapes text for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Matches the whole text, ignoring case (the spec lists features in lower case; the page may capitalise). */
export function wholeText(text: string, flags = "i"): RegExp {
  return new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`, flags);
}

/** A link or a button: the spec leaves some of these open ("quick links", "Contact us link"). */
export function linkOrButton(scope: Locator | Page, name: string | RegExp): Locator {
  const options = { name, exact: typeof name === "string" };
  return scope.getByRole("link", options).or(scope.getByRole("button", options));
}

/**
 * Waits until React has hydrated the server-rendered page, so a click reaches
 * its handler. React attaches its props to every DOM element it hydrates; from
 * then on, a click on a part still hydrating is replayed by React after it has
 * hydrated that part synchronously. The landing page hydrates only its islands
 * (decision 015): every button inside one must be hydrated, and the buttons
 * outside them work through the page's one click listener, which the entry
 * installs before it hydrates anything. Other pages hydrate the whole document
 * with React Router, which creates its data router when hydration starts.
 */
export async function waitForHydration(page: Page): Promise<void> {
  // Polled with page.evaluate (CDP), not page.waitForFunction: the latter
  // compiles its predicate in the page, which the site's CSP rightly reports
  // as a blocked eval.
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const hydrated = (element: Element) => Object.keys(element).some((key) => key.startsWith("__reactProps$"));
          if (document.body.dataset.hydrate === "islands") {
            const islands = Array.from(document.querySelectorAll("[data-island]"));
            const interactive = Array.from(document.querySelectorAll("[data-island] button, [data-island] form"));
            return islands.length > 0 && interactive.length > 0 && interactive.every(hydrated);
          }
          const w = window as unknown as { __reactRouterDataRouter?: unknown };
          const buttons = Array.from(document.querySelectorAll("button"));
          return Boolean(w.__reactRouterDataRouter) && buttons.length > 0 && buttons.every(hydrated);
        }),
      { message: "the page hydrated", timeout: 15_000, intervals: [50, 100, 250] },
    )
    .toBe(true);
}

export async function gotoLanding(page: Page, url = "/"): Promise<void> {
  await page.goto(url);
  await waitForHydration(page);
}

/** The bottom edge of the fixed header: a section scrolled "into view" starts just below it. */
async function headerBottom(page: Page): Promise<number> {
  return page.evaluate(() => document.querySelector("header")?.getBoundingClientRect().bottom ?? 0);
}

/**
 * Asserts that a section was scrolled to: it is in the viewport, and its top
 * sits at the top of the viewport (at most just below the fixed header) —
 * unless the page is scrolled to the very end and cannot go further.
 */
export async function expectScrolledTo(page: Page, id: SectionId): Promise<void> {
  const target = section(page, id);
  await expect(target).toBeInViewport();
  const limit = (await headerBottom(page)) + 24;
  await expect
    .poll(
      () =>
        target.evaluate((element, limitPx) => {
          const top = element.getBoundingClientRect().top;
          const root = document.scrollingElement ?? document.documentElement;
          const atEnd = Math.ceil(root.scrollTop + root.clientHeight) >= root.scrollHeight - 1;
          const aligned = top >= -2 && top <= limitPx;
          return aligned || (atEnd && top >= -2 && top < root.clientHeight) ? "scrolled" : `top at ${Math.round(top)}px`;
        }, limit),
      { message: `#${id} scrolled to the top of the viewport`, timeout: 5_000 },
    )
    .toBe("scrolled");
}

/**
 * Scrolls instantly (no smooth behaviour) to the top or the very bottom and
 * waits until it is there. It scrolls again on every check, because the
 * bottom moves while lazy images above it load.
 */
export async function scrollToInstantly(page: Page, where: "top" | "bottom"): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate((to) => {
          const root = document.scrollingElement ?? document.documentElement;
          root.scrollTo({ top: to === "top" ? 0 : root.scrollHeight, behavior: "instant" });
          return to === "top" ? root.scrollTop === 0 : Math.ceil(root.scrollTop + root.clientHeight) >= root.scrollHeight - 1;
        }, where),
      { message: `scrolled to the ${where}`, intervals: [50, 100, 250] },
    )
    .toBe(true);
}

/** Colours as sRGB, whatever notation the stylesheet used (Tailwind 4 writes oklch). */
export async function colours(locator: Locator): Promise<{ text: number[]; background: number[] }> {
  return locator.evaluate((element) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    const toRgba = (colour: string): number[] => {
      if (!context) return [0, 0, 0, 0];
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = "#000";
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      return Array.from(context.getImageData(0, 0, 1, 1).data);
    };
    const text = toRgba(getComputedStyle(element).color);
    let background = [0, 0, 0, 0];
    for (let node: Element | null = element; node; node = node.parentElement) {
      const value = getComputedStyle(node).backgroundColor;
      if (value && value !== "transparent" && !/^rgba\(.*,\s*0\)$/.test(value)) {
        const rgba = toRgba(value);
        if ((rgba[3] ?? 0) > 0) {
          background = rgba;
          break;
        }
      }
    }
    return { text, background };
  });
}

/** True when the colour's dominant channel is the given one (green for success, red for errors). */
export function dominated(rgba: number[], channel: "red" | "green"): boolean {
  const [r = 0, g = 0, b = 0] = rgba;
  return channel === "red" ? r > g + 20 && r > b + 20 : g > r + 10 && g > b - 10;
}

// ---- the database the server writes (SQLite in E2E_DATA_DIR) ----

export type StoredEnquiryRow = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  user_type: string;
  message: string;
  is_read: number;
  created_at: string;
};

function databaseFile(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the tests through playwright.config.ts");
  return path.join(dataDir, "app.sqlite");
}

/** The stored enquiries sent with this e-mail address (addresses are unique per test). */
export function enquiriesFrom(email: string): StoredEnquiryRow[] {
  const db = new DatabaseSync(databaseFile(), { readOnly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    return db
      .prepare("select * from contact_submissions where email = ? order by created_at")
      .all(email) as unknown as StoredEnquiryRow[];
  } finally {
    db.close();
  }
}

let counter = 0;
/** An e-mail address no other test uses. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `e2e-${label}-${process.pid}-${Date.now()}-${counter}@example.com`;
}

/** An image that has loaded once scrolled to (the gallery's are lazy), from this site rather than an external host. */
export async function expectLoadedFromOurOrigin(image: Locator): Promise<void> {
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() =>
      image.evaluate((img: HTMLImageElement) => ({
        sameOrigin: new URL(img.currentSrc || img.src).origin === location.origin,
        loaded: img.complete && img.naturalWidth > 0,
      })),
    )
    .toEqual({ sameOrigin: true, loaded: true });
}
