import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { FORGOT_TEXT, RESET_TEXT, TWO_STEP_TEXT } from "~/admin/sign-in-texts";
import { createAdmin } from "~/auth/admins.server";
import { confirmTotpSetup, startTotpSetup, type TotpSetup } from "~/auth/totp.server";
import { openDatabase } from "~/platform/db/db.server";
import { TEST_ACTOR } from "../support/actors";
import { startServer, type SpawnedServer } from "../support/server";
import { parseMessage, startSmtpServer, testCertificate, type TestSmtpServer } from "../support/smtp";

/**
 * Issue 21's screens of signing in, in Chromium: a password reset through
 * the link a real SMTP server (started here) receives, and a sign-in with
 * the code of an authenticator app (computed here with otpauth) or a
 * recovery code. Each screen is completed from the keyboard alone, axe-core
 * finds nothing on it, and each flow works with JavaScript off.
 *
 * A server of this file's own (a free port, its own SQLite database), since
 * it needs SMTP_URL and members with two-step sign-in that no other spec
 * should meet.
 */
const PASSWORD = "a long e2e member password";
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

let smtp: TestSmtpServer;
let server: SpawnedServer;
let dataDir: string;

test.describe.configure({ mode: "serial" });
test.setTimeout(60_000);

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "property-e2e-sign-in-"));
  smtp = await startSmtpServer(undefined, { tls: true });
  server = await startServer({
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    SMTP_URL: smtp.url,
    MAIL_FROM: "Example Lettings <site@mail.example.com>",
    CONTACT_NOTIFY_TO: "office@example.com",
    NODE_EXTRA_CA_CERTS: testCertificate().certFile,
    LOGIN_RATE_LIMIT: "50",
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test.use({ contextOptions: { reducedMotion: "reduce" } });

/** A member made through the app's own functions, over a second connection to the server's SQLite (WAL allows it). */
async function withDb<T>(work: (db: ReturnType<typeof openDatabase>["db"]) => Promise<T>): Promise<T> {
  const database = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

async function newMember(email: string, twoStep = false): Promise<{ setup?: TotpSetup; recoveryCodes: string[] }> {
  return withDb(async (db) => {
    const admin = await createAdmin(db, email, PASSWORD, TEST_ACTOR);
    if (!twoStep) return { recoveryCodes: [] };
    // Confirmed with the code of the step before now, so that now's is still unused.
    const earlier = new Date(Date.now() - 30_000);
    const setup = await startTotpSetup(db, { adminId: admin.id, email, issuer: "Example Lettings" }, earlier);
    const actor = { kind: "member" as const, id: admin.id, email, role: "owner" as const, ip: "127.0.0.1" };
    const confirmed = await confirmTotpSetup(db, { member: actor, code: codeAt(setup), now: earlier });
    if (!confirmed.ok) throw new Error(`two-step set-up not confirmed: ${confirmed.reason}`);
    return { setup, recoveryCodes: confirmed.recoveryCodes };
  });
}

function codeAt(setup: TotpSetup, at = Date.now() - 30_000): string {
  return TOTP.generate({ secret: Secret.fromBase32(setup.secretText.replace(/ /g, "")), timestamp: at });
}

async function resetLinkFor(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const messages = await Promise.all(smtp.messages.filter((message) => message.envelopeTo.includes(email)).map(parseMessage));
        link = messages.map((message) => /https?:\/\/\S+\/admin\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(message.text ?? "")?.[0]).findLast(Boolean);
        return link !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return link!;
}

async function expectAccessible(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(
    violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`),
    where,
  ).toEqual([]);
}

/** Tab (only the keyboard) until `target` has the focus; fails if it never does. */
async function tabTo(page: Page, target: Locator, what: string): Promise<void> {
  for (let presses = 0; presses < 25; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`${what} is not reached with Tab`);
}

/** Types into a field reached with Tab. */
async function typeInto(page: Page, field: Locator, text: string, what: string): Promise<void> {
  await tabTo(page, field, what);
  await page.keyboard.type(text);
}

async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/admin/sign-in`);
  await typeInto(page, page.getByLabel("Email"), email, "the e-mail field");
  await typeInto(page, page.getByLabel("Password", { exact: true }), password, "the password field");
  await page.keyboard.press("Enter");
}

for (const javaScriptEnabled of [true, false]) {
  const how = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test.describe(how, () => {
    test.use({ javaScriptEnabled });

    test(`sets a new password through the e-mailed link, from the keyboard (${how})`, async ({ page }) => {
      const email = `reset.${javaScriptEnabled ? "js" : "nojs"}@example.com`;
      await newMember(email);
      await page.goto(`${server.url}/admin/sign-in`);
      const forgot = page.getByRole("link", { name: FORGOT_TEXT.link, exact: true });
      await tabTo(page, forgot, "Forgot your password?");
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: FORGOT_TEXT.title })).toBeVisible();
      if (javaScriptEnabled) await expectAccessible(page, "Forgot your password?");

      await typeInto(page, page.getByLabel(FORGOT_TEXT.email), email, "the e-mail field");
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: FORGOT_TEXT.sentTitle })).toBeVisible();
      await expect(page.getByText(FORGOT_TEXT.sent(30))).toBeVisible();
      if (javaScriptEnabled) await expectAccessible(page, "the link is on its way");

      await page.goto(await resetLinkFor(email));
      await expect(page.getByRole("heading", { level: 1, name: RESET_TEXT.title })).toBeVisible();
      if (javaScriptEnabled) await expectAccessible(page, "Set a new password");
      // Two different passwords first: the error is tied to the field, which has the focus again.
      await typeInto(page, page.getByLabel(RESET_TEXT.password, { exact: true }), "the first new password", "the new password");
      await typeInto(page, page.getByLabel(RESET_TEXT.confirm), "not the same password", "the new password again");
      await page.keyboard.press("Enter");
      const field = page.getByLabel(RESET_TEXT.password, { exact: true });
      await expect(page.getByRole("alert").filter({ hasText: RESET_TEXT.mismatch })).toBeVisible();
      await expect(field).toBeFocused();
      await expect(field).toHaveAccessibleDescription(new RegExp(RESET_TEXT.mismatch.slice(0, 30)));
      if (javaScriptEnabled) await expectAccessible(page, "Set a new password, refused");

      const newPassword = "the new e2e password, typed twice";
      await page.keyboard.type(newPassword);
      await typeInto(page, page.getByLabel(RESET_TEXT.confirm), newPassword, "the new password again");
      await page.keyboard.press("Enter");
      await expect(page.getByText(RESET_TEXT.done)).toBeVisible();
      await typeInto(page, page.getByLabel("Email"), email, "the e-mail field");
      await typeInto(page, page.getByLabel("Password", { exact: true }), newPassword, "the password field");
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    });

    test(`signs in with the authenticator app's code, from the keyboard (${how})`, async ({ page }) => {
      const email = `two.step.${javaScriptEnabled ? "js" : "nojs"}@example.com`;
      const { setup } = await newMember(email, true);
      await signInWithPassword(page, email, PASSWORD);
      await expect(page.getByRole("heading", { level: 1, name: TWO_STEP_TEXT.title })).toBeVisible();
      const code = page.getByLabel(TWO_STEP_TEXT.code);
      await expect(code).toHaveAttribute("autocomplete", "one-time-code");
      await expect(code).toHaveAttribute("inputmode", "numeric");
      if (javaScriptEnabled) await expectAccessible(page, "the two-step code");

      await typeInto(page, code, "000000" === codeAt(setup!, Date.now()) ? "111111" : "000000", "the code");
      await page.keyboard.press("Enter");
      await expect(page.getByRole("alert").filter({ hasText: TWO_STEP_TEXT.wrong(4) })).toBeVisible();
      await expect(code).toBeFocused();
      if (javaScriptEnabled) await expectAccessible(page, "the two-step code, refused");

      await page.keyboard.type(codeAt(setup!, Date.now()));
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    });

    test(`signs in with a recovery code instead, from the keyboard (${how})`, async ({ page }) => {
      const email = `recovery.${javaScriptEnabled ? "js" : "nojs"}@example.com`;
      const { recoveryCodes } = await newMember(email, true);
      await signInWithPassword(page, email, PASSWORD);
      const instead = page.getByRole("link", { name: TWO_STEP_TEXT.useRecovery });
      await tabTo(page, instead, "Use a recovery code instead");
      await page.keyboard.press("Enter");
      const field = page.getByLabel(TWO_STEP_TEXT.recoveryCode);
      await expect(field).toBeVisible();
      if (javaScriptEnabled) await expectAccessible(page, "the recovery code");
      await typeInto(page, field, recoveryCodes[0]!, "the recovery code");
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    });
  });
}
