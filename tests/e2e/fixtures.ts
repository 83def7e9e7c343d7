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
 * (decision 015), each when it comes near the screen or is first touched
 * (decision 072): the entry's listeners must be installed (`data-enhanced`) and
 * every island whose hydration has begun hydrated; the buttons outside them
 * work through the page's one click listener. Other pages hydrate the whole document
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
            // Islands wake when they come near the screen or are touched (decision 072); a click on one
            // still waking is held and given again once it is hydrated, so only those begun must be done.
            const interactive = Array.from(document.querySelectorAll("[data-island][data-island-hydrating] :is(button, form)"));
            return document.body.hasAttribute("data-enhanced") && interactive.every(hydrated);
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
    return db.prepare("select * from contact_submissions where email = ? order by created_at").all(email) as unknown as StoredEnquiryRow[];
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

// ---- keyboard and contrast ----

/** Presses Tab (or Shift+Tab) until the target has focus (at most 80 times: a card of the inbox has some twenty stops), as a keyboard user would. */
export async function tabUntilFocused(page: Page, target: Locator, key: "Tab" | "Shift+Tab" = "Tab"): Promise<void> {
  for (let presses = 0; presses < 80; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  await expect(target, `reached with ${key}`).toBeFocused();
}

/**
 * Presses `key` until focus leaves the page (at most `stops` times) and
 * asserts at every stop that the focused control shows its focus and is not
 * hidden. Returns the controls' names, in the order visited.
 */
export async function tabThroughPage(page: Page, key: "Tab" | "Shift+Tab", stops = 80): Promise<string[]> {
  const visited: string[] = [];
  for (let stop = 0; stop < stops; stop += 1) {
    await page.keyboard.press(key);
    const name = await page.evaluate(() => {
      const active = document.activeElement;
      if (!active || active === document.body) return null;
      const label = active.getAttribute("aria-label") ?? (active as HTMLInputElement).labels?.[0]?.textContent ?? active.textContent ?? "";
      return `${active.tagName.toLowerCase()} "${label.replace(/\s+/g, " ").trim()}"`;
    });
    if (name === null) break;
    // Marked, not found by ":focus": a date field's focus is in its own inner parts, which that selector does not see.
    await page.evaluate(() => {
      for (const marked of Array.from(document.querySelectorAll("[data-e2e-focused]"))) marked.removeAttribute("data-e2e-focused");
      document.activeElement?.setAttribute("data-e2e-focused", "");
    });
    await expectFocusIndicator(page.locator("[data-e2e-focused]"), name);
    visited.push(name);
  }
  return visited;
}

/**
 * Asserts that the target has keyboard focus and that a sighted keyboard user
 * can see where it is (WCAG 2.4.7, 1.4.11, 2.4.11): an outline (or a
 * box-shadow ring) at least 2 px wide, in a colour with 3:1 contrast against
 * what is painted beneath it, and the element not hidden under anything (the
 * fixed header). A visually hidden control (a file input inside its drop
 * zone) may show its focus on the nearest ancestor that draws one. Polled,
 * because focusing may start a smooth scroll.
 */
export async function expectFocusIndicator(target: Locator, what = "the focused element"): Promise<void> {
  await expect.poll(() => target.evaluate((element) => element === document.activeElement), { message: `${what} has focus` }).toBe(true);
  await expect.poll(() => target.evaluate(seenInPage, "focus"), { message: `${what} shows a visible focus indicator`, intervals: [50, 100, 250] }).toBe("");
}

/**
 * The lowest contrast the element's text can have against whatever may be
 * beneath it: every colour of a gradient, black and white under an image,
 * translucent layers (a blurred header, a label over a photo) blended in.
 * For the text axe-core leaves "to review" because it cannot work out the
 * background; "" when the ratio is at least `minimum`, else what is wrong.
 */
export function textContrastProblem(target: Locator, minimum: number): Promise<string> {
  return target.evaluate(seenInPage, `text:${minimum}`);
}

/**
 * Whether a control can be made out by its edge (WCAG 1.4.11): a text field,
 * or the chosen tab of a set, whose border, ring or fill has 3:1 contrast
 * against what is around it; and whether its placeholder, if any, can be
 * read (4.5:1). "" when both hold, else what is wrong.
 */
export function edgeContrastProblem(target: Locator): Promise<string> {
  return target.evaluate(seenInPage, "edge");
}

/**
 * In the page (serialised, so self-contained): "" when the element can be
 * seen as `check` asks ("focus": its focus indicator; "text:<ratio>": its
 * text contrast; "edge": a control's edge and placeholder), else a
 * description of what is wrong.
 */
function seenInPage(element: Element, check: string): string {
  type Rgba = [number, number, number, number];
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 1;
  const context = canvas.getContext("2d", { willReadFrequently: true })!;
  const toRgba = (colour: string): Rgba => {
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = "#000";
    context.fillStyle = colour;
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const COLOUR = /(rgba?|oklch|oklab|lab|lch|hsla?|color)\([^)]*\)/g;
  const over = (top: Rgba, bottom: Rgba): Rgba => {
    const a = top[3];
    return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
  };
  const luminance = ([r, g, b]: Rgba) => {
    const linear = (channel: number) => {
      const c = channel / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const contrast = (a: Rgba, b: Rgba) => {
    const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (high + 0.05) / (low + 0.05);
  };
  const rgb = (colour: Rgba) => `rgb(${colour.slice(0, 3).map(Math.round).join(", ")})`;
  const tagOf = (node: Element) => {
    const classes = node.getAttribute("class");
    return `<${node.tagName.toLowerCase()}${node.id ? ` id="${node.id}"` : ""}${classes ? ` class="${classes}"` : ""}>`;
  };

  /**
   * The colours that may be painted at (x, y) beneath `from` (or beneath
   * everything): translucent layers are blended down to the first opaque
   * colour; a gradient gives each of its colours; an image, black or white.
   */
  const backdropsAt = (x: number, y: number, from?: Element): Rgba[] => {
    const stack = document.elementsFromPoint(x, y);
    const start = from ? Math.max(0, stack.indexOf(from)) : 0;
    const layers: Rgba[] = [];
    let bottoms: Rgba[] = [[255, 255, 255, 1]];
    for (const node of stack.slice(start)) {
      const style = getComputedStyle(node);
      const colour = toRgba(style.backgroundColor);
      if (colour[3] >= 1) {
        bottoms = [colour];
        break;
      }
      if (colour[3] > 0) layers.push(colour);
      if (node instanceof HTMLImageElement || style.backgroundImage.includes("url(")) {
        bottoms = [
          [0, 0, 0, 1],
          [255, 255, 255, 1],
        ];
        break;
      }
      if (style.backgroundImage.includes("gradient(")) {
        bottoms = (style.backgroundImage.match(COLOUR) ?? []).map((stop) => over(toRgba(stop), [255, 255, 255, 1]));
        break;
      }
    }
    return bottoms.map((bottom) => layers.reduceRight<Rgba>((below, layer) => over(layer, below), bottom));
  };

  if (check.startsWith("text:")) {
    const minimum = Number(check.slice("text:".length));
    element.scrollIntoView({ block: "center", behavior: "instant" });
    const rect = element.getBoundingClientRect();
    const text = toRgba(getComputedStyle(element).color);
    for (const backdrop of backdropsAt(rect.left + rect.width / 2, rect.top + rect.height / 2, element)) {
      const ratio = contrast(over(text, backdrop), backdrop);
      if (ratio < minimum) return `${tagOf(element)}: text ${rgb(text)} on ${rgb(backdrop)} has contrast ${ratio.toFixed(2)}:1, under ${minimum}:1`;
    }
    return "";
  }

  /** Tailwind's rings: box-shadows with no offset and no blur, only a spread. */
  const ringsOf = (style: CSSStyleDeclaration) =>
    (style.boxShadow === "none" ? [] : style.boxShadow.split(/,(?![^(]*\))/)).flatMap((shadow) => {
      const colour = shadow.match(COLOUR)?.[0];
      const [x = 0, y = 0, blur = 0, spread = 0] = (shadow.replace(COLOUR, "").match(/-?[\d.]+px/g) ?? []).map(parseFloat);
      const rgba = colour ? toRgba(colour) : undefined;
      return rgba && rgba[3] > 0 && x === 0 && y === 0 && blur === 0 && spread > 0 ? [{ colour: rgba, spread, inset: shadow.includes("inset") }] : [];
    });

  if (check === "edge") {
    element.scrollIntoView({ block: "center", behavior: "instant" });
    const rect = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const fill = toRgba(style.backgroundColor);
    // Just outside its edge (and outside a ring of a pixel or two).
    const [x, y] = rect.left - 4 >= 0 ? [rect.left - 4, rect.top + rect.height / 2] : [rect.right + 4, rect.top + rect.height / 2];
    const around = backdropsAt(x, y);
    const edges: Rgba[] = ringsOf(style).map((ring) => ring.colour);
    if (style.borderLeftStyle !== "none" && parseFloat(style.borderLeftWidth) >= 1) edges.push(toRgba(style.borderLeftColor));
    if (fill[3] > 0) edges.push(fill);
    const seen = edges.some((edge) => around.every((backdrop) => contrast(over(edge, backdrop), backdrop) >= 3));
    if (!seen) {
      return `${tagOf(element)}: no edge (${edges.map(rgb).join(", ") || "none"}) has 3:1 contrast against ${around.map(rgb).join(", ")}`;
    }
    if (element.getAttribute("placeholder")) {
      const placeholder = toRgba(getComputedStyle(element, "::placeholder").color);
      for (const backdrop of around) {
        const behind = over(fill, backdrop);
        const ratio = contrast(over(placeholder, behind), behind);
        if (ratio < 4.5)
          return `${tagOf(element)}: its placeholder ${rgb(over(placeholder, behind))} on ${rgb(behind)} has contrast ${ratio.toFixed(2)}:1, under 4.5:1`;
      }
    }
    return "";
  }

  type Indicator = { kind: string; width: number; offset: number; colour: Rgba };
  const indicatorOf = (node: Element): Indicator | null => {
    const style = getComputedStyle(node);
    if (style.outlineStyle !== "none" && style.outlineStyle !== "hidden" && parseFloat(style.outlineWidth) > 0) {
      return { kind: "outline", width: parseFloat(style.outlineWidth), offset: parseFloat(style.outlineOffset) || 0, colour: toRgba(style.outlineColor) };
    }
    const ring = ringsOf(style).find((shadow) => !shadow.inset);
    return ring ? { kind: "ring", width: ring.spread, offset: 0, colour: ring.colour } : null;
  };

  // A visually hidden control shows its focus on a visible ancestor (at most three levels up).
  let holder: Element | null = element;
  const box = element.getBoundingClientRect();
  if (box.width <= 1 || box.height <= 1) {
    holder = element.parentElement;
    for (let level = 0; holder && level < 3 && !indicatorOf(holder); level += 1) holder = holder.parentElement;
    if (!holder || !indicatorOf(holder)) return `${tagOf(element)} is visually hidden and no ancestor shows its focus`;
  }
  const indicator = indicatorOf(holder);
  if (!indicator) {
    const style = getComputedStyle(holder);
    return `${tagOf(holder)} has no focus outline or ring (outline: ${style.outlineStyle} ${style.outlineWidth}; box-shadow: ${style.boxShadow})`;
  }
  if (indicator.width < 2) return `${tagOf(holder)}: its ${indicator.kind} is only ${indicator.width}px wide`;

  // Not hidden under something else (the fixed header): some point of it is on top. A link that wraps has a box per line.
  const rect = holder.getBoundingClientRect();
  const inside = Array.from(holder.getClientRects())
    .flatMap((line) => [
      [line.left + line.width / 2, line.top + line.height / 2],
      [line.left + 2, line.top + 2],
      [line.right - 2, line.bottom - 2],
    ])
    .filter(([x = -1, y = -1]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight);
  if (inside.length === 0) return `${tagOf(holder)} is outside the viewport`;
  const onTop = inside.map(([x = 0, y = 0]) => document.elementFromPoint(x, y));
  if (!onTop.some((node) => node && holder.contains(node))) {
    return `${tagOf(holder)} is covered by ${onTop[0] ? tagOf(onTop[0]) : "nothing visible"}`;
  }

  // The indicator against what is painted beneath its middle, on whichever side is on screen.
  const out = indicator.offset + indicator.width / 2;
  const middle = rect.top + rect.height / 2;
  const [x, y] = rect.left - out >= 0 ? [rect.left - out, middle] : [rect.right + out, middle];
  for (const backdrop of backdropsAt(x, y)) {
    const ratio = contrast(over(indicator.colour, backdrop), backdrop);
    if (ratio < 3) {
      return `${tagOf(holder)}: its ${indicator.kind} ${rgb(indicator.colour)} has contrast ${ratio.toFixed(2)}:1 against ${rgb(backdrop)}`;
    }
  }
  return "";
}
