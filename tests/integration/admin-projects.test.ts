/**
 * The Renovation Projects tab through the built server, on each backend, as
 * the signed-in admin's browser uses it (same origin): the project form with
 * and without JavaScript, show/hide, move up/down and delete, judged by what
 * the public sees (/api/projects, the homepage, /images/…).
 */
import { randomBytes } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PROJECTS_TEXT } from "~/admin/texts";
import { MAX_IMAGE_BYTES, UPLOAD_TEXT } from "~/images/image-files";
import type { Database } from "~/platform/db/db.server";
import { PROJECT_FORM_TEXT } from "~/projects/project-form";
import type { RenovationProject } from "~/projects/types";
import { projectFields, uploadImage } from "../support/admin-http";
import { backends } from "../support/backends";
import { rawRequest } from "../support/http";
import { filesIn, multipartBody, twoToneJpeg, twoTonePng } from "../support/images";
import { assertBuilt, type SpawnedServer } from "../support/server";
import { useSite } from "../support/sites";

type Answer = { status: number; location: string | null; text: string };
type FileField = { data: Buffer; filename: string; type: string };

/** React escapes apostrophes and ampersands in text. */
const html = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;");

beforeAll(() => assertBuilt());

describe.each(backends)("the admin's projects over HTTP on $name", (backend) => {
  const site = useSite(backend);
  let server: SpawnedServer, reader: Database, cookie: string, imagesDir: string;
  beforeAll(() => ({ server, reader, cookie, imagesDir } = site));

  /** A POST to the dashboard's action: urlencoded, or multipart when files are given (the form without JavaScript). */
  async function postAdmin(fields: Record<string, string>, files: Record<string, FileField> = {}): Promise<Answer> {
    let body: FormData | string;
    const headers: Record<string, string> = { origin: server.url, cookie };
    if (Object.keys(files).length > 0) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const [name, file] of Object.entries(files)) {
        form.append(name, new Blob([new Uint8Array(file.data)], { type: file.type }), file.filename);
      }
      body = form;
    } else {
      body = new URLSearchParams(fields).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const response = await fetch(`${server.url}/admin/projects`, { method: "POST", redirect: "manual", headers, body });
    return { status: response.status, location: response.headers.get("location"), text: await response.text() };
  }

  async function uploaded(data?: Buffer): Promise<string> {
    const answer = await uploadImage(server, cookie, { data: data ?? (await twoToneJpeg(1200, 800)), filename: "photo.jpg", type: "image/jpeg" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.url!;
  }

  async function publicProjects(): Promise<RenovationProject[]> {
    const response = await fetch(`${server.url}/api/projects`);
    expect(response.status).toBe(200);
    return (await response.json()) as RenovationProject[];
  }

  async function adminProjects() {
    return reader.db.selectFrom("renovation_projects").selectAll().execute();
  }

  async function projectNamed(title: string): Promise<RenovationProject> {
    const project = (await publicProjects()).find((candidate) => candidate.title === title);
    expect(project, `${title} on /api/projects`).toBeDefined();
    return project!;
  }

  /** An image's URL and the URLs of its resized copies, as the public gallery lists them. */
  function imageFiles(project: RenovationProject, side: "before" | "after"): string[] {
    const sources = project[`${side}_image_sources`];
    expect(sources, `${side}_image_sources of ${project.title}`).not.toBeNull();
    const fromSrcset = (srcset: string) => srcset.split(",").map((entry) => entry.trim().split(" ")[0]!);
    return [project[`${side}_image_url`], ...fromSrcset(sources!.avif), ...fromSrcset(sources!.webp)];
  }

  async function statusOf(url: string): Promise<number> {
    return (await fetch(`${server.url}${url}`)).status;
  }

  async function expectServed(urls: string[], status: 200 | 404) {
    for (const url of urls) expect(await statusOf(url), url).toBe(status);
  }

  /** Creates a project through the form from two new uploads; answers it as the public sees it. */
  async function createViaUploads(title: string, overrides: Record<string, string> = {}): Promise<RenovationProject> {
    const answer = await postAdmin(projectFields(title, { before_image_url: await uploaded(), after_image_url: await uploaded(), ...overrides }));
    expect(answer.status, answer.text.slice(0, 300)).toBe(302);
    return projectNamed(title);
  }

  describe("create", () => {
    it("without JavaScript: the form carries both files; 302 to the list, and the project is public with its images", async () => {
      const answer = await postAdmin(projectFields("No Script Kitchen"), {
        before_image_file: { data: await twoToneJpeg(1600, 1000), filename: "before.jpg", type: "image/jpeg" },
        after_image_file: { data: await twoTonePng(640, 480), filename: "after.png", type: "image/png" },
      });
      expect(answer.status, answer.text.slice(0, 300)).toBe(302);
      expect(answer.location).toBe("/admin/projects?notice=project-created");

      const project = await projectNamed("No Script Kitchen");
      expect(project.before_image_url).toMatch(/^\/images\/\d{13}-[a-z0-9]{12}\.jpg$/);
      expect(project.after_image_url).toMatch(/^\/images\/\d{13}-[a-z0-9]{12}\.png$/);
      expect(project.before_image_sources).toMatchObject({ width: 1600, height: 1000 });
      expect(project.before_image_sources!.avif).toMatch(/^\/images\/\S+-480w\.avif 480w, \/images\/\S+-960w\.avif 960w, \/images\/\S+-1440w\.avif 1440w$/);
      expect(project.before_image_sources!.webp).toMatch(/^\/images\/\S+-480w\.webp 480w, \/images\/\S+-960w\.webp 960w, \/images\/\S+-1440w\.webp 1440w$/);
      expect(project.after_image_sources).toMatchObject({ width: 640, height: 480 });
      expect(project).toMatchObject({ is_active: true, before_image_alt: "Before: No Script Kitchen", after_image_alt: "After: No Script Kitchen" });
      await expectServed([...imageFiles(project, "before"), ...imageFiles(project, "after")], 200);

      // Where the redirect leads: the list with the notice.
      const page = await fetch(`${server.url}${answer.location}`, { headers: { cookie } });
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain(html(PROJECTS_TEXT.created));
      expect(text).toContain("No Script Kitchen");
    });

    it("with JavaScript: the form refers to uploads made through /api/admin/images, with alt text and a display order", async () => {
      const before = await uploaded();
      const after = await uploaded();
      const answer = await postAdmin(
        projectFields("Uploaded First Bathroom", {
          before_image_url: before,
          after_image_url: after,
          before_image_alt: "Cracked tiles",
          after_image_alt: "New walk-in shower",
          display_order: "7",
        }),
      );
      expect(answer.status).toBe(302);
      expect(answer.location).toBe("/admin/projects?notice=project-created");
      const project = await projectNamed("Uploaded First Bathroom");
      expect(project).toMatchObject({
        before_image_url: before,
        after_image_url: after,
        before_image_alt: "Cracked tiles",
        after_image_alt: "New walk-in shower",
        display_order: 7,
      });
      expect(project.before_image_sources).not.toBeNull();
    });

    it("refuses an image URL that is not an upload of ours with 400 (Please upload both …), creating nothing", async () => {
      const real = await uploaded();
      const realVariant = (await reader.db.selectFrom("images").select("variants").where("name", "=", real.slice("/images/".length)).executeTakeFirstOrThrow())
        .variants;
      const variantUrl = `/images/${(JSON.parse(realVariant) as Array<{ name: string }>)[0]!.name}`;
      const neverStored = `/images/${Date.now()}-${randomBytes(6).toString("hex")}.jpg`;
      const foreign = [
        "https://evil.example/x.jpg",
        "//evil.example/x.jpg",
        neverStored,
        variantUrl,
        "/samples/kitchen-before.svg",
        "/images/../app.sqlite",
        "javascript:alert(1)",
      ];
      for (const url of foreign) {
        const before = await adminProjects();
        const answer = await postAdmin(projectFields(`Foreign ${url}`, { before_image_url: url, after_image_url: real }));
        expect(answer.status, url).toBe(400);
        expect(answer.text, url).toContain(PROJECT_FORM_TEXT.bothImages);
        expect(await adminProjects(), `${url}: nothing created`).toEqual(before);
      }
      // Both sides foreign.
      const answer = await postAdmin(projectFields("Both Foreign", { before_image_url: neverStored, after_image_url: "https://evil.example/y.jpg" }));
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(UPLOAD_TEXT.bothRequired);
      expect((await publicProjects()).some((project) => project.title.startsWith("Foreign") || project.title === "Both Foreign")).toBe(false);
    });

    it("refuses a form with no images, or a required field missing, or a bad display order, with 400, creating nothing", async () => {
      const before = await adminProjects();
      const noImages = await postAdmin(projectFields("No Images"));
      expect(noImages.status).toBe(400);
      expect(noImages.text).toContain(PROJECT_FORM_TEXT.bothImages);

      const images = { before_image_url: await uploaded(), after_image_url: await uploaded() };
      for (const field of ["title", "category", "description", "duration", "budget"]) {
        const answer = await postAdmin(projectFields("Missing Field", { ...images, [field]: "   " }));
        expect(answer.status, field).toBe(400);
        expect(answer.text, field).toContain(PROJECT_FORM_TEXT.required);
      }
      const badOrder = await postAdmin(projectFields("Bad Order", { ...images, display_order: "-1" }));
      expect(badOrder.status).toBe(400);
      expect(badOrder.text).toContain(PROJECT_FORM_TEXT.displayOrder);
      const tooLong = await postAdmin(projectFields("T".repeat(121), images));
      expect(tooLong.status).toBe(400);
      expect(await adminProjects()).toEqual(before);
    });

    it("without JavaScript, a file that is not an image is refused with 400 and the project is not created", async () => {
      const before = await adminProjects();
      const answer = await postAdmin(projectFields("Text Instead Of Photo"), {
        before_image_file: { data: await twoToneJpeg(), filename: "before.jpg", type: "image/jpeg" },
        after_image_file: { data: Buffer.from("not a picture"), filename: "after.jpg", type: "image/jpeg" },
      });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(html(UPLOAD_TEXT.failedWith(UPLOAD_TEXT.invalidType)));
      expect(await adminProjects()).toEqual(before);
    });
  });

  describe("edit", () => {
    it("replacing the before image: the old file and its copies are gone (404), the new ones and the after image served", async () => {
      const project = await createViaUploads("Replace Before Image");
      const oldBefore = imageFiles(project, "before");
      const after = imageFiles(project, "after");
      const replacement = await uploaded(await twoTonePng(900, 600));

      const answer = await postAdmin(
        projectFields("Replace Before Image", {
          intent: "update-project",
          id: project.id,
          before_image_url: replacement,
          after_image_url: project.after_image_url,
          description: "Edited description.",
        }),
      );
      expect(answer.status, answer.text.slice(0, 300)).toBe(302);
      expect(answer.location).toBe("/admin/projects?notice=project-updated");

      const edited = await projectNamed("Replace Before Image");
      expect(edited).toMatchObject({
        id: project.id,
        before_image_url: replacement,
        after_image_url: project.after_image_url,
        description: "Edited description.",
      });
      expect(edited.created_at).toBe(project.created_at);
      await expectServed(oldBefore, 404);
      await expectServed(imageFiles(edited, "before"), 200);
      await expectServed(after, 200);
      expect(await reader.db.selectFrom("images").select("name").where("name", "=", oldBefore[0]!.slice("/images/".length)).executeTakeFirst()).toBeUndefined();
    });

    it("without JavaScript: a new after file replaces the after image; the before image is kept as it was", async () => {
      const project = await createViaUploads("Replace After By File");
      const oldAfter = imageFiles(project, "after");
      const answer = await postAdmin(
        projectFields("Replace After By File", { intent: "update-project", id: project.id, before_image_url: project.before_image_url }),
        { after_image_file: { data: await twoToneJpeg(500, 500), filename: "new-after.jpg", type: "image/jpeg" } },
      );
      expect(answer.status, answer.text.slice(0, 300)).toBe(302);
      const edited = await projectNamed("Replace After By File");
      expect(edited.before_image_url).toBe(project.before_image_url);
      expect(edited.after_image_url).not.toBe(project.after_image_url);
      await expectServed(oldAfter, 404);
      await expectServed([...imageFiles(edited, "before"), ...imageFiles(edited, "after")], 200);
    });

    it("refuses a replacement URL that is not an upload of ours, keeping the project and its images", async () => {
      const project = await createViaUploads("Keep On Bad Edit");
      const answer = await postAdmin(
        projectFields("Keep On Bad Edit Renamed", {
          intent: "update-project",
          id: project.id,
          before_image_url: "https://evil.example/x.jpg",
          after_image_url: project.after_image_url,
        }),
      );
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(PROJECT_FORM_TEXT.bothImages);
      expect(await projectNamed("Keep On Bad Edit")).toEqual(project);
      await expectServed([...imageFiles(project, "before"), ...imageFiles(project, "after")], 200);
    });

    it("answers 404 for a project that does not exist, and 400 for an id that is not one", async () => {
      const images = { before_image_url: await uploaded(), after_image_url: await uploaded() };
      const missing = await postAdmin(projectFields("Ghost", { intent: "update-project", id: "00000000-0000-4000-8000-000000000000", ...images }));
      expect(missing.status).toBe(404);
      expect(missing.text).toContain(PROJECTS_TEXT.notFound);
      const malformed = await postAdmin(projectFields("Ghost", { intent: "update-project", id: "../../etc", ...images }));
      expect(malformed.status).toBe(400);
      expect((await publicProjects()).some((project) => project.title === "Ghost")).toBe(false);
    });
  });

  describe("delete", () => {
    it("asks first (no change without confirmed=yes), then removes the project and both images with their copies", async () => {
      const project = await createViaUploads("Delete Me Completely");
      const files = [...imageFiles(project, "before"), ...imageFiles(project, "after")];

      const unconfirmed = await postAdmin({ intent: "delete-project", id: project.id });
      expect(unconfirmed.status).toBe(200);
      expect(await projectNamed("Delete Me Completely")).toEqual(project);
      await expectServed(files, 200);

      const confirmed = await postAdmin({ intent: "delete-project", id: project.id, confirmed: "yes" });
      expect(confirmed.status).toBe(200);
      expect(confirmed.text).toContain(html(PROJECTS_TEXT.deleted));
      expect((await publicProjects()).some((candidate) => candidate.id === project.id)).toBe(false);
      await expectServed(files, 404);
      const names = files.map((url) => url.slice("/images/".length));
      expect((await filesIn(imagesDir)).filter((file) => names.includes(file))).toEqual([]);

      const again = await postAdmin({ intent: "delete-project", id: project.id, confirmed: "yes" });
      expect(again.status).toBe(404);
    });

    it("keeps an image another project still uses", async () => {
      const first = await createViaUploads("Shares Its Before Image");
      const second = await postAdmin(projectFields("Uses The Same Image", { before_image_url: first.before_image_url, after_image_url: await uploaded() }));
      expect(second.status).toBe(302);
      const shared = imageFiles(first, "before");
      const own = imageFiles(first, "after");

      expect((await postAdmin({ intent: "delete-project", id: first.id, confirmed: "yes" })).status).toBe(200);
      await expectServed(shared, 200);
      await expectServed(own, 404);
      expect((await projectNamed("Uses The Same Image")).before_image_sources).not.toBeNull();
    });
  });

  describe("request values that name members of every object", () => {
    it("are ordinary unknown values to a signed-in admin: the page loads, no 5xx, nothing changes", async () => {
      const names = ["__proto__", "constructor", "toString", "hasOwnProperty"];
      for (const name of names) {
        for (const query of [`notice=${name}`, `tab=${name}`, `tab=contacts&filter=${name}&page=${name}`, `edit=${name}`, `form=${name}`]) {
          const response = await fetch(`${server.url}/admin?${query}`, { headers: { cookie } });
          expect(response.status, query).toBe(200);
          // The notice area shows a known notice or none: never a function's source.
          expect(await response.text(), query).not.toMatch(/\[native code\]|function Object/);
        }
        const action = await postAdmin({ intent: name, id: name, [name]: name });
        expect(action.status, `intent=${name}`).toBeLessThan(500);
        expect(action.status, `intent=${name}`).toBeGreaterThanOrEqual(400);
      }
    });
  });

  describe("show and hide", () => {
    it("hiding takes a project off /api/projects and the homepage; showing puts it back", async () => {
      const project = await createViaUploads("Hide And Seek Loft");
      const homepage = async () => (await (await fetch(`${server.url}/`)).text()).includes("Hide And Seek Loft");
      expect(await homepage()).toBe(true);

      const hide = await postAdmin({ intent: "toggle-project", id: project.id, active: "false" });
      expect(hide.status).toBe(200);
      expect(hide.text).toContain(PROJECTS_TEXT.hidden);
      expect((await publicProjects()).some((candidate) => candidate.id === project.id)).toBe(false);
      expect(await homepage()).toBe(false);
      // Hidden, not deleted: its images stay.
      await expectServed(imageFiles(project, "before"), 200);

      const show = await postAdmin({ intent: "toggle-project", id: project.id, active: "true" });
      expect(show.status).toBe(200);
      expect(show.text).toContain(PROJECTS_TEXT.shown);
      expect((await projectNamed("Hide And Seek Loft")).is_active).toBe(true);
      expect(await homepage()).toBe(true);
    });

    it("refuses a malformed request with 400 and an unknown project with 404", async () => {
      const project = await createViaUploads("Toggle Edge Cases");
      expect((await postAdmin({ intent: "toggle-project", id: project.id, active: "maybe" })).status).toBe(400);
      expect((await postAdmin({ intent: "toggle-project", id: "not-a-uuid", active: "false" })).status).toBe(400);
      expect((await postAdmin({ intent: "toggle-project", id: "00000000-0000-4000-8000-000000000000", active: "false" })).status).toBe(404);
      expect((await projectNamed("Toggle Edge Cases")).is_active).toBe(true);
    });
  });

  describe("move up and down", () => {
    beforeEach(async () => {
      // A list of three, in a known order.
      await reader.db.deleteFrom("renovation_projects").execute();
    });

    it("changes the order /api/projects shows by one place; the first cannot move up, the last cannot move down", async () => {
      const first = await createViaUploads("Order One", { display_order: "0" });
      const second = await createViaUploads("Order Two", { display_order: "1" });
      const third = await createViaUploads("Order Three", { display_order: "2" });
      const order = async () => (await publicProjects()).map((project) => project.title);
      expect(await order()).toEqual(["Order One", "Order Two", "Order Three"]);

      const up = await postAdmin({ intent: "move-project", id: third.id, direction: "up" });
      expect(up.status).toBe(200);
      expect(up.text).toContain(PROJECTS_TEXT.moved);
      expect(await order()).toEqual(["Order One", "Order Three", "Order Two"]);

      expect((await postAdmin({ intent: "move-project", id: first.id, direction: "down" })).status).toBe(200);
      expect(await order()).toEqual(["Order Three", "Order One", "Order Two"]);

      const atTop = await postAdmin({ intent: "move-project", id: third.id, direction: "up" });
      expect(atTop.status).toBe(409);
      expect(atTop.text).toContain(PROJECTS_TEXT.alreadyFirst);
      const atBottom = await postAdmin({ intent: "move-project", id: second.id, direction: "down" });
      expect(atBottom.status).toBe(409);
      expect(atBottom.text).toContain(PROJECTS_TEXT.alreadyLast);
      expect(await order()).toEqual(["Order Three", "Order One", "Order Two"]);

      expect((await postAdmin({ intent: "move-project", id: second.id, direction: "sideways" })).status).toBe(400);
      expect((await postAdmin({ intent: "move-project", id: "00000000-0000-4000-8000-000000000000", direction: "up" })).status).toBe(404);
      expect(await order()).toEqual(["Order Three", "Order One", "Order Two"]);
    });
  });

  describe("a file over 10 MB in the form without JavaScript", () => {
    it("is refused with 413, creating nothing, and the server stays up", async () => {
      const before = { projects: await adminProjects(), files: await filesIn(imagesDir) };
      const jpeg = await twoToneJpeg(64, 64);
      const big = Buffer.concat([jpeg, Buffer.alloc(11 * 1024 * 1024 - jpeg.length, 0x20)]);
      const fields = projectFields("Too Big To Upload");
      for (let attempt = 1; attempt <= 3; attempt++) {
        const { contentType, body } = multipartBody([
          ...Object.entries(fields).map(([name, value]) => ({ name, value })),
          { name: "before_image_file", filename: "huge.jpg", type: "image/jpeg", data: big },
          { name: "after_image_file", filename: "small.jpg", type: "image/jpeg", data: jpeg },
        ]);
        const response = await rawRequest(server.port, {
          path: "/admin/projects",
          headers: { "content-type": contentType, "content-length": body.length, origin: server.url, cookie },
          body: Array.from({ length: Math.ceil(body.length / 262_144) }, (_, i) => body.subarray(i * 262_144, (i + 1) * 262_144)),
        }).catch((error: Error) => ({ status: 0, text: `no answer (${error.message})` }));
        await new Promise((resolve) => setTimeout(resolve, 300));
        const running = server.child.exitCode === null && server.child.signalCode === null;
        expect(
          running,
          `attempt ${attempt}: ${response.status || response.text}; the server exited:\n${(server.stdout() + server.stderr()).slice(-2000)}`,
        ).toBe(true);
        expect(response.status, `attempt ${attempt}`).toBe(413);
        expect(response.text).toContain(html(UPLOAD_TEXT.failedWith(UPLOAD_TEXT.tooLarge)));
      }
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect({ projects: await adminProjects(), files: await filesIn(imagesDir) }).toEqual(before);
      expect(MAX_IMAGE_BYTES).toBeLessThan(big.length);
    });
  });
});
