/**
 * Debian's Chromium as the end-to-end tests and `npm run lighthouse` start it
 * (never a downloaded browser): no sandbox (CI runs as root), no GPU, and
 * none of the background traffic that would add noise to a measurement.
 * Plain TypeScript with no imports, so Playwright's loader and Node's type
 * stripping both load it.
 */
export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
