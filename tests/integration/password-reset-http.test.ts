/**
 * "Forgot your password?" over HTTP, on the built server, on each backend
 * (issue 21, decisions 043 and 051): the link on the sign-in form; the same
 * answer for a member's address and a stranger's; the e-mailed link through a
 * real SMTP server; the page it opens, which sets a new password once, ends
 * every session of the member and sends them to sign in with it; a used,
 * made-up or mistyped attempt refused with its reason and nothing changed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { RESET_TEXT } from "~/admin/reset-texts";
import { findSession } from "~/auth/sessions.server";
import { TEST_ADMIN, postAdminForm, signInOverHttp } from "../support/admin-http";
import { backends } from "../support/backends";
import { rawRequest, type RawResponse } from "../support/http";
import { assertBuilt } from "../support/server";
import { useSite, useSiteWithMail } from "../support/sites";
import { parseMessage } from "../support/smtp";
import { shown } from "../support/team-http";
import { waitFor } from "../support/wait";

const RESET_LINK = /https?:\/\/[^"\s<]+\/admin\/reset-password\?token=([A-Za-z0-9_-]{43})/;
const NEW_PASSWORD = "a brand new password after forgetting";

beforeAll(() => assertBuilt());

/** What a visitor sees of an answer, and how it was sent: what must not differ between a member's address and a stranger's. */
function outwardly(response: RawResponse) {
  const { date: _date, "x-request-id": _id, "content-security-policy": _csp, "content-length": _length, ...headers } = response.headers;
  return { status: response.status, text: shown(response), headers: Object.keys(headers).sort() };
}

describe.each(backends)("a forgotten password over HTTP on $name", (backend) => {
  describe("with a mail server", () => {
    const { site, smtp } = useSiteWithMail(backend);
    const ask = (email: string) => postAdminForm(site.server, "", "/admin/forgot-password", { email });

    it("links to it from the sign-in form", async () => {
      const page = await site.get("/admin/sign-in");
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/<a [^>]*href="\/admin\/forgot-password"[^>]*>Forgot your password\?<\/a>/);
      const forgot = await site.get("/admin/forgot-password");
      expect(forgot.status).toBe(200);
      expect(shown(forgot)).toContain(RESET_TEXT.forgotIntro);
    });

    it("answers a member's address and a stranger's alike; e-mails the member a link that sets a new password once and ends every session", async () => {
      const member = await ask(TEST_ADMIN.email.toUpperCase());
      const stranger = await ask("nobody.here@example.com");
      expect(outwardly(member)).toEqual(outwardly(stranger));
      expect(member.status).toBe(200);
      expect(shown(member)).toContain(RESET_TEXT.sent);

      await waitFor("the reset e-mail", () => smtp.messages.some((message) => message.envelopeTo.includes(TEST_ADMIN.email)));
      // The stranger's job is composed to nothing and deleted unsent.
      const resetJobs = () => site.db.selectFrom("email_outbox").select("status").where("kind", "=", "password-reset").execute();
      await waitFor("the member's job sent and the stranger's gone", async () => (await resetJobs()).map((job) => job.status).join() === "sent");
      expect(smtp.messages.some((message) => message.envelopeTo.includes("nobody.here@example.com"))).toBe(false);
      const email = await parseMessage(smtp.messages.find((message) => message.envelopeTo.includes(TEST_ADMIN.email))!);
      const link = RESET_LINK.exec(email.text ?? "");
      expect(link?.[0]).toMatch(new RegExp(`^${site.server.url}/admin/reset-password\\?token=`));
      const token = link![1]!;

      const page = await site.get(`/admin/reset-password?token=${token}`);
      expect(page.status).toBe(200);
      expect(shown(page)).toContain(RESET_TEXT.resetIntro(TEST_ADMIN.email));

      const post = (fields: Record<string, string>) => postAdminForm(site.server, "", `/admin/reset-password?token=${token}`, fields);
      // Mistyped or too short: said, and the link still works.
      const mismatch = await post({ password: NEW_PASSWORD, repeat: `${NEW_PASSWORD}!` });
      expect(mismatch.status).toBe(400);
      expect(shown(mismatch)).toContain(RESET_TEXT.mismatch);
      const short = await post({ password: "short", repeat: "short" });
      expect(short.status).toBe(400);
      expect(shown(short)).toContain("at least 12 characters");
      expect(await findSession(site.db, site.cookie.split("=")[1]!), "refused: the session stays").toBeDefined();

      const done = await post({ password: NEW_PASSWORD, repeat: NEW_PASSWORD });
      expect(done.status).toBe(302);
      expect(done.headers.location).toBe("/admin/sign-in?reset=done");
      expect(shown(await site.get("/admin/sign-in?reset=done"))).toContain(RESET_TEXT.done);
      expect(await findSession(site.db, site.cookie.split("=")[1]!), "every session of the member ended").toBeUndefined();
      expect(await signInOverHttp(site.server, { email: TEST_ADMIN.email, password: NEW_PASSWORD })).toMatch(/^__Host-admin_session=/);

      // Used once: the page and its form say so, and change nothing.
      const again = await site.get(`/admin/reset-password?token=${token}`);
      expect(again.status).toBe(410);
      expect(shown(again)).toContain(RESET_TEXT.used);
      const reused = await post({ password: "yet another long password", repeat: "yet another long password" });
      expect(reused.status).toBe(410);
      expect(await signInOverHttp(site.server, { email: TEST_ADMIN.email, password: NEW_PASSWORD })).toMatch(/^__Host-admin_session=/);
    });

    it("refuses a made-up link (404) and an address that is not one (400), and another site's post (403)", async () => {
      const madeUp = await site.get(`/admin/reset-password?token=${"A".repeat(43)}`);
      expect(madeUp.status).toBe(404);
      expect(shown(madeUp)).toContain(RESET_TEXT.invalid);
      const notAnAddress = await ask("not-an-address");
      expect(notAnAddress.status).toBe(400);
      expect(shown(notAnAddress)).toContain(RESET_TEXT.notAnAddress);
      const crossSite = await rawRequest(site.server.port, {
        method: "POST",
        path: "/admin/forgot-password",
        headers: { origin: "https://elsewhere.example", "content-type": "application/x-www-form-urlencoded" },
        body: `email=${encodeURIComponent(TEST_ADMIN.email)}`,
      });
      expect(crossSite.status).toBe(403);
    });
  });

  describe("over its limits", () => {
    const { site } = useSiteWithMail(backend);

    it("refuses a fourth request for one address within the hour with 429 and Retry-After, and the owners' dashboard says so", async () => {
      const ask = () => postAdminForm(site.server, "", "/admin/forgot-password", { email: "asked.often@example.com" });
      for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(200);
      const refused = await ask();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(shown(refused)).toContain("Too many requests for a link.");
      const dashboard = shown(await site.get("/admin/enquiries", { cookie: site.cookie }));
      expect(dashboard).toContain("Requests for a new password turned away in the last 24 hours: 1,");
    });
  });

  describe("with e-mail off", () => {
    const site = useSite(backend, { signedIn: false });

    it("says no link can be sent and who can help, the same for every address", async () => {
      const ask = (email: string) => postAdminForm(site.server, "", "/admin/forgot-password", { email });
      const member = await ask("someone@example.com");
      const stranger = await ask("nobody.here@example.com");
      expect(outwardly(member)).toEqual(outwardly(stranger));
      expect(shown(member)).toContain(RESET_TEXT.noMail);
    });
  });
});
