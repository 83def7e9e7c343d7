import { expect, test, type Page } from "@playwright/test";
import {
  expectLoadedFromOurOrigin,
  ACTIVE_IN_ORDER,
  HIDDEN_PROJECT,
  NAV_TARGETS,
  SECTION_IDS,
  expectScrolledTo,
  gotoLanding,
  linkOrButton,
  scrollToInstantly,
  section,
  waitForHydration,
  wholeText,
} from "./fixtures";

/** SPEC §9, word for word (the page may capitalise the first letter). */
const GOLD_FEATURES = [
  "automated rent collection and accounting",
  "priority maintenance and repairs",
  "tenant communication management",
  "priority phone and email support",
  "weekly progress updates",
  "emergency response coordination",
];
const PLATINUM_FEATURES = [
  "complete property management service",
  "advanced financial reporting and analytics",
  "legal compliance and documentation",
  "24/7 dedicated support line",
  "real-time dashboard and insights",
  "property renovation coordination",
  "insurance claims management",
  "dedicated account manager",
];

/** A plan's card: the innermost element holding its name, its price and a button. */
function planCard(page: Page, name: string, price: string) {
  return section(page, "pricing")
    .locator("*")
    .filter({ has: page.getByText(name, { exact: true }) })
    .filter({ hasText: price })
    .filter({ has: page.getByRole("button") })
    .last();
}

test.describe("landing page content (SPEC §2, §9)", () => {
  test.beforeEach(async ({ page }) => {
    await gotoLanding(page);
  });

  test("has a header, the six anchored sections in page order, and a footer", async ({ page }) => {
    const header = page.getByRole("banner");
    await expect(header).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeAttached();
    // The header stays in place while the page scrolls.
    expect(await header.evaluate((element) => getComputedStyle(element).position)).toMatch(/^(fixed|sticky)$/);

    let previousTop = -Infinity;
    for (const id of SECTION_IDS) {
      const element = section(page, id);
      await expect(element, `#${id}`).toHaveCount(1);
      await expect(element, `#${id}`).toBeAttached();
      const top = await element.evaluate((node) => node.getBoundingClientRect().top + window.scrollY);
      expect(top, `#${id} comes after the section before it`).toBeGreaterThan(previousTop);
      previousTop = top;
    }
    const footerTop = await page.getByRole("contentinfo").evaluate((node) => node.getBoundingClientRect().top + window.scrollY);
    expect(footerTop).toBeGreaterThan(previousTop);

    // The company's name and logo are in the header.
    await expect(header.getByRole("img").first()).toBeVisible();
  });

  test("hero: headline, buttons, a self-hosted image and the Transparent Pricing Promise", async ({ page }) => {
    const home = section(page, "home");
    await expect(home.getByRole("heading", { level: 1, name: "Professional Property Management Services" })).toBeVisible();
    await expect(linkOrButton(home, "Our Services")).toBeVisible();
    await expect(linkOrButton(home, "View Renovations")).toBeVisible();

    await expect(home.getByText("Transparent Pricing Promise", { exact: true })).toBeVisible();
    for (const badge of ["No VAT Added", "No Hidden Fees", "No Surprises"]) {
      await expect(home.getByText(badge, { exact: true }), badge).toBeVisible();
    }

    // The property image is served by us (not an external host) and has loaded.
    const images = home.locator("img");
    expect(await images.count()).toBeGreaterThan(0);
    for (const image of await images.all()) {
      await expect(image).toHaveAttribute("alt", /\S/);
      await expectLoadedFromOurOrigin(image);
    }
  });

  test("services: title, core and additional services", async ({ page }) => {
    const services = section(page, "services");
    await expect(services.getByRole("heading", { name: "Complete Property Management Solutions" })).toBeVisible();
    await expect(services.getByText("Core Management Services", { exact: true })).toBeVisible();
    await expect(services.getByText("Additional Services", { exact: true })).toBeVisible();
    for (const service of [
      "Rent Collection & Financial Management",
      "Property Maintenance & Repairs",
      "Tenant-Landlord Relations",
      "Legal Compliance & Documentation",
      "Property Insurance Coordination",
      "24/7 Emergency Response",
    ]) {
      await expect(services.getByText(service, { exact: true }), service).toBeVisible();
    }
  });

  test("renovations: the four cards and Get Free Consultation", async ({ page }) => {
    const renovations = section(page, "renovations");
    for (const card of ["Complete Renovations", "Interior Design", "Maintenance & Repairs", "Property Upgrades"]) {
      await expect(renovations.getByText(card, { exact: true }), card).toBeVisible();
    }
    await expect(linkOrButton(renovations, "Get Free Consultation")).toBeVisible();
  });

  test("pricing: Gold £80 and Platinum £120 (Most Popular) per property, with every feature", async ({ page }) => {
    const gold = planCard(page, "Gold", "£80");
    const platinum = planCard(page, "Platinum", "£120");
    await expect(gold).toBeVisible();
    await expect(platinum).toBeVisible();
    await expect(gold).toContainText(/per property/i);
    await expect(platinum).toContainText(/per property/i);

    await expect(platinum.getByText("Most Popular", { exact: true })).toBeVisible();
    await expect(gold.getByText("Most Popular", { exact: true })).toHaveCount(0);
    await expect(section(page, "pricing").getByText("Most Popular", { exact: true })).toHaveCount(1);

    for (const feature of GOLD_FEATURES) {
      await expect(gold.getByText(wholeText(feature)), `Gold: ${feature}`).toBeVisible();
    }
    for (const feature of PLATINUM_FEATURES) {
      await expect(platinum.getByText(wholeText(feature)), `Platinum: ${feature}`).toBeVisible();
    }
    await expect(gold.getByRole("button")).toHaveCount(1);
    await expect(platinum.getByRole("button")).toHaveCount(1);
    await expect(linkOrButton(section(page, "pricing"), "Contact us")).toBeVisible();
  });

  test("about: four badges and two captions", async ({ page }) => {
    const about = section(page, "about");
    for (const text of [
      "Many Satisfied Clients",
      "Proven Track Record",
      "24/7 Support Available",
      "High Client Satisfaction",
      "Certified Agents",
      "Fully Licensed & Insured",
      "Market Leaders",
      "Top Performance Rating",
    ]) {
      await expect(about.getByText(text, { exact: true }), text).toBeVisible();
    }
  });

  test("contact: details, business hours and the form", async ({ page }) => {
    const contact = section(page, "contact");
    // Placeholder company details from the configuration module (no COMPANY_* set here).
    await expect(contact.locator('a[href^="tel:"]').first()).toBeVisible();
    await expect(contact.locator('a[href^="mailto:"]').first()).toBeVisible();

    // SPEC §9: Mon-Fri 9:00-18:00, Sat 10:00-16:00, Sun closed; phone line 9am-6pm Mon-Fri; replies within 24 hours.
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as laid out (a line break between blocks), is the point.
    const text = (await contact.innerText()).replace(/\s+/g, " ");
    expect(text).toMatch(/Mon(day)?\s*[-–]\s*Fri(day)?:?\s*0?9:00\s*(am)?\s*[-–]\s*(18:00|6:00\s*pm)/i);
    expect(text).toMatch(/Sat(urday)?:?\s*10:00\s*(am)?\s*[-–]\s*(16:00|4:00\s*pm)/i);
    expect(text).toMatch(/Sun(day)?:?\s*Closed/i);
    const phoneHours = String.raw`9\s*(am|:00)\s*[-–]\s*(6\s*pm|18:00)`;
    const weekdays = String.raw`Mon(day)?\s*(to|[-–])\s*Fri(day)?`;
    expect(text, "phone line 9am-6pm Mon-Fri").toMatch(
      new RegExp(`phone line.{0,40}?(${phoneHours}.{0,30}?${weekdays}|${weekdays}.{0,30}?${phoneHours})`, "i"),
    );
    expect(text).toMatch(/within 24 hours/i);

    await expect(contact.locator("form")).toBeVisible();
  });

  test("footer: quick links, the Admin link and three placeholder links that go nowhere", async ({ page }) => {
    const footer = page.getByRole("contentinfo");
    for (const name of ["Home", "Services", "Renovations", "About"]) {
      await expect(linkOrButton(footer, name), `quick link ${name}`).toBeVisible();
    }
    const admin = footer.getByRole("link", { name: "Admin", exact: true });
    await expect(admin).toBeVisible();
    await expect(admin).toHaveAttribute("href", "/admin");
    await expect(admin).toHaveAttribute("title", "Admin Dashboard");

    await scrollToInstantly(page, "bottom");
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    const url = page.url();
    for (const name of ["Privacy Policy", "Terms of Service", "Cookie Policy"]) {
      const placeholder = footer.getByText(name, { exact: true });
      await expect(placeholder, name).toBeVisible();
      await placeholder.click();
      await expect(page, `${name} does not navigate`).toHaveURL(url);
    }
    expect(navigations).toEqual([]);
  });
});

test.describe("server rendering", () => {
  test("the HTML of / holds the whole page and the active projects, not the inactive one", async ({ request }) => {
    const response = await request.get("/");
    expect(response.status()).toBe(200);
    const html = await response.text();
    for (const id of SECTION_IDS) expect(html, `#${id} in the HTML`).toContain(`id="${id}"`);
    expect(html).toContain("Professional Property Management Services");
    expect(html).not.toContain("Loading renovation projects...");
    const markup = html.replace(/<script[\s\S]*?<\/script>/g, "");
    const positions = ACTIVE_IN_ORDER.map((project) => markup.indexOf(project.title));
    for (const [index, project] of ACTIVE_IN_ORDER.entries()) {
      expect(positions[index], `${project.title} in the rendered markup`).toBeGreaterThan(-1);
    }
    expect(html).not.toContain(HIDDEN_PROJECT.title);
  });

  test("images: only the hero is preloaded, at high priority (the logo is in the page: decision 076); each has its size; the gallery's are lazy", async ({
    request,
  }) => {
    const html = await (await request.get("/")).text();
    const tags = (name: string, within = html) => [...within.matchAll(new RegExp(`<${name}\\b[^>]*>`, "g"))].map(([tag]) => tag);
    const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag)?.[1];

    const imagePreloads = tags("link").filter((tag) => attribute(tag, "rel") === "preload" && attribute(tag, "as") === "image");
    expect(imagePreloads.map((tag) => attribute(tag, "href"))).toEqual(["/hero-property.svg"]);
    expect(attribute(imagePreloads[0]!, "fetchPriority"), "the hero's preload priority").toBe("high");
    // The placeholder logo is no request a phone's first paint would wait for in Lighthouse's simulation.
    const header = html.slice(html.indexOf("<header"), html.indexOf("</header>"));
    expect(attribute(tags("img", header)[0]!, "src"), "the header's logo").toMatch(/^data:image\/svg\+xml,/);

    // Explicit sizes: the browser reserves the space before the pictures arrive (no layout shift).
    const images = tags("img");
    expect(images.length).toBeGreaterThan(2);
    for (const image of images) {
      expect(Number(attribute(image, "width")), image).toBeGreaterThan(0);
      expect(Number(attribute(image, "height")), image).toBeGreaterThan(0);
    }
    const gallery = html.slice(html.indexOf('id="renovations"'), html.indexOf('id="pricing"'));
    const galleryImages = tags("img", gallery);
    expect(galleryImages.length, "the gallery's images").toBeGreaterThanOrEqual(2 * ACTIVE_IN_ORDER.length);
    for (const image of galleryImages) expect(attribute(image, "loading"), image).toBe("lazy");
  });

  test("works without JavaScript: every section and the gallery are there", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto("/");
      for (const id of SECTION_IDS) await expect(section(page, id), `#${id}`).toBeAttached();
      const renovations = section(page, "renovations");
      await expect(renovations.getByText(ACTIVE_IN_ORDER[0]!.title, { exact: true }).first()).toBeVisible();
      for (const project of ACTIVE_IN_ORDER) {
        await expect(renovations.getByText(project.title, { exact: true }).first(), project.title).toBeAttached();
      }
      await expect(page.getByText(HIDDEN_PROJECT.title)).toHaveCount(0);
      await expect(page.getByText("Loading renovation projects...")).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});

test.describe("scrolling to sections", () => {
  test.beforeEach(async ({ page }) => {
    await gotoLanding(page);
  });

  test("each header nav button scrolls its section into view", async ({ page }) => {
    const header = page.getByRole("banner");
    for (const [name, target] of NAV_TARGETS) {
      await scrollToInstantly(page, target === "home" ? "bottom" : "top");
      const button = header.getByRole("button", { name, exact: true });
      await expect(button, `nav button ${name}`).toBeVisible();
      await button.click();
      await expectScrolledTo(page, target);
    }
  });

  test("Contact Us is highlighted differently from the other nav buttons", async ({ page }) => {
    const header = page.getByRole("banner");
    const background = (name: string) => header.getByRole("button", { name, exact: true }).evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await background("Contact Us")).not.toBe(await background("Home"));
  });

  test("hero buttons scroll to services and renovations", async ({ page }) => {
    const home = section(page, "home");
    await linkOrButton(home, "Our Services").click();
    await expectScrolledTo(page, "services");
    await scrollToInstantly(page, "top");
    await linkOrButton(home, "View Renovations").click();
    await expectScrolledTo(page, "renovations");
  });

  test("plan buttons, the enterprise Contact us and Get Free Consultation scroll to contact", async ({ page }) => {
    const pricing = section(page, "pricing");
    const targets = [
      { name: "Gold plan button", locator: planCard(page, "Gold", "£80").getByRole("button") },
      { name: "Platinum plan button", locator: planCard(page, "Platinum", "£120").getByRole("button") },
      { name: "enterprise Contact us", locator: linkOrButton(pricing, "Contact us") },
      { name: "Get Free Consultation", locator: linkOrButton(section(page, "renovations"), "Get Free Consultation") },
    ];
    for (const { name, locator } of targets) {
      await scrollToInstantly(page, "top");
      await locator.click();
      await expectScrolledTo(page, "contact").catch((error: unknown) => {
        throw new Error(`${name} did not scroll to #contact: ${String(error)}`);
      });
    }
  });

  test("footer quick links scroll to home, services, renovations and about", async ({ page }) => {
    const footer = page.getByRole("contentinfo");
    for (const [name, target] of [
      ["Home", "home"],
      ["Services", "services"],
      ["Renovations", "renovations"],
      ["About", "about"],
    ] as const) {
      await scrollToInstantly(page, "bottom");
      await linkOrButton(footer, name).click();
      await expectScrolledTo(page, target);
    }
  });

  test("a missing target logs the console warning 'Contact section not found'", async ({ page }) => {
    await page.evaluate(() => document.getElementById("contact")?.remove());
    const warning = page.waitForEvent("console", {
      predicate: (message) => message.type() === "warning" && message.text() === "Contact section not found",
      timeout: 5_000,
    });
    await page.getByRole("banner").getByRole("button", { name: "Contact Us", exact: true }).click();
    await warning;
  });
});

/** Clicks a header nav button and counts the scroll events until the section is reached. */
async function scrollEventsForNav(page: Page, name: string, target: (typeof NAV_TARGETS)[number][1]): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { scrollEvents: number };
    w.scrollEvents = 0;
    window.addEventListener("scroll", () => (w.scrollEvents += 1));
  });
  await page.getByRole("banner").getByRole("button", { name, exact: true }).click();
  await expectScrolledTo(page, target);
  return page.evaluate(() => (window as unknown as { scrollEvents: number }).scrollEvents);
}

test.describe("smooth scrolling and reduced motion", () => {
  test("without a motion preference the page scrolls smoothly", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await gotoLanding(page);
    // A smooth scroll fires a scroll event on every animation frame.
    expect(await scrollEventsForNav(page, "Pricing", "pricing")).toBeGreaterThan(2);
  });

  test("with prefers-reduced-motion the page jumps to the section without animating", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await gotoLanding(page);
    // An instant jump fires a single scroll event.
    expect(await scrollEventsForNav(page, "Pricing", "pricing")).toBeLessThanOrEqual(2);
  });
});

test.describe("health of the page", () => {
  test("loads with no console errors, failed requests or CSP violations", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console error: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("response", (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`);
    });
    page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
    await page.addInitScript(() => {
      const w = window as unknown as { cspViolations: string[] };
      w.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (event) =>
        w.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`),
      );
    });

    await gotoLanding(page);
    // Bring lazy images in too.
    await scrollToInstantly(page, "bottom");
    await page.waitForLoadState("networkidle");

    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(problems).toEqual([]);
  });

  for (const width of [320, 1920]) {
    test(`has no horizontal scroll at ${width} px wide`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await gotoLanding(page);
      const overflow = () =>
        page.evaluate(() => {
          const root = document.scrollingElement ?? document.documentElement;
          return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
        });
      const { scrollWidth, clientWidth } = await overflow();
      expect(scrollWidth, "page width").toBeLessThanOrEqual(clientWidth);
      // Nothing sticks out of the viewport at the section level either.
      for (const id of SECTION_IDS) {
        const right = await section(page, id).evaluate((element) => Math.round(element.getBoundingClientRect().right));
        expect(right, `#${id} right edge`).toBeLessThanOrEqual(clientWidth);
      }
    });
  }

  test("the inactive project is not on the page", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.getByText(HIDDEN_PROJECT.title)).toHaveCount(0);
  });
});
