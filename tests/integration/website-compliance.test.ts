/**
 * What a UK letting agent must publish (issue 15): the fees page with amounts
 * including VAT, the VAT statement beside the prices, the redress and client
 * money protection schemes and the company's registration in the footer, the
 * policies written in Markdown (never running markup), and the dashboard's
 * warning before the client money protection certificate lapses.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { publicDataVersion } from "~/platform/db/data-version.server";
import { siteDefaults, type SiteContent } from "~/website/content";
import { VAT_STATEMENTS } from "~/website/sections/fees";
import { TEMPLATE_NOTICE } from "~/website/sections/policies";
import { publishDraft, readDraft, saveDraft } from "~/website/website.server";
import { backends } from "../support/backends";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

const DEFAULTS = siteDefaults();

beforeAll(() => assertBuilt());

describe.each(backends)("what a letting agent publishes, on $name", (backend) => {
  const site = useSite(backend, { env: { ENQUIRY_RETENTION_DAYS: "180" } });
  const page = (path: string, headers: Record<string, string> = {}) => site.get(path, headers);
  const post = (fields: Record<string, string>) => site.postForm("/admin/website", fields);
  const revision = async () => String((await readDraft(site.db, DEFAULTS)).revision);
  const publish = async () => expect((await post({ intent: "publish", revision: await revision() })).status).toBe(302);
  /** Publishes a change made straight in the database, as another instance or an import would. */
  const publishContent = async (change: (content: SiteContent) => SiteContent) => {
    const draft = await readDraft(site.db, DEFAULTS);
    expect(
      (
        await saveDraft(site.db, {
          content: change(draft.content),
          defaults: DEFAULTS,
          baseRevision: draft.revision,
          by: "test",
          actor: TEST_ACTOR,
          now: new Date(),
        })
      ).ok,
    ).toBe(true);
    expect((await publishDraft(site.db, { defaults: DEFAULTS, baseRevision: draft.revision + 1, by: "test", actor: TEST_ACTOR, now: new Date() })).ok).toBe(
      true,
    );
  };

  it("a fresh site has no fees page in its sitemap, and the footer's policy links stay placeholders", async () => {
    const home = await page("/");
    expect(home.text).not.toContain('href="/fees"');
    for (const title of ["Privacy Policy", "Terms of Service", "Cookie Policy"]) expect(home.text).toContain(`<a class="text-slate-300">${title}</a>`);
    expect((await page("/sitemap.xml")).text).not.toContain("/fees");
    expect((await page("/privacy")).status).toBe(404);
  });

  it("publishes the fees with amounts including VAT and the VAT statement, linked from the pricing and the footer", async () => {
    const saved = await post({
      intent: "save-section",
      section: "fees",
      revision: await revision(),
      "fees.vatStatus": "included",
      "fees.landlord.0.name": "Tenant find",
      "fees.landlord.0.amount": "600",
      "fees.landlord.0.basis": "per-property",
      "fees.landlord.0.covers": "Advertising, viewings and referencing a new tenant.",
      "fees.landlord.0.calculation": "Once, when a tenancy starts.",
      "fees.tenant.0.name": "Change of sharer",
      "fees.tenant.0.amount": "50",
      "fees.tenant.0.basis": "per-tenant",
      "fees.tenant.0.covers": "Changing a tenancy at the tenant's request.",
      "fees.tenant.0.calculation": "Once per change, as the Tenant Fees Act 2019 permits.",
    });
    expect(saved.status).toBe(302);
    const versionBefore = await publicDataVersion(site.db);
    await publish();
    expect(await publicDataVersion(site.db)).toBeGreaterThan(versionBefore);

    const fees = await page("/fees");
    expect(fees.status).toBe(200);
    for (const text of [
      "Fees to landlords",
      "Tenant find",
      "£600",
      "Per property",
      "Fees to tenants",
      "Change of sharer",
      "£50",
      "Per tenant",
      "Amount (inc. VAT)",
      VAT_STATEMENTS.included,
    ]) {
      expect(fees.text).toContain(text);
    }
    const home = await page("/");
    expect(home.text).toContain('href="/fees"');
    expect(home.text).toContain(VAT_STATEMENTS.included);
    expect(home.text).toMatch(/per property(<!-- -->)?, inc\. VAT/);
    expect((await page("/sitemap.xml")).text).toContain("/fees</loc>");
  });

  it("refuses a fee half filled in, and an amount that is not one, changing nothing", async () => {
    const before = await readDraft(site.db, DEFAULTS);
    const refused = await post({
      intent: "save-section",
      section: "fees",
      revision: String(before.revision),
      "fees.vatStatus": "included",
      "fees.landlord.0.name": "Tenant find",
      "fees.landlord.0.amount": "six hundred",
      "fees.landlord.0.covers": "Finding a tenant.",
      "fees.landlord.0.calculation": "Once.",
      "fees.tenant.0.name": "Change of sharer",
      "fees.tenant.0.amount": "50",
      "fees.landlord.1.name": "Half a fee",
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Landlord fee 1 amount must be an amount in pounds");
    expect(refused.text).toContain("Please give the fee a name, an amount, what it covers and how it is calculated, or tick Remove.");
    expect(await readDraft(site.db, DEFAULTS)).toEqual(before);
  });

  it("shows the company's registration, redress and client money protection in the footer and on /fees", async () => {
    const refused = await post({
      intent: "save-section",
      section: "legal",
      revision: await revision(),
      "legal.companyNumber": "123",
      "legal.icoNumber": "12345678",
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Company number is 8 characters");
    expect(refused.text).toContain("ICO registration number is 8 characters starting with Z");

    const saved = await post({
      intent: "save-section",
      section: "legal",
      revision: await revision(),
      "legal.registeredName": "Harbour Lettings Limited",
      "legal.companyNumber": "sc 123456",
      "legal.registeredOffice": "2 Quay Street, Leith EH6 6AA",
      "legal.vatNumber": "GB 123 4567 89",
      "legal.icoNumber": "ZA123456",
      "legal.redressScheme": "The Property Ombudsman",
      "legal.redressNumber": "D01234",
      "legal.cmpScheme": "Propertymark Client Money Protection",
      "legal.cmpNumber": "C0123456",
      "legal.cmpExpires": "2030-01-31",
    });
    expect(saved.status).toBe(302);
    await publish();
    const home = (await page("/")).text;
    expect(home).toContain("Harbour Lettings Limited, registered in Scotland, company number SC123456, registered office 2 Quay Street, Leith EH6 6AA.");
    expect(home).toContain("VAT number GB123456789.");
    expect(home).toContain("Member of The Property Ombudsman (membership number D01234).");
    expect(home).toContain("Client money protection: Propertymark Client Money Protection (membership number C0123456).");
    const fees = (await page("/fees")).text;
    expect(fees).toContain("Redress and client money protection");
    expect(fees).toContain("Propertymark Client Money Protection, membership number C0123456");
  });

  it("warns on the dashboard from 30 days before the client money protection certificate lapses", async () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    await publishContent((content) => ({ ...content, legal: { ...content.legal, cmpExpires: inDays(45) } }));
    expect((await page("/admin", { cookie: site.cookie })).text).not.toContain("client money protection certificate");
    await publishContent((content) => ({ ...content, legal: { ...content.legal, cmpExpires: inDays(20) } }));
    const soon = (await page("/admin", { cookie: site.cookie })).text;
    expect(soon).toMatch(/Your client money protection certificate expires on \d{1,2} \w+ \d{4}, in (19|20|21) days\./);
    await publishContent((content) => ({ ...content, legal: { ...content.legal, cmpExpires: inDays(-3) } }));
    expect((await page("/admin/website", { cookie: site.cookie })).text).toMatch(/Your client money protection certificate expired on/);
  });

  it("renders a policy's Markdown on the server, never its markup or script links, and links it from the footer and the contact form", async () => {
    const markdown = [
      "# Our privacy promise",
      "We keep **only** what we need.",
      "",
      "- your name",
      "- your message",
      "",
      '<script>alert("x")</script><img src=x onerror=alert(1)>',
      "",
      "[a bad link](javascript:alert(1)) and [the ICO](https://ico.org.uk)",
    ].join("\n");
    const saved = await post({
      intent: "save-section",
      section: "policies",
      revision: await revision(),
      "policies.privacy": markdown,
      "policies.terms": "",
      "policies.cookies": "",
    });
    expect(saved.status).toBe(302);
    await publish();
    const privacy = await page("/privacy");
    expect(privacy.status).toBe(200);
    expect(privacy.text).toContain("<h2>Our privacy promise</h2>");
    expect(privacy.text).toContain("<strong>only</strong>");
    expect(privacy.text).toContain("<li>your name</li>");
    expect(privacy.text).toContain('href="https://ico.org.uk"');
    expect(privacy.text).not.toContain("alert(");
    expect(privacy.text).not.toContain("javascript:");
    expect(privacy.text).not.toContain("<img src=x");
    const home = (await page("/")).text;
    expect(home).toContain('<a href="/privacy" class="text-slate-300');
    expect(home).toContain('<a class="text-slate-300">Terms of Service</a>');
    // The contact form (an island) links its privacy notice too.
    const notice = /See our.{0,200}/s.exec(home)?.[0] ?? "";
    expect(notice, "the contact form's privacy notice").toContain('<a href="/privacy"');
    expect((await page("/terms")).status).toBe(404);
    expect((await page("/sitemap.xml")).text).toContain("/privacy</loc>");
  });

  it("starts an empty policy from a template made from the company's details, marked as a template", async () => {
    const before = await readDraft(site.db, DEFAULTS);
    const started = await post({
      intent: "save-section",
      section: "policies",
      revision: String(before.revision),
      template: "cookies",
      "policies.privacy": before.content.policies.privacy,
      "policies.terms": "",
      "policies.cookies": "",
    });
    expect(started.status).toBe(302);
    const draft = await readDraft(site.db, DEFAULTS);
    expect(draft.content.policies.cookies.startsWith(TEMPLATE_NOTICE)).toBe(true);
    expect(draft.content.policies.cookies).toContain("This website sets no cookies for its visitors");
    expect(draft.content.policies.privacy).toBe(before.content.policies.privacy);
    expect(draft.content.policies.terms).toBe("");
  });
});
