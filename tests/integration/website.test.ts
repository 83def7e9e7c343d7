/**
 * The company's own site (issue 15): the draft, its checks, publish, history,
 * restore and discard, on SQLite and PostgreSQL, through the domain functions
 * and over HTTP as the Website tab and a visitor use them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { WEBSITE_TEXT_ADMIN } from "~/admin/texts";
import { publicDataVersion } from "~/platform/db/data-version.server";
import { WEBSITE_TEXT, sectionValues, siteDefaults, type SiteContent } from "~/website/content";
import { MAX_FEATURES } from "~/website/sections/pricing";
import { KEPT_VERSIONS, discardDraft, listVersions, publishDraft, readDraft, readLive, restoreVersion, saveDraft } from "~/website/website.server";
import { TEST_ADMIN } from "../support/admin-http";
import { backends } from "../support/backends";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

const DEFAULTS = siteDefaults();
const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 12, minute));

function withCompanyName(content: SiteContent, name: string): SiteContent {
  return { ...content, company: { ...content.company, name } };
}

beforeAll(() => assertBuilt());

describe.each(backends)("the website's content on $name", (backend) => {
  const site = useSite(backend);
  const page = (path: string, headers: Record<string, string> = {}) => site.get(path, headers);
  const post = (fields: Record<string, string>) => site.postForm("/admin/website", fields);
  const revision = async () => (await readDraft(site.db, DEFAULTS)).revision;
  const companyForm = async (name: string, extra: Record<string, string> = {}) => ({
    intent: "save-section",
    section: "company",
    revision: String(await revision()),
    ...sectionValues("company", withCompanyName((await readDraft(site.db, DEFAULTS)).content, name)),
    ...extra,
  });

  it("a fresh site shows the specification's texts and prices, and nothing has been published", async () => {
    expect(await readLive(site.db, DEFAULTS)).toEqual({ content: DEFAULTS, version: undefined });
    const home = await page("/");
    expect(home.status).toBe(200);
    for (const text of [
      "Professional Property Management Services",
      "Transparent Pricing Promise",
      "No VAT Added",
      "£80",
      "£120",
      "Choose Platinum",
      "Most Popular",
    ]) {
      expect(home.text).toContain(text);
    }
  });

  it("saves a section to the draft: the preview shows it, the live site does not", async () => {
    const versionBefore = await publicDataVersion(site.db);
    const saved = await post(await companyForm("Harbour Lettings Ltd"));
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toBe("/admin/website?section=company&notice=saved");
    expect((await readDraft(site.db, DEFAULTS)).unpublished).toBe(true);
    expect(await publicDataVersion(site.db), "a draft is not public").toBe(versionBefore);
    expect((await page("/")).text).not.toContain("Harbour Lettings Ltd");
    const preview = await page("/admin/website/preview", { cookie: site.cookie });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain("Harbour Lettings Ltd");
    expect(preview.text).toContain(WEBSITE_TEXT_ADMIN.previewBanner);
    expect(preview.headers["cache-control"]).toMatch(/no-store/);
    expect(preview.headers["x-robots-tag"]).toMatch(/noindex/);
    expect(preview.text).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    // Nobody else sees it.
    const anonymous = await page("/admin/website/preview");
    expect(anonymous.text).not.toContain("Harbour Lettings Ltd");
  });

  it("refuses bad input with a message for each field, and changes nothing", async () => {
    const before = await readDraft(site.db, DEFAULTS);
    const company = await post(await companyForm("", { "company.email": "not an address", "company.phone": "x".repeat(41) }));
    expect(company.status).toBe(400);
    expect(company.text).toContain(WEBSITE_TEXT.fixErrors);
    expect(company.text).toContain(WEBSITE_TEXT.fieldRequired("Company name"));
    expect(company.text).toContain(WEBSITE_TEXT.email);
    expect(company.text).toContain(WEBSITE_TEXT.tooLong("Phone", 40));

    const pricing = await post({
      intent: "save-section",
      section: "pricing",
      revision: String(before.revision),
      ...sectionValues("pricing", before.content),
      "plans.0.price": "eighty",
      "plans.1.features": Array.from({ length: MAX_FEATURES + 1 }, (_, index) => `Feature ${index}`).join("\n"),
    });
    expect(pricing.status).toBe(400);
    expect(pricing.text).toContain(WEBSITE_TEXT.price("Plan 1 price"));
    expect(pricing.text).toContain(WEBSITE_TEXT.tooManyLines("Plan 2 features", MAX_FEATURES));
    expect(await readDraft(site.db, DEFAULTS)).toEqual(before);
  });

  it("refuses a save based on an older draft, saying so, and keeps the other admin's change", async () => {
    const base = await revision();
    const first = await post({ ...(await companyForm("First Admin's Name")), revision: String(base) });
    expect(first.status).toBe(302);
    const second = await post({ ...(await companyForm("Second Admin's Name")), revision: String(base) });
    expect(second.status).toBe(409);
    expect(second.text).toContain(WEBSITE_TEXT_ADMIN.stale.slice(0, 40));
    expect((await readDraft(site.db, DEFAULTS)).content.company.name).toBe("First Admin's Name");

    // At the same moment, in the database itself: exactly one of two saves on one revision wins.
    const now = await revision();
    const draft = (await readDraft(site.db, DEFAULTS)).content;
    const results = await Promise.all(
      ["Racer One", "Racer Two"].map((name) =>
        saveDraft(site.db, { content: withCompanyName(draft, name), defaults: DEFAULTS, baseRevision: now, by: "test", actor: TEST_ACTOR, now: at(1) }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, reason: "stale" }]);
  });

  it("publishes the draft: live at once on /, in the title, the structured data and the manifest", async () => {
    await post(await companyForm("Harbour Lettings Ltd"));
    expect((await page("/")).text).not.toContain("Harbour Lettings Ltd");
    const versionBefore = await publicDataVersion(site.db);
    const published = await post({ intent: "publish", revision: String(await revision()) });
    expect(published.status).toBe(302);
    expect(published.headers.location).toMatch(/^\/admin\/website\?notice=published&version=\d+$/);
    expect(await publicDataVersion(site.db)).toBeGreaterThan(versionBefore);

    const home = await page("/");
    expect(home.text).toContain("<title>Harbour Lettings Ltd | Professional Property Management Services</title>");
    // The About text names the company through {company}, so it follows a new name without an edit of its own.
    expect(home.text).toContain("Harbour Lettings Ltd looks after homes for landlords, property investors and tenants.");
    const structured = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(home.text)?.[1];
    expect(JSON.parse(structured!)).toMatchObject({ name: "Harbour Lettings Ltd", priceRange: "£80–£120" });
    const manifest = await page("/site.webmanifest");
    expect(JSON.parse(manifest.text)).toMatchObject({ name: "Harbour Lettings Ltd" });

    const versions = await listVersions(site.db);
    expect(versions[0]).toMatchObject({ live: true, publishedBy: TEST_ADMIN.email, restoredFrom: null });
    expect((await readDraft(site.db, DEFAULTS)).unpublished).toBe(false);
    // Publishing again with nothing new changes nothing.
    const again = await post({ intent: "publish", revision: String(await revision()) });
    expect(again.status).toBe(200);
    expect(again.text).toContain(WEBSITE_TEXT_ADMIN.nothingToPublish);
    expect(await listVersions(site.db)).toHaveLength(versions.length);
  });

  it("restores an earlier version as a new one, and discards a draft back to what is live", async () => {
    const first = (await listVersions(site.db))[0]!;
    await post(await companyForm("Riverside Homes Ltd"));
    await post({ intent: "publish", revision: String(await revision()) });
    expect((await page("/")).text).toContain("Riverside Homes Ltd");

    const restored = await post({ intent: "restore", version: String(first.number), revision: String(await revision()) });
    expect(restored.status).toBe(302);
    const [newest] = await listVersions(site.db);
    expect(newest).toMatchObject({ restoredFrom: first.number, live: true });
    expect(newest!.number).toBeGreaterThan(first.number + 1);
    const home = (await page("/")).text;
    expect(home).toContain("Harbour Lettings Ltd");
    expect(home).not.toContain("Riverside Homes Ltd");
    expect((await readDraft(site.db, DEFAULTS)).content.company.name).toBe("Harbour Lettings Ltd");

    await post(await companyForm("Never Published Ltd"));
    expect((await readDraft(site.db, DEFAULTS)).unpublished).toBe(true);
    const discarded = await post({ intent: "discard", revision: String(await revision()) });
    expect(discarded.status).toBe(302);
    const draft = await readDraft(site.db, DEFAULTS);
    expect(draft.unpublished).toBe(false);
    expect(draft.content.company.name).toBe("Harbour Lettings Ltd");

    const missing = await post({ intent: "restore", version: "99999", revision: String(draft.revision) });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain(WEBSITE_TEXT_ADMIN.notFound);
  });

  it("shows script and markup typed into a field as text, never runs it", async () => {
    const attack = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    await post(await companyForm(attack));
    await post({ intent: "publish", revision: String(await revision()) });
    for (const response of [
      await page("/"),
      await page("/admin/website", { cookie: site.cookie }),
      await page("/admin/website/preview", { cookie: site.cookie }),
    ]) {
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(attack);
      expect(response.text).not.toContain("<img src=x");
      expect(response.text).toContain("&lt;script&gt;");
    }
    await discardDraft(site.db, { defaults: DEFAULTS, baseRevision: await revision(), by: "test", actor: TEST_ACTOR, now: at(2) });
  });

  it(`keeps the last ${KEPT_VERSIONS} versions`, async () => {
    let draft = await readDraft(site.db, DEFAULTS);
    for (let index = 0; index < KEPT_VERSIONS + 2; index++) {
      const saved = await saveDraft(site.db, {
        content: withCompanyName(draft.content, `Company ${index}`),
        defaults: DEFAULTS,
        baseRevision: draft.revision,
        by: "test",
        actor: TEST_ACTOR,
        now: at(3),
      });
      expect(saved.ok).toBe(true);
      const published = await publishDraft(site.db, { defaults: DEFAULTS, baseRevision: draft.revision + 1, by: "test", actor: TEST_ACTOR, now: at(3) });
      expect(published.ok).toBe(true);
      draft = await readDraft(site.db, DEFAULTS);
    }
    const versions = await listVersions(site.db);
    expect(versions).toHaveLength(KEPT_VERSIONS);
    const oldest = versions.at(-1)!.number;
    expect(
      await restoreVersion(site.db, { defaults: DEFAULTS, number: oldest - 1, baseRevision: draft.revision, by: "test", actor: TEST_ACTOR, now: at(4) }),
    ).toEqual({
      ok: false,
      reason: "not-found",
    });
    expect((await readLive(site.db, DEFAULTS)).content.company.name).toBe(`Company ${KEPT_VERSIONS + 1}`);
  });
});
