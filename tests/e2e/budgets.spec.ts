/**
 * JavaScript and CSS budgets of `/` (issue 6, point 5; decisions 014 and 015).
 * What counts is what a browser really loads: Chromium opens the page, lets
 * it hydrate and settle, and is scrolled to the end; every script and
 * stylesheet it fetched, and the stylesheet inlined in the page, is then weighed from the production build, gzipped at
 * zlib level 9 (what a server or CDN precompressing assets would send), so the
 * sizes are deterministic.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { gotoLanding, scrollToInstantly } from "./fixtures";

const JS_BUDGET = 100 * 1024;
const CSS_BUDGET = 25 * 1024;
const repoRoot = path.resolve(import.meta.dirname, "../..");
const clientDir = path.join(repoRoot, "build/client");

type ManifestEntry = { module: string; imports?: string[] };
type RouterManifest = { entry: ManifestEntry; routes: Record<string, ManifestEntry & { id: string }> };

const gzipSize = (url: string) => gzipSync(readFileSync(path.join(clientDir, url)), { level: 9 }).length;
const total = (urls: Iterable<string>) => [...urls].reduce((sum, url) => sum + gzipSize(url), 0);

/**
 * The static imports of a built chunk: bundlers put them first, so read
 * `import…from"./x.js";` / `import"./x.js";` from the start of the file (after
 * Vite's `__vite__mapDeps` table, when there is one) and stop at the first
 * other statement (a dynamic import loads on demand).
 */
function staticImports(url: string): string[] {
  const source = readFileSync(path.join(clientDir, url), "utf8");
  const statement = /^\s*(?:import|export)\s*(?:[\w*$\s{},]*?\s*from\s*)?(["'`])([^"'`]+)\1\s*;?/;
  const found: string[] = [];
  // A chunk that loads others on demand starts with Vite's table of their dependencies: its imports follow.
  let rest = source.replace(/^const __vite__mapDeps=[^\n]*\n/, "");
  for (let match = statement.exec(rest); match; match = statement.exec(rest)) {
    found.push(path.posix.join(path.posix.dirname(url), match[2]!));
    rest = rest.slice(match[0].length);
  }
  return found;
}

function closure(start: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const url = queue.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    queue.push(...staticImports(url));
  }
  return seen;
}

function readRouterManifest(): RouterManifest {
  const prefix = "window.__reactRouterManifest=";
  // A route may be called "manifest" too (the web manifest), so look at the content.
  const sources = readdirSync(path.join(clientDir, "assets"))
    .filter((name) => /^manifest-[\w-]+\.js$/.test(name))
    .map((name) => readFileSync(path.join(clientDir, "assets", name), "utf8"))
    .filter((source) => source.startsWith(prefix));
  expect(sources, "React Router's manifest in build/client/assets").toHaveLength(1);
  return JSON.parse(sources[0]!.slice(prefix.length).replace(/;\s*$/, "")) as RouterManifest;
}

/** Route files of the back office: app/routes/admin*.tsx and its API routes. */
const isAdminRoute = (id: string) => /^routes\/(api\.)?admin\b/.test(id);
/** Admin component modules, by file name: a bundler names a shared chunk after its first module. */
const adminModuleNames = new Set(readdirSync(path.join(repoRoot, "app/admin")).map((name) => name.replace(/\.tsx?$/, "")));
const chunkName = (url: string) => path.posix.basename(url).replace(/-[\w-]{8}\.(js|css)$/, "");

test.describe("budgets of /", () => {
  test("at most 100 KB of gzipped JavaScript and 25 KB of CSS, and no admin code", async ({ page }) => {
    const scripts = new Set<string>();
    const stylesheets = new Set<string>();
    page.on("response", (response) => {
      const { pathname } = new URL(response.url());
      if (!pathname.startsWith("/assets/")) return;
      if (pathname.endsWith(".js")) scripts.add(pathname.slice(1));
      if (pathname.endsWith(".css")) stylesheets.add(pathname.slice(1));
    });
    await gotoLanding(page);
    // The landing page carries its stylesheet inline (decision 017); other pages link it.
    const inlineCss = await page.locator("style").evaluateAll((styles) => styles.map((style) => style.textContent ?? ""));
    await scrollToInstantly(page, "bottom");
    // The islands near the screen wake React once the page has loaded (decision 072): on a
    // busy machine that can come after a quiet half-second, so wait for React DOM itself.
    const hasReactDom = (url: string) => readFileSync(path.join(clientDir, url), "utf8").includes("__REACT_DEVTOOLS_GLOBAL_HOOK__");
    await expect.poll(() => [...scripts].some(hasReactDom), { message: "React DOM fetched once scrolled to the end", timeout: 30_000 }).toBe(true);
    await page.waitForLoadState("networkidle");

    const inlineCssSize = inlineCss.reduce((sum, css) => sum + gzipSync(css, { level: 9 }).length, 0);
    const cssSize = total(stylesheets) + inlineCssSize;
    const weighed = (urls: Set<string>) => [...urls].sort().map((url) => `  ${String(gzipSize(url)).padStart(7)}  ${url}`);
    console.log(
      [
        `JavaScript loaded by / (gzip level 9): ${total(scripts)} bytes (budget ${JS_BUDGET})`,
        ...weighed(scripts),
        `CSS on / (gzip level 9): ${cssSize} bytes (budget ${CSS_BUDGET})`,
        ...weighed(stylesheets),
        ...inlineCss.map((css) => `  ${String(gzipSync(css, { level: 9 }).length).padStart(7)}  inline <style> (${css.length} characters)`),
      ].join("\n"),
    );

    // A page that loaded nothing would pass the budget: these prove the measure saw the app.
    const manifest = readRouterManifest();
    expect(scripts, "the browser entry").toContain(manifest.entry.module.slice(1));
    const reactDom = [...scripts].filter(hasReactDom);
    expect(reactDom, "a chunk with React DOM").not.toHaveLength(0);
    expect(stylesheets.size + inlineCss.length, "a stylesheet, linked or inline").toBeGreaterThan(0);

    expect(total(scripts), "gzipped JavaScript on / (bytes)").toBeLessThanOrEqual(JS_BUDGET);
    expect(cssSize, "gzipped CSS on / (bytes)").toBeLessThanOrEqual(CSS_BUDGET);

    // Chunks only the back office reaches: its route modules and what they alone import.
    const routes = Object.values(manifest.routes);
    const publicChunks = closure(
      [manifest.entry.module, ...routes.filter((route) => !isAdminRoute(route.id)).map((route) => route.module)].map((url) => url.slice(1)),
    );
    const adminOnly = [...closure(routes.filter((route) => isAdminRoute(route.id)).map((route) => route.module.slice(1)))].filter(
      (url) => !publicChunks.has(url),
    );
    expect(adminOnly, "the back office's own chunk is recognised as admin code").toContain(manifest.routes["routes/admin"]?.module.slice(1));
    for (const url of scripts) {
      expect(adminOnly, `${url} is back-office code`).not.toContain(url);
      expect(adminModuleNames.has(chunkName(url)), `${url} is named after a module of app/admin`).toBe(false);
      expect(/^admin/i.test(chunkName(url)), `${url} is named after an admin route`).toBe(false);
    }
  });
});
