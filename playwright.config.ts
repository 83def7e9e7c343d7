import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./tests/support/chromium.ts";

/**
 * End-to-end tests: the production build (`npm run build` first) served by
 * `node server.js` on a fixed port, with a fresh SQLite database in a
 * temporary DATA_DIR, driven by Debian's Chromium. Browsers are never
 * downloaded.
 *
 * Playwright loads this file in the runner and again in every worker. The
 * runner creates the data directory and hands it to the workers (and to the
 * servers) through E2E_DATA_DIR, so everybody sees the same database.
 *
 * Three servers run: "site" (E2E_PORT, default 4317) with the seeded gallery
 * (tests/e2e/seed-data.ts), "empty gallery" (E2E_PORT + 1) with no
 * projects, for the gallery's empty and failure states, and "admin"
 * (E2E_PORT + 2) with an admin account and an inbox of its own, so the admin
 * tests can count enquiries while other tests send theirs to "site", and
 * "website" (E2E_PORT + 3), whose admin publishes changes to the site's texts
 * (tests/e2e/admin-website.spec.ts) that no other test's page may see.
 */
const PORT = Number(process.env.E2E_PORT ?? 4317);
/** The S3 settings CI exports for the integration tests, blanked: these servers keep their images on disk. */
const NO_S3 = Object.fromEntries(
  ["S3_BUCKET", "S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE", "PUBLIC_IMAGES_URL"].map((name) => [name, ""]),
);
const BASE_URL = `http://127.0.0.1:${PORT}`;
process.env.E2E_SITE_URL = BASE_URL;
/** A second server with no projects, for the gallery's empty and failure states. */
const EMPTY_GALLERY_PORT = PORT + 1;
process.env.E2E_EMPTY_GALLERY_URL = `http://127.0.0.1:${EMPTY_GALLERY_PORT}`;

if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "property-e2e-"));
  process.env.E2E_DATA_DIR = dataDir;
  // The web server is stopped before the runner exits; then the data can go.
  process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
}
const DATA_DIR = process.env.E2E_DATA_DIR;
const EMPTY_GALLERY_DATA_DIR = path.join(DATA_DIR, "empty-gallery");
process.env.E2E_EMPTY_GALLERY_DATA_DIR = EMPTY_GALLERY_DATA_DIR;

/** The admin server (tests/e2e/admin*.spec.ts): its own database, its own admin account. */
const ADMIN_PORT = PORT + 2;
process.env.E2E_ADMIN_URL = `http://127.0.0.1:${ADMIN_PORT}`;
const ADMIN_DATA_DIR = path.join(DATA_DIR, "admin");
process.env.E2E_ADMIN_DATA_DIR = ADMIN_DATA_DIR;
const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? "admin@example.com";
process.env.E2E_ADMIN_EMAIL = ADMIN_EMAIL;
// A test-only password (12+ characters, as the app requires); it guards nothing but a temporary database.
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? "e2e-correct-horse-battery";
process.env.E2E_ADMIN_PASSWORD = ADMIN_PASSWORD;
// "&" must be escaped in the "Reply via Email" link's subject.
const ADMIN_COMPANY_NAME = process.env.E2E_ADMIN_COMPANY_NAME ?? "Smith & Jones Lettings";
process.env.E2E_ADMIN_COMPANY_NAME = ADMIN_COMPANY_NAME;

/** The Website tab's server: what its tests publish is live on its / only. */
const WEBSITE_PORT = PORT + 3;
process.env.E2E_WEBSITE_URL = `http://127.0.0.1:${WEBSITE_PORT}`;
const WEBSITE_DATA_DIR = path.join(DATA_DIR, "website");
process.env.E2E_WEBSITE_DATA_DIR = WEBSITE_DATA_DIR;

/** The production server, as `npm start` runs it, on a port and data directory of its own. */
function server(name: string, port: number, dataDir: string, stderr: "pipe" | "ignore", extraEnv: Record<string, string> = {}) {
  return {
    name,
    command: "node server.js",
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore" as const,
    stderr,
    // SIGTERM lets the server finish requests and close the database cleanly.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      // CI exports a PostgreSQL URL and an S3 bucket for the integration tests; these servers use SQLite and disk.
      DATABASE_URL: "",
      ...NO_S3,
      // Every test browser is 127.0.0.1: the per-IP contact limit (5 an hour) would refuse the suite's enquiries.
      CONTACT_RATE_LIMIT: "1000",
      // No balancer to drain from: SIGTERM stops at once (the drain has its own test).
      SHUTDOWN_DRAIN_MS: "0",
      ...extraEnv,
    },
  };
}

export default defineConfig({
  testDir: "tests/e2e",
  // Seeds the gallery and saves the signed-in browser states (signed-in.ts); runs once the web servers are up.
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [["list"]],
  outputDir: "test-results/e2e",
  use: {
    baseURL: BASE_URL,
    headless: true,
    locale: "en-GB",
    // Tracing costs CPU on every test; E2E_TRACE=1 turns it on to debug a failure.
    trace: process.env.E2E_TRACE ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        // devices[] brings a channel for branded Chrome; we use Debian's Chromium.
        channel: undefined,
      },
    },
  ],
  webServer: [
    server("site", PORT, DATA_DIR, "pipe"),
    // Its errors are expected (a test takes its projects table away), so its stderr stays quiet.
    server("empty gallery", EMPTY_GALLERY_PORT, EMPTY_GALLERY_DATA_DIR, "ignore"),
    server("admin", ADMIN_PORT, ADMIN_DATA_DIR, "pipe", {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      COMPANY_NAME: ADMIN_COMPANY_NAME,
      // The failure tests sign in wrongly on purpose, several times, from one IP.
      LOGIN_RATE_LIMIT: "50",
    }),
    server("website", WEBSITE_PORT, WEBSITE_DATA_DIR, "pipe", { ADMIN_EMAIL, ADMIN_PASSWORD }),
  ],
});
