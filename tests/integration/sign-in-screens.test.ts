/**
 * The screens of signing in, through the built server on each backend, as a
 * browser without JavaScript sends them (plain form posts, redirects):
 * "Forgot your password?" (the same answer for a member's address and an
 * unknown one, in status, headers, body and timing; the limits, and their
 * refusals on the dashboard; without e-mail), the e-mailed link (single use,
 * expiry, made-up links, every session ended), the two-step code and the
 * recovery code (wrong codes counted, a code used once, the pending step's
 * expiry), and the owners' requirement of a second factor in the guard.
 */
import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_TEXT } from "~/admin/account-texts";
import { FORGOT_TEXT, RESET_TEXT, TWO_STEP_TEXT } from "~/admin/sign-in-texts";
import { LIMITS_TEXT } from "~/admin/texts";
import { createAdmin } from "~/auth/admins.server";
import { hashPassword } from "~/auth/password.server";
import { setSecondFactorRequired } from "~/auth/second-factor-policy.server";
import { confirmTotpSetup, startTotpSetup, type TotpSetup } from "~/auth/totp.server";
import type { Db } from "~/platform/db/db.server";
import { TEST_ACTOR } from "../support/actors";
import { TEST_ADMIN } from "../support/admin-http";
import { backends } from "../support/backends";
import { visibleHtml } from "../support/html";
import { rawRequest, type RawResponse } from "../support/http";
import { logLines } from "../support/server";
import { useSite } from "../support/sites";
import { parseMessage, startSmtpServer, testCertificate, type TestSmtpServer } from "../support/smtp";
import { interquartileRange, median, probabilityOfSuperiority, shuffled } from "../support/timing";
import { waitFor } from "../support/wait";

const PASSWORD = "a long member password for the screens";
const NEW_PASSWORD = "a brand new password nobody knows";
const MAIL_ENV = { MAIL_FROM: "Example Lettings <site@mail.example.com>", CONTACT_NOTIFY_TO: "office@example.com" };
/** The sign-in limits are tested in auth.test.ts and two-step.test.ts: here they must not get in the way of the screens. */
const ROOMY_LIMITS = { LOGIN_RATE_LIMIT: "50" };
const SESSION = "__Host-admin_session";
const PENDING = "__Host-admin_pending_sign_in";
/** Headers that differ between any two responses, whatever they answer. */
const PER_RESPONSE = new Set(["date", "x-request-id", "keep-alive", "connection"]);

/** The <input> tag of the field `name` (React writes its attributes in its own order). */
function inputNamed(html: string, name: string): string {
  return html.match(/<input\b[^>]*>/g)?.find((tag) => tag.includes(` name="${name}"`)) ?? "";
}

function setCookies(response: RawResponse): string[] {
  const value = response.headers["set-cookie"];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** "name=value" of the cookie `name` a response sets, or undefined. */
function cookieSet(response: RawResponse, name: string): string | undefined {
  return setCookies(response)
    .find((cookie) => cookie.startsWith(`${name}=`))
    ?.split(";")[0];
}

/** The headers of a response but those that differ between any two (the date, the CSP's nonce). */
function headersOf(response: RawResponse): Record<string, unknown> {
  const kept = Object.entries(response.headers).filter(([name]) => !PER_RESPONSE.has(name));
  return Object.fromEntries(
    kept.map(([name, value]) => [name, name === "content-security-policy" ? String(value).replace(/'nonce-[^']+'/, "'nonce'") : value]),
  );
}

/** The code an authenticator app shows at `at`. */
function codeAt(setup: TotpSetup, at: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(setup.secretText.replace(/ /g, "")), timestamp: at });
}

describe.each(backends)("the sign-in screens on $name", (backend) => {
  let smtp: TestSmtpServer | undefined;
  const site = useSite(backend, {
    env: async () => {
      smtp = await startSmtpServer(undefined, { tls: true });
      // The test SMTP server offers STARTTLS with a certificate of its own, which the site is told to trust.
      return { ...MAIL_ENV, ...ROOMY_LIMITS, SMTP_URL: smtp.url, NODE_EXTRA_CA_CERTS: testCertificate().certFile };
    },
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  /** A form posted from the site itself, as a browser without JavaScript sends it. */
  function post(path: string, fields: Record<string, string>, cookie?: string): Promise<RawResponse> {
    const body = new URLSearchParams(fields).toString();
    return rawRequest(site.server.port, {
      method: "POST",
      path,
      headers: { origin: site.server.url, "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
      body,
    });
  }

  const get = (path: string, cookie?: string) => site.get(path, cookie ? { cookie } : {});
  const signedIn = async (cookie: string) => (await get("/api/admin/enquiries", cookie)).status === 200;

  async function newMember(email: string): Promise<{ id: string; email: string }> {
    return createAdmin(site.db, email, PASSWORD, TEST_ACTOR);
  }

  /** The reset link the SMTP server received for `email` (the newest). */
  async function resetLinkFor(email: string): Promise<string> {
    let link: string | undefined;
    await waitFor(`a reset e-mail to ${email}`, async () => {
      const messages = await Promise.all((smtp?.messages ?? []).filter((message) => message.envelopeTo.includes(email)).map(parseMessage));
      const match = messages.map((message) => /https?:\/\/\S+\/admin\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(message.text ?? "")).findLast(Boolean);
      link = match?.[0];
      return link !== undefined;
    });
    const url = new URL(link!);
    return `${url.pathname}${url.search}`;
  }

  beforeEach(async () => {
    // Every request here comes from 127.0.0.1: the reset's per-client limit (10 an hour) is tested on its own.
    await site.db.deleteFrom("rate_limit_events").where("bucket", "like", "password-reset%").execute();
  });

  describe("Forgot your password?", () => {
    it("is a link with that text on the sign-in form, to a page that asks for the address", async () => {
      const signIn = await get("/admin/sign-in");
      expect(signIn.status).toBe(200);
      expect(signIn.text).toMatch(/<a [^>]*href="\/admin\/forgot-password"[^>]*>Forgot your password\?<\/a>/);
      const page = await get("/admin/forgot-password");
      expect(page.status).toBe(200);
      expect(page.text).toContain(FORGOT_TEXT.title);
      expect(inputNamed(page.text, "email")).toContain('type="email"');
      expect(page.text, "e-mail is on").not.toContain(FORGOT_TEXT.mailOff);
    });

    it("answers a member's address and an unknown one alike: status, headers, body and the page it sends to", async () => {
      const member = await newMember("alike.member@example.com");
      const answers = [];
      for (const email of [member.email, "nobody.here@example.com", member.email.toUpperCase()]) {
        const response = await post("/admin/forgot-password", { email });
        answers.push({ status: response.status, headers: headersOf(response), body: response.text });
      }
      expect(answers[0]).toMatchObject({ status: 302, headers: { location: "/admin/forgot-password?sent" } });
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      const sent = await get("/admin/forgot-password?sent");
      expect(sent.status).toBe(200);
      expect(visibleHtml(sent.text)).toContain(FORGOT_TEXT.sent(30));
      // The member gets a link; the stranger nothing, and the job is gone.
      await resetLinkFor(member.email);
      await waitFor("every job done", async () => (await unsent(site.db)) === 0);
      expect(smtp!.messages.filter((message) => message.envelopeTo.includes("nobody.here@example.com"))).toEqual([]);
    });

    it("refuses what is not an address (400), and from another site (403), sending nothing", async () => {
      const before = smtp!.messages.length;
      const typo = await post("/admin/forgot-password", { email: "not an address" });
      expect(typo.status).toBe(400);
      expect(visibleHtml(typo.text)).toContain(FORGOT_TEXT.notAnAddress);
      expect(typo.text).toMatch(/aria-describedby="[^"]+"/);
      const foreign = await rawRequest(site.server.port, {
        method: "POST",
        path: "/admin/forgot-password",
        headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
        body: "email=alike.member%40example.com",
      });
      expect(foreign.status).toBe(403);
      expect(await unsent(site.db)).toBe(0);
      expect(smtp!.messages.length).toBe(before);
    });

    it("holds an address to 3 requests an hour, alike for members and strangers, and the owners' dashboard shows the refusals", async () => {
      const member = await newMember("limited.member@example.com");
      for (const email of [member.email, "limited.stranger@example.com"]) {
        for (let i = 0; i < 3; i++) expect((await post("/admin/forgot-password", { email })).status, `${email} #${i + 1}`).toBe(302);
        const refused = await post("/admin/forgot-password", { email });
        expect(refused.status, email).toBe(429);
        expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
        expect(refused.text).toContain(FORGOT_TEXT.limited);
      }
      const dashboard = await get("/admin/projects", site.cookie);
      expect(dashboard.status).toBe(200);
      expect(visibleHtml(dashboard.text)).toContain(LIMITS_TEXT.resets(2, 3, 10, "").split(" the last at")[0]);
    });

    it("holds one client address to 10 requests an hour, whatever the addresses", async () => {
      for (let i = 0; i < 10; i++) expect((await post("/admin/forgot-password", { email: `client${i}@example.com` })).status).toBe(302);
      expect((await post("/admin/forgot-password", { email: "client-eleven@example.com" })).status).toBe(429);
    });
  });

  describe("the e-mailed link", () => {
    it("sets a new password twice-typed, ends every session of the member, and sends them to sign in with it", async () => {
      const member = await newMember("reset.member@example.com");
      const sessions = [];
      for (let i = 0; i < 2; i++) {
        const response = await post("/admin/sign-in", { email: member.email, password: PASSWORD });
        sessions.push(cookieSet(response, SESSION)!);
      }
      for (const session of sessions) expect(await signedIn(session)).toBe(true);
      await post("/admin/forgot-password", { email: member.email });
      const link = await resetLinkFor(member.email);
      const token = new URL(link, site.server.url).searchParams.get("token")!;

      const page = await get(link);
      expect(page.status).toBe(200);
      expect(page.headers["cache-control"]).toMatch(/no-store/);
      expect(visibleHtml(page.text)).toContain(RESET_TEXT.subtitle(member.email));
      expect(inputNamed(page.text, "password")).toMatch(/autocomplete="new-password"/i);

      // The rules, before the link is used.
      const mismatch = await post(link, { token, password: NEW_PASSWORD, confirm: `${NEW_PASSWORD}!` });
      expect(mismatch.status).toBe(400);
      expect(visibleHtml(mismatch.text)).toContain(RESET_TEXT.mismatch);
      expect(inputNamed(mismatch.text, "password"), "the form again").not.toBe("");
      const short = await post(link, { token, password: "short", confirm: "short" });
      expect(short.status).toBe(400);
      expect(visibleHtml(short.text)).toContain("must be at least 12 characters long");
      expect((await get(link)).status, "the link still works").toBe(200);

      const done = await post(link, { token, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      expect(done.status).toBe(302);
      expect(done.headers.location).toBe("/admin/sign-in?reset=done");
      expect(cookieSet(done, SESSION), "no session from a link: the sign-in asks for the second factor").toBeUndefined();
      for (const session of sessions) expect(await signedIn(session), "every session ended").toBe(false);
      const notice = await get("/admin/sign-in?reset=done");
      expect(visibleHtml(notice.text)).toContain(RESET_TEXT.done);

      expect((await post("/admin/sign-in", { email: member.email, password: PASSWORD })).status, "the old password").toBe(401);
      const again = await post("/admin/sign-in", { email: member.email, password: NEW_PASSWORD });
      expect(again.status, "the new password").toBe(302);
      expect(await signedIn(cookieSet(again, SESSION)!)).toBe(true);

      // Single use.
      const reused = await get(link);
      expect(reused.status).toBe(410);
      expect(visibleHtml(reused.text)).toContain(RESET_TEXT.usedTitle);
      const reposted = await post("/admin/reset-password", { token, password: "another password again", confirm: "another password again" });
      expect(reposted.status).toBe(410);
      expect((await post("/admin/sign-in", { email: member.email, password: NEW_PASSWORD })).status, "the password stays").toBe(302);
    });

    it("is offered on the account page to a member without a password they know (joined with a passkey): the link goes to their own address", async () => {
      const member = await newMember("passkey.joiner@example.com");
      const signIn = await post("/admin/sign-in", { email: member.email, password: PASSWORD });
      const cookie = cookieSet(signIn, SESSION)!;
      // Joining with a passkey leaves a password nobody knows (decision 054): the current one cannot be typed.
      const unknown = await hashPassword(randomBytes(32).toString("base64url"));
      await site.db.updateTable("admin_users").set({ password_hash: unknown }).where("id", "=", member.id).execute();
      expect((await post("/admin/sign-in", { email: member.email, password: PASSWORD })).status, "no password they know").toBe(401);

      const account = await get("/admin/account", cookie);
      expect(visibleHtml(account.text)).toContain(ACCOUNT_TEXT.password.noCurrent);
      const asked = await post("/admin/account", { intent: "email-password-link" }, cookie);
      expect(asked.status).toBe(200);
      expect(visibleHtml(asked.text)).toContain(ACCOUNT_TEXT.password.linkSent(member.email, 30));
      const link = await resetLinkFor(member.email);
      const token = new URL(link, site.server.url).searchParams.get("token")!;
      const done = await post(link, { token, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      expect(done.status).toBe(302);
      expect(await signedIn(cookie), "a password set through the link ends every session").toBe(false);
      expect((await post("/admin/sign-in", { email: member.email, password: NEW_PASSWORD })).status, "the password set").toBe(302);
    });

    it("says a link has expired after 30 minutes (410), and that a made-up one does not work (404), never a 500", async () => {
      const member = await newMember("expiry.member@example.com");
      await post("/admin/forgot-password", { email: member.email });
      const link = await resetLinkFor(member.email);
      await site.db
        .updateTable("password_resets")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("admin_id", "=", member.id)
        .execute();
      const expired = await get(link);
      expect(expired.status).toBe(410);
      expect(visibleHtml(expired.text)).toContain(RESET_TEXT.expired(30));
      expect(expired.text).toMatch(new RegExp(`href="/admin/forgot-password"[^>]*>${RESET_TEXT.askAgain}<`));
      const token = new URL(link, site.server.url).searchParams.get("token")!;
      expect((await post("/admin/reset-password", { token, password: NEW_PASSWORD, confirm: NEW_PASSWORD })).status).toBe(410);

      for (const made of [
        "/admin/reset-password",
        "/admin/reset-password?token=abc",
        `/admin/reset-password?token=${"A".repeat(43)}`,
        "/admin/reset-password?token=%00%ff",
      ]) {
        const response = await get(made);
        expect(response.status, made).toBe(404);
        expect(visibleHtml(response.text), made).toContain(RESET_TEXT.invalid);
      }
      expect((await post("/admin/reset-password", { token: "A".repeat(43), password: NEW_PASSWORD, confirm: NEW_PASSWORD })).status).toBe(404);
      expect((await post("/admin/sign-in", { email: member.email, password: PASSWORD })).status, "nothing changed").toBe(302);
    });
  });

  describe("two-step sign-in", () => {
    /** A member with two-step sign-in on, confirmed with the code of the time step before now (so now's is free). */
    async function memberWithTwoStep(email: string) {
      const admin = await newMember(email);
      const earlier = new Date(Date.now() - 30_000);
      const setup = await startTotpSetup(site.db, { adminId: admin.id, email: admin.email, issuer: "Example Lettings" }, earlier);
      const actor = { kind: "member" as const, id: admin.id, email: admin.email, role: "owner" as const, ip: "127.0.0.1" };
      const confirmed = await confirmTotpSetup(site.db, { member: actor, code: codeAt(setup, earlier.getTime()), now: earlier });
      if (!confirmed.ok) throw new Error(`set-up not confirmed: ${confirmed.reason}`);
      return { ...admin, setup, recoveryCodes: confirmed.recoveryCodes };
    }

    /** The password step: it must send the browser to the code's page with the pending cookie. */
    async function passwordStep(email: string): Promise<string> {
      const response = await post("/admin/sign-in", { email, password: PASSWORD, returnTo: "/admin/enquiries" });
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe("/admin/two-step?returnTo=%2Fadmin%2Fenquiries");
      expect(cookieSet(response, SESSION), "no session yet").toBeUndefined();
      const pending = cookieSet(response, PENDING);
      expect(setCookies(response).find((cookie) => cookie.startsWith(PENDING))).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/i);
      return pending!;
    }

    const failuresOf = async (email: string) =>
      Number(
        (
          await site.db
            .selectFrom("rate_limit_events")
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where("bucket", "=", "login-account-failure")
            .where("subject", "=", email)
            .executeTakeFirstOrThrow()
        ).count,
      );

    it("asks for the 6-digit code after the right password, counts wrong codes as failed sign-ins, signs in with the right one, and refuses it used again", async () => {
      const member = await memberWithTwoStep("two.step@example.com");
      const pending = await passwordStep(member.email);
      const page = await get("/admin/two-step?returnTo=%2Fadmin%2Fenquiries", pending);
      expect(page.status).toBe(200);
      expect(inputNamed(page.text, "code")).toMatch(/autocomplete="one-time-code"/i);
      expect(inputNamed(page.text, "code")).toMatch(/inputmode="numeric"/i);
      expect(page.text).toMatch(new RegExp(`<label [^>]*for="two-step-code"[^>]*>${TWO_STEP_TEXT.code}</label>`));
      expect(page.text).toContain('href="/admin/two-step?recovery&amp;returnTo=%2Fadmin%2Fenquiries"');

      const right = codeAt(member.setup, Date.now());
      const wrong = right === "000000" ? "111111" : "000000";
      const refused = await post("/admin/two-step", { code: wrong, returnTo: "/admin/enquiries" }, pending);
      expect(refused.status).toBe(401);
      expect(visibleHtml(refused.text)).toContain(TWO_STEP_TEXT.wrong(4));
      expect(refused.text).toMatch(/aria-describedby="[^"]* [^"]+"/);
      expect(await failuresOf(member.email), "the wrong code counts towards the sign-in limits").toBe(1);
      expect(cookieSet(refused, SESSION)).toBeUndefined();

      const done = await post("/admin/two-step", { code: right.replace(/^(\d{3})/, "$1 "), returnTo: "/admin/enquiries" }, pending);
      expect(done.status).toBe(302);
      expect(done.headers.location).toBe("/admin/enquiries");
      expect(await signedIn(cookieSet(done, SESSION)!)).toBe(true);
      expect(cookieSet(done, PENDING), "the pending cookie cleared").toBe(`${PENDING}=`);
      expect(await failuresOf(member.email), "the right code gave its place back").toBe(1);

      // The same code, in a new sign-in: refused, and counted.
      const second = await passwordStep(member.email);
      const reused = await post("/admin/two-step", { code: right }, second);
      expect(reused.status).toBe(401);
      expect(cookieSet(reused, SESSION)).toBeUndefined();
      expect(await failuresOf(member.email)).toBe(2);
    });

    it("takes a recovery code instead (a plain link to its field), once", async () => {
      const member = await memberWithTwoStep("recovery.step@example.com");
      const pending = await passwordStep(member.email);
      const page = await get("/admin/two-step?recovery", pending);
      expect(page.status).toBe(200);
      expect(page.text).toContain(TWO_STEP_TEXT.recoveryCode);
      expect(page.text).toContain(`>${TWO_STEP_TEXT.useApp}<`);
      const code = member.recoveryCodes[3]!;
      const done = await post("/admin/two-step", { code }, pending);
      expect(done.status).toBe(302);
      expect(done.headers.location).toBe("/admin");
      expect(await signedIn(cookieSet(done, SESSION)!)).toBe(true);

      const again = await passwordStep(member.email);
      const reused = await post("/admin/two-step", { code: code.toUpperCase() }, again);
      expect(reused.status).toBe(401);
      expect(visibleHtml(reused.text)).toContain(TWO_STEP_TEXT.wrong(4));
      const other = await post("/admin/two-step", { code: member.recoveryCodes[4]!.replace(/-/g, " ") }, again);
      expect(other.status).toBe(302);
    });

    it("ends the step after its time (410, sign in again) and after five wrong codes", async () => {
      const member = await memberWithTwoStep("slow.step@example.com");
      const pending = await passwordStep(member.email);
      await site.db
        .updateTable("pending_sign_ins")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("admin_id", "=", member.id)
        .execute();
      for (const response of [await get("/admin/two-step", pending), await post("/admin/two-step", { code: codeAt(member.setup, Date.now()) }, pending)]) {
        expect(response.status).toBe(410);
        expect(visibleHtml(response.text)).toContain(TWO_STEP_TEXT.expired(5));
        expect(cookieSet(response, SESSION)).toBeUndefined();
        expect(cookieSet(response, PENDING), "the pending cookie cleared").toBe(`${PENDING}=`);
      }
      expect((await get("/admin/two-step")).status, "no pending cookie at all").toBe(410);

      const next = await passwordStep(member.email);
      const right = codeAt(member.setup, Date.now());
      const wrong = right === "000000" ? "111111" : "000000";
      for (let left = 4; left >= 1; left--)
        expect(visibleHtml((await post("/admin/two-step", { code: wrong }, next)).text)).toContain(TWO_STEP_TEXT.wrong(left));
      const last = await post("/admin/two-step", { code: wrong }, next);
      expect(last.status).toBe(401);
      expect(visibleHtml(last.text)).toContain(TWO_STEP_TEXT.wrongLast);
      expect((await post("/admin/two-step", { code: right }, next)).status, "the right code is too late").toBe(410);
    });

    it("refuses an empty code (400) and a post from another site (403)", async () => {
      const member = await memberWithTwoStep("empty.step@example.com");
      const pending = await passwordStep(member.email);
      const empty = await post("/admin/two-step", { code: " " }, pending);
      expect(empty.status).toBe(400);
      expect(visibleHtml(empty.text)).toContain(TWO_STEP_TEXT.missing);
      const foreign = await rawRequest(site.server.port, {
        method: "POST",
        path: "/admin/two-step",
        headers: { origin: "https://evil.example", cookie: pending, "content-type": "application/x-www-form-urlencoded" },
        body: `code=${codeAt(member.setup, Date.now())}`,
      });
      expect(foreign.status).toBe(403);
      expect(cookieSet(foreign, SESSION)).toBeUndefined();
    });
  });

  describe("the owners' requirement of a second factor", () => {
    it("sends a member without one to set it up before anything else; signing out and the set-up stay open", async () => {
      await setSecondFactorRequired(site.db, true, TEST_ACTOR, new Date());
      try {
        for (const path of ["/admin", "/admin/projects", "/admin/enquiries?filter=unread", "/admin/data-requests", "/Admin/Website"]) {
          const response = await get(path, site.cookie);
          expect(response.status, path).toBe(302);
          expect(response.headers.location, path).toBe("/admin/account?setup=required");
        }
        const data = await get("/admin/projects.data", site.cookie);
        expect(data.status).toBe(202);
        expect(data.text).toContain("/admin/account?setup=required");
        const api = await get("/api/admin/enquiries", site.cookie);
        expect(api.status).toBe(403);
        expect(JSON.parse(api.text)).toMatchObject({ setUp: "/admin/account?setup=required" });
        const write = await post("/admin/enquiries", { intent: "mark-read", id: "x" }, site.cookie);
        expect(write.status, "a write is not carried out").toBe(302);
        // Not sent round in a circle: the set-up page itself is not redirected (it is i21-account's route).
        expect((await get("/admin/account?setup=required", site.cookie)).status).not.toBe(302);

        // A member with two-step sign-in passes.
        const member = await newMember("has.factor@example.com");
        const setup = await startTotpSetup(site.db, { adminId: member.id, email: member.email, issuer: "Example Lettings" }, new Date());
        const actor = { kind: "member" as const, id: member.id, email: member.email, role: "owner" as const, ip: "127.0.0.1" };
        expect((await confirmTotpSetup(site.db, { member: actor, code: codeAt(setup, Date.now() - 30_000), now: new Date() })).ok).toBe(true);
        const pending = cookieSet(await post("/admin/sign-in", { email: member.email, password: PASSWORD }), PENDING)!;
        const session = cookieSet(await post("/admin/two-step", { code: codeAt(setup, Date.now()) }, pending), SESSION)!;
        expect((await get("/admin/projects", session)).status).toBe(200);
      } finally {
        await setSecondFactorRequired(site.db, false, TEST_ACTOR, new Date());
      }
      expect((await get("/admin/projects", site.cookie)).status, "lifted").toBe(200);
    });
  });

  describe("timing", () => {
    it("answers a member's address and an unknown one in times a script cannot tell apart (50 of each, interleaved)", async () => {
      const member = await newMember("timed.member@example.com");
      const kinds = shuffled([...Array<"member">(50).fill("member"), ...Array<"unknown">(50).fill("unknown")]);
      const times = { member: [] as number[], unknown: [] as number[] };
      let n = 0;
      for (const kind of kinds) {
        await clearResetLimits(site.db);
        const email = kind === "member" ? member.email : `unknown${n++}@example.com`;
        const started = performance.now();
        const response = await post("/admin/forgot-password", { email });
        times[kind].push(performance.now() - started);
        expect(response.status).toBe(302);
      }
      const spread = Math.max(interquartileRange(times.member), interquartileRange(times.unknown));
      const superiority = probabilityOfSuperiority(times.member, times.unknown);
      const summary = `medians member ${median(times.member).toFixed(2)} / unknown ${median(times.unknown).toFixed(2)} ms, IQR member ${interquartileRange(times.member).toFixed(2)} / unknown ${interquartileRange(times.unknown).toFixed(2)} ms, P(member slower) ${superiority.toFixed(3)}`;
      console.info(`reset request timing over HTTP on ${backend.name}: ${summary}`);
      // 0.5 ± 4 standard errors of the U statistic for 50 and 50 (≈0.058 each).
      expect(superiority, summary).toBeGreaterThan(0.27);
      expect(superiority, summary).toBeLessThan(0.73);
      expect(Math.abs(median(times.member) - median(times.unknown)), summary).toBeLessThan(Math.max(spread, 1));
    });
  });

  it("writes no stack trace for any of it", () => {
    expect(site.server.stdout() + site.server.stderr()).not.toMatch(/"stack"|\\n\s+at /);
    expect(logLines(site.server.stdout()).filter((line) => line.level === "error")).toEqual([]);
  });
});

/** E-mails queued and not yet sent (a stranger's reset job is deleted unsent; a member's is kept as sent). */
async function unsent(db: Db): Promise<number> {
  return (await db.selectFrom("email_outbox").select("id").where("sent_at", "is", null).execute()).length;
}

async function clearResetLimits(db: Db) {
  await db.deleteFrom("rate_limit_events").where("bucket", "like", "password-reset%").execute();
}

describe("Forgot your password? without e-mail", () => {
  const site = useSite(backends[0]!, { signedIn: true });

  it("says the same for every address, and that no link can be sent (the log says e-mail is off)", async () => {
    const answers = [];
    for (const email of [TEST_ADMIN.email, "nobody.at.all@example.com"]) {
      const response = await rawRequest(site.server.port, {
        method: "POST",
        path: "/admin/forgot-password",
        headers: { origin: site.server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email }).toString(),
      });
      answers.push({ status: response.status, headers: headersOf(response), body: response.text });
    }
    expect(answers[0]).toMatchObject({ status: 302, headers: { location: "/admin/forgot-password?sent" } });
    expect(answers[1]).toEqual(answers[0]);
    const page = visibleHtml((await site.get("/admin/forgot-password?sent")).text);
    expect(page).toContain(FORGOT_TEXT.sent(30));
    expect(page).toContain(FORGOT_TEXT.mailOff);
    expect(visibleHtml((await site.get("/admin/forgot-password")).text)).toContain(FORGOT_TEXT.mailOff);
    await waitFor("the log line", () => site.server.stdout().includes("no link can be sent"));
    expect(await unsent(site.db)).toBe(0);
  });
});
