/**
 * The Website tab's uploads (issue 15, decision 030): the logo and hero image
 * through the gallery's image pipeline, and the client money protection
 * certificate as a PDF (checked by content) or an image, saved to the draft
 * with the section, published, served safely, kept by gc-images while the
 * draft or a kept version refers to them; on SQLite and PostgreSQL.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { DOCUMENT_TEXT, IMAGE_NAMING, UPLOAD_TEXT } from "~/images/image-files";
import { removeImageIfUnused } from "~/images/images.server";
import { LocalDiskStorage } from "~/platform/storage/storage.server";
import { WEBSITE_TEXT, sectionValues, siteDefaults, type SiteContent, type SiteSection } from "~/website/content";
import { toLondonTime } from "~/platform/dates";
import { publishDue, readSchedule } from "~/website/schedule.server";
import { readDraft, readLive } from "~/website/website.server";
import { runAdmin } from "../support/admin-cli";
import { backends } from "../support/backends";
import { HTML_AS_PDF, HTML_BEHIND_PDF_HEADER, minimalPdf } from "../support/documents";
import { rawRequest } from "../support/http";
import { exifHasGps, filesIn, phonePhotoJpeg, twoToneJpeg, twoTonePng } from "../support/images";
import { assertBuilt } from "../support/server";
import { plainLog } from "~/platform/observe/log.server";
import { useSite } from "../support/sites";

const DEFAULTS = siteDefaults();

type Upload = { field: string; data: Buffer; filename: string; type: string };

beforeAll(() => assertBuilt());

describe.each(backends)("the website's uploads on $name", (backend) => {
  const site = useSite(backend);

  const draft = () => readDraft(site.db, DEFAULTS);
  const live = async () => (await readLive(site.db, DEFAULTS)).content;
  const page = (pathname: string) => site.get(pathname);

  /** The section's form as the Website tab sends it (multipart), with `changes` over the draft's values and an optional file. */
  async function saveSection(
    section: SiteSection,
    changes: Record<string, string> = {},
    file?: Upload,
    headers: Record<string, string> = { origin: site.server.url, cookie: site.cookie },
  ) {
    const current = await draft();
    const form = new FormData();
    const fields = { intent: "save-section", section, revision: String(current.revision), ...sectionValues(section, current.content), ...changes };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    if (file) form.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.type }), file.filename);
    const response = await fetch(`${site.server.url}/admin/website`, { method: "POST", redirect: "manual", headers, body: form });
    return { status: response.status, location: response.headers.get("location"), text: await response.text() };
  }

  async function publish() {
    const answer = await site.postForm("/admin/website", { intent: "publish", revision: String((await draft()).revision) });
    expect(answer.status, answer.text.slice(0, 500)).toBe(302);
  }

  /** What is stored: the bucket's files and the images table's rows. */
  async function stored() {
    const rows = await site.db.selectFrom("images").select("name").orderBy("name").execute();
    return { files: await filesIn(site.imagesDir), rows: rows.map((row) => row.name) };
  }

  /** A refused save: the status, the field's message on the page, and nothing changed (draft, bucket, rows). */
  async function expectRefused(section: SiteSection, file: Upload, status: number, message: string) {
    const before = { draft: await draft(), stored: await stored() };
    const answer = await saveSection(section, {}, file);
    expect(answer.status, answer.text.slice(0, 300)).toBe(status);
    expect(answer.text).toContain(message.replace(/'/g, "&#x27;"));
    expect(answer.text).toContain(WEBSITE_TEXT.fixErrors);
    expect(await draft()).toEqual(before.draft);
    expect(await stored()).toEqual(before.stored);
  }

  it("a fresh site shows the standard logo from the page and the illustrated hero, fetched first, at their sizes", async () => {
    const home = await page("/");
    expect(home.text).toMatch(/<img src="data:image\/svg\+xml,[^"]+" alt="Example Property Management Ltd logo" width="40" height="40"/);
    expect(home.text).toMatch(
      /<img src="\/hero-property.svg" alt="Illustration of a Victorian terraced town house[^"]*" width="640" height="520" loading="eager" fetchPriority="high"/,
    );
  });

  it("uploads a logo with the Company section: re-encoded without its location, in the draft and the preview, live once published", async () => {
    const answer = await saveSection("company", {}, { field: "company.logo.file", data: await phonePhotoJpeg(), filename: "logo.jpg", type: "image/jpeg" });
    expect(answer.status, answer.text.slice(0, 300)).toBe(302);
    const logo = (await draft()).content.company.logo;
    expect(logo).toMatch(/^\/images\/\d{13}-[a-z0-9]{12}\.jpg$/);
    const bytes = await readFile(path.join(site.imagesDir, logo.slice("/images/".length)));
    const metadata = await sharp(bytes).metadata();
    expect(metadata.exif === undefined || !exifHasGps(metadata.exif)).toBe(true);
    expect(metadata.xmp).toBeUndefined();

    expect((await page("/")).text, "not live before publishing").not.toContain(logo);
    const preview = await rawRequest(site.server.port, { method: "GET", path: "/admin/website/preview", headers: { cookie: site.cookie } });
    expect(preview.text).toContain(`src="${logo}"`);
    await publish();
    expect((await page("/")).text).toContain(`<img src="${logo}" alt="Example Property Management Ltd logo" width="40" height="40"`);
  });

  it("uploads a hero image with its description: a <picture> of AVIF and WebP copies with width, height and high priority", async () => {
    const missingAlt = await saveSection(
      "hero",
      {},
      { field: "hero.image.file", data: await twoToneJpeg(1600, 1000), filename: "hero.jpg", type: "image/jpeg" },
    );
    expect(missingAlt.status).toBe(400);
    expect(missingAlt.text).toContain(WEBSITE_TEXT.heroAlt);

    const answer = await saveSection(
      "hero",
      { "hero.imageAlt": "Our team outside a renovated terrace in Leeds" },
      { field: "hero.image.file", data: await twoToneJpeg(1600, 1000), filename: "hero.jpg", type: "image/jpeg" },
    );
    expect(answer.status, answer.text.slice(0, 300)).toBe(302);
    const image = (await draft()).content.hero.image;
    await publish();
    const home = (await page("/")).text;
    expect(home).not.toContain("/hero-property.svg");
    const stem = image.slice("/images/".length).replace(/\.jpg$/, "");
    expect(home).toContain(
      `<source type="image/avif" srcSet="/images/${stem}-480w.avif 480w, /images/${stem}-960w.avif 960w, /images/${stem}-1440w.avif 1440w"`,
    );
    expect(home).toMatch(
      new RegExp(`<img src="${image}" alt="Our team outside a renovated terrace in Leeds" width="1600" height="1000" loading="eager" fetchPriority="high"`),
    );
  });

  it("refuses a logo that is not an image, or is damaged, with a clear message, changing nothing", async () => {
    await expectRefused(
      "company",
      { field: "company.logo.file", data: Buffer.from("just some text"), filename: "logo.png", type: "image/png" },
      415,
      UPLOAD_TEXT.invalidType,
    );
    await expectRefused(
      "hero",
      { field: "hero.image.file", data: (await twoToneJpeg()).subarray(0, 300), filename: "hero.jpg", type: "image/jpeg" },
      422,
      UPLOAD_TEXT.unreadable,
    );
    await expectRefused(
      "company",
      { field: "company.logo.file", data: minimalPdf(), filename: "logo.pdf", type: "application/pdf" },
      415,
      UPLOAD_TEXT.invalidType,
    );
  });

  it("refuses an HTML page named .pdf, a PDF header in front of HTML, and a PDF with a script, changing nothing", async () => {
    await expectRefused(
      "legal",
      { field: "legal.cmpCertificate.file", data: HTML_AS_PDF, filename: "certificate.pdf", type: "application/pdf" },
      415,
      UPLOAD_TEXT.invalidType,
    );
    await expectRefused(
      "legal",
      { field: "legal.cmpCertificate.file", data: HTML_BEHIND_PDF_HEADER, filename: "certificate.pdf", type: "application/pdf" },
      422,
      DOCUMENT_TEXT.damaged,
    );
    await expectRefused(
      "legal",
      {
        field: "legal.cmpCertificate.file",
        data: minimalPdf("/AA << /O << /S /JavaScript /JS (app.alert(1)) >> >> "),
        filename: "certificate.pdf",
        type: "application/pdf",
      },
      422,
      DOCUMENT_TEXT.active,
    );
  });

  it("refuses a file URL typed into the form that is not one of our uploads", async () => {
    for (const url of [
      "/images/../../etc/passwd",
      "https://evil.example/logo.png",
      "/images/1700000000000-abcdefabcdef.jpg",
      '/images/x.jpg" onerror="alert(1)',
    ]) {
      const before = await draft();
      const answer = await saveSection("company", { "company.logo": url });
      expect(answer.status, url).toBe(400);
      expect(answer.text).toContain("the uploaded file was not found. Please upload it again.");
      expect(await draft()).toEqual(before);
    }
  });

  it("publishes a PDF certificate on /fees, served as a PDF inline under its own name, never sniffed", async () => {
    const pdf = minimalPdf();
    const answer = await saveSection(
      "legal",
      { "legal.cmpScheme": "Propertymark Client Money Protection", "legal.cmpNumber": "C0123456" },
      { field: "legal.cmpCertificate.file", data: pdf, filename: "Our certificate <2026>.pdf", type: "application/pdf" },
    );
    expect(answer.status, answer.text.slice(0, 300)).toBe(302);
    const url = (await draft()).content.legal.cmpCertificate;
    expect(url).toMatch(/^\/images\/\d{13}-[a-z0-9]{12}\.pdf$/);
    expect((await page("/fees")).text).not.toContain(url);
    const preview = await rawRequest(site.server.port, { method: "GET", path: "/admin/website/preview", headers: { cookie: site.cookie } });
    expect(preview.text, "the preview's footer links the draft's certificate").toContain(`<a href="${url}"`);
    await publish();
    const fees = (await page("/fees")).text;
    expect(fees).toContain(`<a href="${url}"`);
    expect(fees).toContain("Our client money protection certificate (PDF)");

    const served = await page(url);
    expect(served.status).toBe(200);
    expect(served.headers["content-type"]).toBe("application/pdf");
    expect(served.headers["content-disposition"]).toBe(`inline; filename="${url.slice("/images/".length)}"`);
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(served.body.equals(pdf), "stored as uploaded").toBe(true);
  });

  it("takes the certificate as an image too, through the image pipeline", async () => {
    const answer = await saveSection(
      "legal",
      {},
      { field: "legal.cmpCertificate.file", data: await twoTonePng(), filename: "certificate.png", type: "image/png" },
    );
    expect(answer.status, answer.text.slice(0, 300)).toBe(302);
    const url = (await draft()).content.legal.cmpCertificate;
    expect(url).toMatch(/^\/images\/\d{13}-[a-z0-9]{12}\.png$/);
    const preview = await site.get(url);
    expect(preview.headers["content-type"]).toBe("image/png");
    expect(preview.headers["content-disposition"]).toBeUndefined();
  });

  it("gc-images keeps every file the draft or a kept version refers to, and removes one nothing refers to", async () => {
    const published = await live();
    const inDraft = (await draft()).content.legal.cmpCertificate;
    // Replace the logo and publish: the old logo stays in the earlier version.
    const replaced = await saveSection(
      "company",
      {},
      { field: "company.logo.file", data: await twoTonePng(40, 40), filename: "new-logo.png", type: "image/png" },
    );
    expect(replaced.status).toBe(302);
    await publish();
    const unused = (await saveSection("company", {}, { field: "company.logo.file", data: await twoTonePng(30, 30), filename: "unused.png", type: "image/png" }))
      .status;
    expect(unused).toBe(302);
    const unusedLogo = (await draft()).content.company.logo;
    // Put the draft back to the live logo: the last upload is referred to by nothing.
    expect((await saveSection("company", { "company.logo": (await live()).company.logo })).status).toBe(302);

    const run = await runAdmin(site.database.env, ["gc-images", "--min-age=0"]);
    expect(run.code, run.stderr).toBe(0);
    const files = await filesIn(site.imagesDir);
    for (const url of [published.company.logo, published.hero.image, published.legal.cmpCertificate, inDraft, (await live()).company.logo]) {
      expect(files, url).toContain(url.slice("/images/".length));
    }
    expect(files).not.toContain(unusedLogo.slice("/images/".length));
    const certificate = (await live()).legal.cmpCertificate;
    expect(certificate, "the image certificate, published with the new logo").toMatch(/\.png$/);
    expect((await page("/fees")).text).toContain(`<a href="${certificate}"`);
    expect((await page(published.legal.cmpCertificate)).status, "the PDF of the earlier version").toBe(200);
  });

  it("gc-images keeps what a pending scheduled publish needs: the page it publishes later shows the image", async () => {
    const saved = await saveSection(
      "company",
      {},
      { field: "company.logo.file", data: await twoTonePng(48, 48), filename: "scheduled-logo.png", type: "image/png" },
    );
    expect(saved.status, saved.text.slice(0, 300)).toBe(302);
    const scheduledLogo = (await draft()).content.company.logo;
    const publishAt = new Date(Math.ceil((Date.now() + 2 * 86_400_000) / 60_000) * 60_000);
    const scheduled = await site.postForm("/admin/website", {
      intent: "schedule",
      revision: String((await draft()).revision),
      publishAt: toLondonTime(publishAt),
    });
    expect(scheduled.status, scheduled.text.slice(0, 300)).toBe(302);
    // Edited after scheduling: the draft no longer names the new logo; only the pending schedule does.
    expect((await saveSection("company", { "company.logo": (await live()).company.logo })).status).toBe(302);

    const run = await runAdmin(site.database.env, ["gc-images", "--min-age=0"]);
    expect(run.code, run.stderr).toBe(0);
    expect(await filesIn(site.imagesDir)).toContain(scheduledLogo.slice("/images/".length));
    expect((await stored()).rows).toContain(scheduledLogo.slice("/images/".length));

    expect(await publishDue(site.db, publishAt)).toBeGreaterThan(0);
    expect(await readSchedule(site.db)).toBeUndefined();
    expect((await page("/")).text).toContain(`<img src="${scheduledLogo}"`);
    expect((await page(scheduledLogo)).status).toBe(200);
  });

  it("a project giving up an image the site uses (deleted, or its image replaced) leaves the file in place", async () => {
    const { logo } = (await live()).company;
    const storage = new LocalDiskStorage(site.imagesDir, IMAGE_NAMING);
    await removeImageIfUnused({ db: site.db, storage, log: plainLog(() => {}) }, logo);
    expect(await filesIn(site.imagesDir)).toContain(logo.slice("/images/".length));
    expect((await page(logo)).status).toBe(200);
  });

  it("import-site leaves out the uploads this installation does not hold, and keeps those it does", async () => {
    const current = (await draft()).content;
    const missing = "/images/1700000000000-abcdefabcdef.pdf";
    const content: SiteContent = { ...current, legal: { ...current.legal, cmpCertificate: missing } };
    const file = path.join(site.database.env.DATA_DIR, "site.json");
    await writeFile(file, JSON.stringify({ format: "property-management-site", version: 1, exportedAt: "2026-11-25T12:00:00.000Z", live: content }));
    const run = await runAdmin(site.database.env, ["import-site", file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("left out (upload again in the Website tab): the client money protection certificate");
    const imported = (await draft()).content;
    expect(imported.legal.cmpCertificate).toBe("");
    expect(imported.company.logo).toBe(current.company.logo);
    expect(imported.hero.image).toBe(current.hero.image);
  });

  it("Remove takes the hero image out of the draft: the preview shows the illustration again", async () => {
    expect((await draft()).content.hero.image).not.toBe("");
    const answer = await saveSection("hero", { "hero.image.remove": "yes" });
    expect(answer.status, answer.text.slice(0, 300)).toBe(302);
    expect((await draft()).content.hero.image).toBe("");
    const preview = await rawRequest(site.server.port, { method: "GET", path: "/admin/website/preview", headers: { cookie: site.cookie } });
    expect(preview.text).toContain('src="/hero-property.svg"');
  });

  it("refuses an upload without a session or from another site, storing nothing", async () => {
    const before = await stored();
    const file = { field: "legal.cmpCertificate.file", data: minimalPdf(), filename: "c.pdf", type: "application/pdf" };
    const anonymous = await saveSection("legal", {}, file, { origin: site.server.url });
    expect(anonymous.status).toBe(401);
    const crossSite = await saveSection("legal", {}, file, { origin: "https://evil.example", cookie: site.cookie });
    expect(crossSite.status).toBe(403);
    expect(await stored()).toEqual(before);
  });
});
