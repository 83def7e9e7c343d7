import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, request, type BrowserContext } from "@playwright/test";

/**
 * Signed-in browser states, made once per run by global-setup.ts: the session
 * cookie of one sign-in to each server, saved as Playwright's storageState. A
 * spec that starts from one (`test.use({ storageState: signedInState("admin") })`)
 * skips the sign-in form; the tests of signing in, out and being locked out
 * sign in themselves. Every test that starts from a state shares its session
 * (a row on the server) with the others, in parallel workers: none of them may
 * sign it out.
 *
 * Cookies do not tell ports apart: every server here is 127.0.0.1, and each
 * names its session cookie the same, so a browser holds the session of one
 * server at a time. A spec uses the state of the server it tests.
 */
export type SignedInServer = "admin" | "website" | "site";

/** A browser state with nobody signed in: for a visitor's context in a spec that starts signed in. */
export const SIGNED_OUT = { cookies: [], origins: [] };

/** The "site" server's admin (made by the global setup): its data-request and accessibility pages must not disturb the admin server's counts. */
export const SITE_ADMIN = { email: "gdpr.admin@example.com", password: "e2e-gdpr-correct-horse" };

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through playwright.config.ts`);
  return value;
}

/** The file of the signed-in state of `server` (in the run's temporary data directory). */
export function signedInState(server: SignedInServer): string {
  return path.join(required("E2E_DATA_DIR"), `signed-in-${server}.json`);
}

/** Where each server listens, and the admin whose session its state holds. */
function account(server: SignedInServer): { url: string; email: string; password: string } {
  if (server === "site") return { url: required("E2E_SITE_URL"), ...SITE_ADMIN };
  const credentials = { email: required("E2E_ADMIN_EMAIL"), password: required("E2E_ADMIN_PASSWORD") };
  return { url: required(server === "admin" ? "E2E_ADMIN_URL" : "E2E_WEBSITE_URL"), ...credentials };
}

/** Signs in to `server` as its sign-in form does (a same-origin POST) and saves the browser state with its session. */
export async function saveSignedInState(server: SignedInServer): Promise<void> {
  const { url, email, password } = account(server);
  const context = await request.newContext({ baseURL: url });
  try {
    const response = await context.post("/admin/sign-in", { form: { email, password }, headers: { origin: url }, maxRedirects: 0 });
    expect(response.status(), `signing in to the ${server} server`).toBe(302);
    const state = await context.storageState({ path: signedInState(server) });
    expect(
      state.cookies.map((cookie) => cookie.name),
      `the ${server} server's session cookie`,
    ).toContain("__Host-admin_session");
  } finally {
    await context.dispose();
  }
}

/** Puts the saved session of `server` into a context that started signed out (for a test among sign-in tests). */
export async function restoreSignedInState(context: BrowserContext, server: SignedInServer): Promise<void> {
  const { cookies } = JSON.parse(readFileSync(signedInState(server), "utf8")) as { cookies: Parameters<BrowserContext["addCookies"]>[0] };
  await context.addCookies(cookies);
}
