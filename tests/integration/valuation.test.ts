/**
 * The landlord's valuation request (issue 22, decision 057) on each backend:
 * the page /valuation and its links, validation (a postcode that is not one
 * gets the form's own message and stores nothing), storage as an enquiry of
 * the kind Valuation request starting as New, the notification e-mail, the
 * inbox's card, the CSV, a UK GDPR export and erasure, the contact form's
 * limits, and the sitemap. Requests go in over HTTP as a browser or an API
 * client sends them.
 */
import { describe, expect, it } from "vitest";
import { REQUIRED_MESSAGE } from "~/enquiries/schema";
import { VALUATION_TEXT } from "~/enquiries/valuation";
import { sectionValues, siteDefaults } from "~/website/content";
import { readDraft } from "~/website/website.server";
import { backends } from "../support/backends";
import { parseCsv } from "../support/csv";
import { countEnquiries, postJson } from "../support/enquiries";
import { formTokensOf } from "../support/form-tokens";
import { htmlText, visibleText } from "../support/html";
import { useSite, useSiteWithMail } from "../support/sites";

/** A valuation request as the page's form sends it. */
const REQUEST = {
  address: "Flat 2, 14 Albion Street, Leeds",
  postcode: " ls1 6af ",
  propertyType: "flat",
  bedrooms: "2",
  occupancy: "vacant",
  letBy: "month",
  name: "Priya Landlord",
  email: "priya@example.com",
  phone: "0113 496 0000",
  callTime: "morning",
  message: "Keys are with the neighbour.",
};

/** POST /valuation, urlencoded, as the form without JavaScript sends it, with a token issued 10 s ago. */
async function postValuationForm(site: { server: { url: string }; db: Parameters<typeof formTokensOf>[0] }, fields: Record<string, string>) {
  const formToken = await formTokensOf(site.db).issue(new Date(Date.now() - 10_000));
  return fetch(`${site.server.url}/valuation`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, website: "", formToken }).toString(),
  });
}

describe.each(backends)("the valuation request on $name", (backend) => {
  describe("with e-mail on", () => {
    const { site } = useSiteWithMail(backend, { CONTACT_RATE_LIMIT: "1000" });

    it("is a page of its own, linked from the hero and the pricing section, and in the sitemap", async () => {
      const page = await site.get("/valuation");
      expect(page.status).toBe(200);
      const html = page.body.toString();
      expect(html).toMatch(/<h1[^>]*>Request a free rental valuation<\/h1>/);
      expect(html).toContain('action="/valuation"');
      for (const label of ["Address of the property", "Postcode", "Type of property", "Bedrooms", "Full Name", "Email Address", "Phone Number"]) {
        expect(html).toContain(`${htmlText(label)}<`);
      }
      for (const legend of ["Is the property vacant, let or not yet bought?", "When would you like it let?", "Best time to call you"]) {
        expect(html).toMatch(new RegExp(`<legend[^>]*>${htmlText(legend).replace(/[?()]/g, "\\$&")}`));
      }
      const landing = (await site.get("/")).body.toString();
      expect(landing.match(/href="\/valuation"/g)).toHaveLength(2);
      expect((await site.get("/sitemap.xml")).body.toString()).toContain("/valuation</loc>");
    });

    it("refuses a postcode that is not one with the form's own message, keeps what was typed, and stores nothing", async () => {
      const before = await countEnquiries(site.reader);
      const response = await postValuationForm(site, { ...REQUEST, postcode: "LS99 ZZZ1" });
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(visibleText(html)).toContain(VALUATION_TEXT.postcode);
      expect(html).toMatch(/id="valuation-postcode"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="valuation-postcode"/);
      expect(html).toContain(`value="${htmlText(REQUEST.address)}"`);
      const api = await postJson(site.server.url, { ...REQUEST, kind: "valuation", postcode: "12345" });
      expect(api.status).toBe(400);
      expect(await api.json()).toEqual({ error: VALUATION_TEXT.postcode, fields: ["postcode"] });
      const missing = await postJson(site.server.url, { ...REQUEST, kind: "valuation", occupancy: "" });
      expect(await missing.json()).toEqual({ error: REQUIRED_MESSAGE, fields: ["occupancy"] });
      const unknown = await postJson(site.server.url, { ...REQUEST, kind: "quote" });
      expect(unknown.status).toBe(400);
      expect(await countEnquiries(site.reader)).toBe(before);
    });

    it("stores a request sent without JavaScript as a Valuation request, New, with its postcode written as Royal Mail does", async () => {
      const response = await postValuationForm(site, REQUEST);
      expect(response.status).toBe(200);
      expect(visibleText(await response.text())).toContain(VALUATION_TEXT.success);
      const row = await site.db.selectFrom("contact_submissions").selectAll().where("email", "=", REQUEST.email).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        kind: "valuation",
        status: "new",
        user_type: "landlord",
        name: REQUEST.name,
        phone: REQUEST.phone,
        message: REQUEST.message,
      });
      expect(JSON.parse(row.details!)).toEqual({
        address: REQUEST.address,
        postcode: "LS1 6AF",
        propertyType: "flat",
        bedrooms: "2",
        occupancy: "vacant",
        letBy: "month",
        callTime: "morning",
      });
    });

    it("queues a notification that gives every detail, in the same transaction", async () => {
      const response = await postJson(site.server.url, { ...REQUEST, kind: "valuation", email: "mail@example.com", message: "" });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      const job = await site.db.selectFrom("email_outbox").select(["message", "kind"]).where("submission_id", "=", id).executeTakeFirstOrThrow();
      const message = JSON.parse(job.message) as { subject: string; text: string; html: string; replyTo: string };
      expect(job.kind).toBe("notification");
      expect(message.subject).toBe(`New valuation request from ${REQUEST.name} (LS1 6AF)`);
      expect(message.replyTo).toBe("mail@example.com");
      for (const line of [
        "Property address: Flat 2, 14 Albion Street, Leeds",
        "Postcode: LS1 6AF",
        "Property type: Flat or apartment",
        "Bedrooms: 2",
        "Vacant, let or not yet bought: Vacant",
        "Would like it let: Within a month",
        "Best time to call: Morning (9am to 12pm)",
        "Phone: 0113 496 0000",
      ]) {
        expect(message.text).toContain(line);
      }
      expect(message.html).toContain('<th scope="row" style="padding:4px 12px 4px 0;vertical-align:top;text-align:left;font-weight:bold;">Postcode</th>');
      const row = await site.db.selectFrom("contact_submissions").select(["kind", "status"]).where("id", "=", id).executeTakeFirstOrThrow();
      expect(row).toEqual({ kind: "valuation", status: "new" });
    });

    it("reads the address with the spam rules: link markup there files the request under Spam, as in a message", async () => {
      const response = await postJson(site.server.url, {
        ...REQUEST,
        kind: "valuation",
        email: "links@example.com",
        address: '<a href="https://pills.example">cheap pills</a>',
      });
      expect(response.status).toBe(201);
      const row = await site.db
        .selectFrom("contact_submissions")
        .select(["spam_signals", "spam_reason"])
        .where("email", "=", "links@example.com")
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ spam_signals: null, spam_reason: "link-markup" });
      await site.db
        .deleteFrom("email_outbox")
        .where("submission_id", "in", site.db.selectFrom("contact_submissions").select("id").where("email", "=", "links@example.com"))
        .execute();
      await site.db.deleteFrom("contact_submissions").where("email", "=", "links@example.com").execute();
    });

    it("shows its details on the inbox's card, and in the CSV after the columns that were there before", async () => {
      const inbox = visibleText((await site.get("/admin/enquiries", { cookie: site.cookie })).body.toString());
      expect(inbox).toContain("Valuation request");
      expect(inbox).toContain("Vacant, let or not yet bought Vacant");
      expect(inbox).toContain("Postcode LS1 6AF");

      const csv = await fetch(`${site.server.url}/admin/enquiries.csv?filter=all`, { headers: { cookie: site.cookie } });
      const [header, ...records] = parseCsv(await csv.text());
      expect(header).toEqual([
        "Submitted",
        "Name",
        "Email",
        "Phone",
        "User type",
        "Message",
        "Read",
        "Possible spam",
        "Kind",
        "Property address",
        "Postcode",
        "Property type",
        "Bedrooms",
        "Vacant, let or not yet bought",
        "Would like it let",
        "Best time to call",
      ]);
      const record = records.find((values) => values[2] === REQUEST.email)!;
      expect(record.slice(8)).toEqual([
        "Valuation request",
        REQUEST.address,
        "LS1 6AF",
        "Flat or apartment",
        "2",
        "Vacant",
        "Within a month",
        "Morning (9am to 12pm)",
      ]);
    });

    it("gives the details in a UK GDPR export, and erases them with the enquiry", async () => {
      const exported = await fetch(`${site.server.url}/admin/data-requests?email=${REQUEST.email}&format=json`, { headers: { cookie: site.cookie } });
      expect(exported.status).toBe(200);
      const body = JSON.stringify(await exported.json());
      expect(body).toContain('"kind":"valuation"');
      expect(body).toContain('"postcode":"LS1 6AF"');
      expect(body).toContain(`"address":"${REQUEST.address}"`);

      const erased = await site.postForm("/admin/data-requests", { intent: "erase", email: REQUEST.email, confirmed: "yes" });
      expect(erased.status).toBeLessThan(400);
      const left = await site.db.selectFrom("contact_submissions").select("details").where("email", "=", REQUEST.email).execute();
      expect(left).toEqual([]);
    });
  });

  describe("its texts in the Website tab", () => {
    const site = useSite(backend);
    const draft = () => readDraft(site.db, siteDefaults());

    it("are a section of their own: saved to the draft, then published, they title the page and name its links", async () => {
      const tab = (await site.get("/admin/website?section=valuation", { cookie: site.cookie })).body.toString();
      expect(tab).toContain(">Valuation<");
      const current = await draft();
      const saved = await site.postForm("/admin/website?section=valuation", {
        intent: "save-section",
        section: "valuation",
        revision: String(current.revision),
        ...sectionValues("valuation", current.content),
        "valuation.title": "Free valuation for landlords",
        "valuation.link": "Book your free valuation",
      });
      expect(saved.status).toBeLessThan(400);
      // Not live until published.
      expect((await site.get("/valuation")).body.toString()).toMatch(/<h1[^>]*>Request a free rental valuation<\/h1>/);
      const published = await site.postForm("/admin/website", { intent: "publish", revision: String((await draft()).revision) });
      expect(published.status).toBe(302);
      expect((await site.get("/valuation")).body.toString()).toMatch(/<h1[^>]*>Free valuation for landlords<\/h1>/);
      const landing = (await site.get("/")).body.toString();
      expect(landing.match(/<a href="\/valuation"[^>]*>Book your free valuation/g)).toHaveLength(2);
    });
  });

  describe("under the contact form's limits", () => {
    const site = useSite(backend, { signedIn: false, env: { CONTACT_RATE_LIMIT: "1" } });

    it("shares one connection's hourly limit with the contact form: refused, and nothing stored", async () => {
      const contact = await postJson(site.server.url, {
        name: "Grace Hopper",
        email: "grace@example.com",
        userType: "landlord",
        message: "Three houses in Leeds need a managing agent.",
      });
      expect(contact.status).toBe(201);
      const refused = await postValuationForm(site, REQUEST);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await countEnquiries(site.reader)).toBe(1);
    });
  });
});
