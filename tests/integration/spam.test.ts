/**
 * Spam defence on the built server, as a bot or a person sees it, on each
 * backend: the honeypot, the time-trap token, the content rules and the
 * per-IP limit. Caught submissions are stored with their reason and answered
 * exactly like accepted ones.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { formTokensOf } from "../support/form-tokens";
import { INVALID_EMAIL_MESSAGE, SUCCESS_MESSAGE, busyMessage, rateLimitedMessage } from "~/enquiries/schema";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import type { Database } from "~/platform/db/db.server";
import { signInOverHttp } from "../support/admin-http";
import { backends } from "../support/backends";
import { countEnquiries, findEnquiry, postForm, postJson, validEnquiry } from "../support/enquiries";
import { assertBuilt, startServer } from "../support/server";
import { useSite } from "../support/sites";
import { visibleHtml } from "../support/html";

/** React escapes the apostrophe in text content. */
const SUCCESS_HTML = SUCCESS_MESSAGE.replace("'", "&#x27;");
const LIMITED_MESSAGE = rateLimitedMessage(PLACEHOLDER_COMPANY.phone);

/** The page's contact section, with what changes from one response to the next (the token) taken out. */
function contactSection(html: string): string {
  const section = /<section id="contact"[\s\S]*?<\/section>/.exec(visibleHtml(html))?.[0];
  expect(section, "the contact section").toBeTruthy();
  return section!.replace(/name="formToken" value="[^"]*"/, 'name="formToken" value=""');
}

/** The time-trap token the landing page gives its form. */
async function pageToken(url: string): Promise<string> {
  const html = await (await fetch(`${url}/`)).text();
  const token = /<input[^>]*name="formToken"[^>]*value="([^"]*)"/.exec(html)?.[1];
  expect(token, "a formToken in the page").toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
  return token!;
}

/** Waits until a person could have filled in the form: 3.5 s after the token's own issued-at time. */
async function waitOutTimeTrap(token: string): Promise<void> {
  const readyAt = Number(token.split(".")[0]) * 1000 + 3_500;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, readyAt - Date.now())));
}

let sequence = 0;
/** A message no other test sends, to find its row by. */
function uniqueMessage(label: string): string {
  sequence += 1;
  return `${label}: two flats in Leeds need a managing agent (${process.pid}-${Date.now()}-${sequence}).`;
}

async function spamReasonOf(reader: Database, message: string): Promise<string | null> {
  return (await placementOf(reader, message)).filed;
}

/** Where an enquiry went: filed under Spam (with why), or kept in the inbox, marked as possible spam or not. */
async function placementOf(reader: Database, message: string): Promise<{ filed: string | null; marked: string | null }> {
  const rows = await findEnquiry(reader, { message });
  expect(rows, `one stored row for "${message}"`).toHaveLength(1);
  return { filed: rows[0]!.spam_reason, marked: rows[0]!.spam_signals };
}

beforeAll(() => assertBuilt());

describe.each(backends)("spam defence on $name", (backend) => {
  // Many enquiries from 127.0.0.1 here; the limit has tests of its own below.
  const site = useSite(backend, { signedIn: false, env: { CONTACT_RATE_LIMIT: "1000" } });
  /** A token signed with this database's key, issued 10 s ago: a person took their time. */
  const agedToken = () => formTokensOf(site.db).issue(new Date(Date.now() - 10_000));

  describe("the form in the page", () => {
    it("carries a honeypot hidden from people, screen readers and the tab order, but not display:none", async () => {
      const html = visibleHtml(await (await fetch(`${site.server.url}/`)).text());
      const wrapper = /<div([^>]*)>(?:(?!<\/div>)[\s\S])*name="website"[\s\S]*?<\/div>/.exec(html);
      expect(wrapper, "the honeypot's wrapper").toBeTruthy();
      const [wrapperHtml, wrapperAttributes = ""] = wrapper!;
      expect(wrapperAttributes).toContain('aria-hidden="true"');
      // Not display:none, nor visibility:hidden (some bots skip those fields): moved off-screen instead.
      expect(wrapperAttributes).not.toMatch(/\shidden(?=[\s=>]|$)|style=/);
      const classes = /class="([^"]*)"/.exec(wrapperAttributes)?.[1]?.split(/\s+/) ?? [];
      expect(classes).not.toContain("hidden");
      expect(classes).not.toContain("invisible");
      expect(wrapperHtml).toMatch(/<label[^>]*>Leave this field empty<\/label>/);
      const input = /<input[^>]*name="website"[^>]*>/.exec(wrapperHtml)![0];
      expect(input).toContain('type="text"');
      expect(input).toContain('tabindex="-1"');
      // HTML attribute names are case-insensitive; React writes autoComplete.
      expect(input).toMatch(/autocomplete="off"/i);
      expect(input).not.toMatch(/\shidden(?=[\s=>/]|$)|style=/);
    });

    it("carries a signed time-trap token", async () => {
      const token = await pageToken(site.server.url);
      const issuedAt = Number(token.split(".")[0]) * 1000;
      expect(Math.abs(issuedAt - Date.now())).toBeLessThan(60_000);
    });
  });

  describe("the honeypot", () => {
    it("catches a form with it filled in: answered as accepted, stored as honeypot", async () => {
      const message = uniqueMessage("Form honeypot");
      const response = await postForm(site.server.url, {
        ...validEnquiry,
        message,
        website: "http://spam.example",
        formToken: await agedToken(),
      });
      expect(response.status).toBe(200);
      expect(visibleHtml(await response.text())).toContain(SUCCESS_HTML);
      expect(await spamReasonOf(site.reader, message)).toBe("honeypot");
    });

    it("catches an API call with a website property: answered 201 as accepted, stored as honeypot", async () => {
      const message = uniqueMessage("API honeypot");
      const response = await postJson(site.server.url, { ...validEnquiry, message, website: "http://spam.example" });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { id: string };
      expect(body).toEqual({ ok: true, id: expect.any(String), message: SUCCESS_MESSAGE });
      expect((await findEnquiry(site.reader, { id: body.id }))[0]).toMatchObject({ message, spam_reason: "honeypot" });
    });

    it("does not hide invalid input: the normal 400 message, nothing stored", async () => {
      const before = await countEnquiries(site.reader);
      const form = await postForm(site.server.url, { ...validEnquiry, email: "not-an-address", website: "x", formToken: await agedToken() });
      expect(form.status).toBe(400);
      expect(visibleHtml(await form.text())).toContain(INVALID_EMAIL_MESSAGE);
      const api = await postJson(site.server.url, { ...validEnquiry, email: "not-an-address", website: "x" });
      expect(api.status).toBe(400);
      expect(await api.json()).toMatchObject({ error: INVALID_EMAIL_MESSAGE });
      expect(await countEnquiries(site.reader)).toBe(before);
    });
  });

  describe("the time trap (HTML form)", () => {
    it("marks a form without a token as possible spam (no-token), kept in the inbox and answered with the success message", async () => {
      const message = uniqueMessage("No token");
      const response = await postForm(site.server.url, { ...validEnquiry, message });
      expect(response.status).toBe(200);
      expect(visibleHtml(await response.text())).toContain(SUCCESS_HTML);
      expect(await placementOf(site.reader, message)).toEqual({ filed: null, marked: "no-token" });
    });

    it("catches a forged or damaged token as bad-token", async () => {
      const [issuedAt, signature] = (await agedToken()).split(".") as [string, string];
      const forged = [
        `${Number(issuedAt) - 3600}.${signature}`,
        `${issuedAt}.${"A".repeat(43)}`,
        "garbage",
        `${issuedAt}${signature}`,
        "🙂".repeat(20),
        "9".repeat(5000),
      ];
      for (const formToken of forged) {
        const message = uniqueMessage("Forged token");
        const response = await postForm(site.server.url, { ...validEnquiry, message, formToken });
        expect(response.status, formToken.slice(0, 40)).toBe(200);
        expect(visibleHtml(await response.text())).toContain(SUCCESS_HTML);
        expect(await spamReasonOf(site.reader, message)).toBe("bad-token");
      }
    });

    it("only marks a form sent back under 3 s after the page as possible spam (too-fast): a quick person stays in the inbox", async () => {
      const message = uniqueMessage("Too fast");
      const response = await postForm(site.server.url, { ...validEnquiry, message, formToken: await pageToken(site.server.url) });
      expect(response.status).toBe(200);
      expect(visibleHtml(await response.text())).toContain(SUCCESS_HTML);
      expect(await placementOf(site.reader, message)).toEqual({ filed: null, marked: "too-fast" });
    });

    it("accepts a form sent back 3 s or more after the page as a real enquiry", async () => {
      const formToken = await pageToken(site.server.url);
      await waitOutTimeTrap(formToken);
      const message = uniqueMessage("Patient person");
      const response = await postForm(site.server.url, { ...validEnquiry, message, formToken });
      expect(response.status).toBe(200);
      expect(visibleHtml(await response.text())).toContain(SUCCESS_HTML);
      expect(await spamReasonOf(site.reader, message)).toBeNull();
    });

    it("answers spam exactly as it answers a real enquiry", async () => {
      const real = await postForm(site.server.url, { ...validEnquiry, message: uniqueMessage("Real"), formToken: await agedToken() });
      const spam = await postForm(site.server.url, { ...validEnquiry, message: uniqueMessage("Spam"), website: "x", formToken: await agedToken() });
      expect(spam.status).toBe(real.status);
      expect(spam.headers.get("content-type")).toBe(real.headers.get("content-type"));
      expect(contactSection(await spam.text())).toBe(contactSection(await real.text()));
    });
  });

  describe("the JSON API", () => {
    it("accepts an enquiry without a token as real", async () => {
      const message = uniqueMessage("API without token");
      const response = await postJson(site.server.url, { ...validEnquiry, message });
      expect(response.status).toBe(201);
      expect(await spamReasonOf(site.reader, message)).toBeNull();
    });

    it("checks a token it is sent, as the form does", async () => {
      const cases: Array<[token: string, placement: { filed: string | null; marked: string | null }]> = [
        [await agedToken(), { filed: null, marked: null }],
        [await pageToken(site.server.url), { filed: null, marked: "too-fast" }],
        ["1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", { filed: "bad-token", marked: null }],
      ];
      for (const [formToken, placement] of cases) {
        const message = uniqueMessage("API with token");
        const response = await postJson(site.server.url, { ...validEnquiry, message, formToken });
        expect(response.status).toBe(201);
        expect(await response.json()).toEqual({ ok: true, id: expect.any(String), message: SUCCESS_MESSAGE });
        expect(await placementOf(site.reader, message), formToken).toEqual(placement);
      }
    });
  });

  describe("the content rules", () => {
    it("mark three links in the message as possible spam (links), and let one or two through", async () => {
      const spam = `${uniqueMessage("Links")} http://a.example https://b.example www.c.example`;
      const response = await postJson(site.server.url, { ...validEnquiry, message: spam });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ ok: true, id: expect.any(String), message: SUCCESS_MESSAGE });
      expect(await placementOf(site.reader, spam)).toEqual({ filed: null, marked: "links" });

      const fine = `${uniqueMessage("Two links")} https://www.rightmove.co.uk/1 and www.zoopla.co.uk/2`;
      expect((await postJson(site.server.url, { ...validEnquiry, message: fine })).status).toBe(201);
      expect(await spamReasonOf(site.reader, fine)).toBeNull();
    });

    it("file link markup under Spam; mark a link in the name alone, file it with another signal", async () => {
      const markup = `${uniqueMessage("Markup")} [url=http://spam.example]cheap[/url]`;
      const form = await postForm(site.server.url, { ...validEnquiry, message: markup, formToken: await agedToken() });
      expect(form.status).toBe(200);
      expect(visibleHtml(await form.text())).toContain(SUCCESS_HTML);
      expect(await spamReasonOf(site.reader, markup)).toBe("link-markup");

      const named = uniqueMessage("Link in name");
      const api = await postJson(site.server.url, { ...validEnquiry, name: "Cheap loans www.spam.example", message: named });
      expect(api.status).toBe(201);
      expect(await placementOf(site.reader, named)).toEqual({ filed: null, marked: "link-in-name" });

      const namedFast = uniqueMessage("Link in name, fast");
      const fast = await postForm(site.server.url, {
        ...validEnquiry,
        name: "Cheap loans www.spam.example",
        message: namedFast,
        formToken: await pageToken(site.server.url),
      });
      expect(fast.status).toBe(200);
      expect(await placementOf(site.reader, namedFast)).toEqual({ filed: "too-fast+link-in-name", marked: null });
    });
  });

  describe("the privacy notice", () => {
    it("says what is stored, why, for how long, and links the Privacy Policy; without ENQUIRY_RETENTION_DAYS, kept as long as needed", async () => {
      const section = contactSection(await (await fetch(`${site.server.url}/`)).text());
      expect(section).toContain("We store your name, e-mail address, phone number (if you give one) and message only to answer your enquiry");
      expect(section).toContain("never sell them or share them with third parties for marketing");
      expect(section).toContain("They are kept only as long as needed to deal with your enquiry, and deleted on request.");
      expect(section).toMatch(/<a[^>]*>Privacy Policy<\/a>/);
    });
  });

  describe("the per-IP limit (CONTACT_RATE_LIMIT=2)", () => {
    const limitedSite = useSite(backend, { signedIn: false, env: { CONTACT_RATE_LIMIT: "2", ENQUIRY_RETENTION_DAYS: "30" } });

    const typed = {
      name: "Typed Name Kept",
      email: "typed@example.com",
      phone: "07700 900123",
      userType: "investor",
      message: "Typed message kept",
    };

    it("counts stored submissions, spam included, not refused ones; the third gets 429 with Retry-After and nothing is stored", async () => {
      expect((await postJson(limitedSite.server.url, { ...validEnquiry, message: "First, real" })).status).toBe(201);
      // Invalid: refused, so it does not count.
      expect((await postJson(limitedSite.server.url, { ...validEnquiry, email: "nope" })).status).toBe(400);
      // Spam (no token) still counts.
      expect((await postForm(limitedSite.server.url, { ...validEnquiry, message: "Second, spam" })).status).toBe(200);
      expect(await countEnquiries(limitedSite.reader)).toBe(2);

      const refused = await postJson(limitedSite.server.url, { ...validEnquiry, message: "Third, refused" });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      // Until the first submission, a moment ago, leaves the hour.
      expect(retryAfter).toBeGreaterThan(3000);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await refused.json()).toEqual({ error: LIMITED_MESSAGE });
      expect(await countEnquiries(limitedSite.reader)).toBe(2);
    });

    it("answers the HTML form with 429, the message in its error notice and everything typed kept", async () => {
      const response = await postForm(limitedSite.server.url, {
        ...typed,
        formToken: await formTokensOf(limitedSite.reader.db).issue(new Date(Date.now() - 10_000)),
      });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      const html = visibleHtml(await response.text());
      expect(html).toMatch(new RegExp(`role="alert"[^>]*>\\s*<div[^>]*id="contact-form-error"[\\s\\S]*?${LIMITED_MESSAGE.replace(/[.]/g, "\\.")}`));
      expect(html).toContain('value="Typed Name Kept"');
      expect(html).toContain('value="typed@example.com"');
      expect(html).toContain('value="07700 900123"');
      expect(html).toMatch(/<textarea[^>]*>\s*Typed message kept\s*<\/textarea>/);
      expect(html).toMatch(/<option[^>]*value="investor"[^>]*selected|<option[^>]*selected[^>]*value="investor"/);
      expect(html).not.toContain(SUCCESS_HTML);
      expect(await countEnquiries(limitedSite.reader)).toBe(2);
    });

    it("frees the connection once its submissions are an hour old: the refused attempts did not count", async () => {
      const hourAgo = new Date(Date.now() - 60 * 60 * 1000 - 1000).toISOString();
      await limitedSite.reader.db.updateTable("rate_limit_events").set({ created_at: hourAgo }).where("bucket", "=", "contact-submission").execute();
      // The hour passes in the database only: the server that refused remembers its refusal until the hour is
      // really over (decision 037), so a server started since asks the database.
      const later = await startServer({ ...limitedSite.database.env, CONTACT_RATE_LIMIT: "2" });
      try {
        expect((await postJson(later.url, { ...validEnquiry, message: "After the hour" })).status).toBe(201);
        expect((await postJson(later.url, { ...validEnquiry, message: "After the hour, again" })).status).toBe(201);
        expect((await postJson(later.url, { ...validEnquiry, message: "One too many" })).status).toBe(429);
      } finally {
        await later.stop();
      }
    });

    if (backend.name === "postgres") {
      it("is shared by a second server process on the same database", async () => {
        const second = await startServer({ ...limitedSite.database.env, CONTACT_RATE_LIMIT: "2" });
        try {
          const before = await countEnquiries(limitedSite.reader);
          const response = await postJson(second.url, { ...validEnquiry, message: "Via the other instance" });
          expect(response.status).toBe(429);
          expect(await response.json()).toEqual({ error: LIMITED_MESSAGE });
          expect(await countEnquiries(limitedSite.reader)).toBe(before);
        } finally {
          await second.stop();
        }
      });
    }

    it("shows the retention period in the privacy notice when ENQUIRY_RETENTION_DAYS is set", async () => {
      const section = contactSection(await (await fetch(`${limitedSite.server.url}/`)).text());
      expect(section).toContain("They are deleted after 30 days.");
      expect(section).not.toContain("kept only as long as needed");
    });
  });

  describe("the per-IP limit over IPv6 (CONTACT_RATE_LIMIT=2, behind a proxy)", () => {
    const proxiedSite = useSite(backend, { signedIn: false, env: { CONTACT_RATE_LIMIT: "2", TRUST_PROXY: "loopback" } });

    const from = (ip: string, message: string) => postJson(proxiedSite.server.url, { ...validEnquiry, message }, { "x-forwarded-for": ip });

    it("counts a whole /64 as one sender, so rotating addresses in it does not help", async () => {
      expect((await from("2001:db8:1:2::1", "First from the /64")).status).toBe(201);
      expect((await from("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "Second from the /64")).status).toBe(201);
      expect((await from("2001:db8:1:2::3", "Third from the /64")).status).toBe(429);
      // Another network, and an IPv4 sender, have their own count.
      expect((await from("2001:db8:1:3::1", "From the next /64")).status).toBe(201);
      expect((await from("198.51.100.7", "From IPv4")).status).toBe(201);
    });
  });

  describe("the site-wide limit and the hard ceiling (CONTACT_SITE_LIMIT=2, CONTACT_HARD_LIMIT=3, behind a proxy)", () => {
    const busySite = useSite(backend, { env: { CONTACT_SITE_LIMIT: "2", CONTACT_HARD_LIMIT: "3", TRUST_PROXY: "loopback" } });

    it("holds the third enquiry within the hour from anyone, refuses the fourth with 429 and a phone number, and tells the admin of both", async () => {
      const from = (ip: string, message: string) => postJson(busySite.server.url, { ...validEnquiry, message }, { "x-forwarded-for": ip });
      expect((await from("198.51.100.1", "First of the hour")).status).toBe(201);
      expect((await from("198.51.100.2", "Second of the hour")).status).toBe(201);
      // Over CONTACT_SITE_LIMIT: stored and answered like any other, but held in a flood.
      expect((await from("198.51.100.3", "Third of the hour")).status).toBe(201);
      expect(await placementOf(busySite.reader, "Third of the hour")).toEqual({ filed: null, marked: "flood" });
      expect(await placementOf(busySite.reader, "Second of the hour")).toEqual({ filed: null, marked: null });
      // Over CONTACT_HARD_LIMIT: refused, and nothing stored.
      const refused = await from("198.51.100.4", "Fourth of the hour");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await refused.json()).toEqual({ error: busyMessage(PLACEHOLDER_COMPANY.phone) });
      expect(await findEnquiry(busySite.reader, { message: "Fourth of the hour" })).toEqual([]);

      const dashboard = visibleHtml(await (await fetch(`${busySite.server.url}/admin`, { headers: { cookie: await signInOverHttp(busySite.server) } })).text());
      expect(dashboard).toMatch(/1 enquiry arrived during a flood in the last 24 hours, after more than 2 had arrived within an hour \(CONTACT_SITE_LIMIT\)/);
      expect(dashboard).toMatch(
        /Enquiries turned away in the last 24 hours: 1 because more than 3 arrived within an hour from everyone together \(CONTACT_HARD_LIMIT\); the last at/,
      );
    });
  });
});
