/**
 * The public page and the gallery JSON are rendered or compressed once per
 * version of their data, and the page is then served ahead of Express and
 * React Router (docs/decisions/016). These tests change the data behind the
 * server's back, as another instance on the same database would, and expect
 * to see it at once; and they hold the fast answers to what the full pipeline
 * answers (a request with a cookie always takes the full pipeline).
 */
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { formTokensOf } from "../support/form-tokens";
import type { Database } from "~/platform/db/db.server";
import { createProject, deleteProject, setProjectActive, type NewProject } from "~/projects/projects.server";
import { TEST_ADMIN_ENV, signInOverHttp } from "../support/admin-http";
import { backends, type TestDatabase } from "../support/backends";
import { rawRequest, type RawResponse } from "../support/http";
import { assertBuilt, startServer, type SpawnedServer } from "../support/server";
import { useSite } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

function project(title: string): NewProject {
  return {
    title,
    category: "Kitchen Renovation",
    description: `${title}, start to finish.`,
    duration: "4 weeks",
    budget: "£18,000",
    before_image_url: "/samples/kitchen-before.svg",
    after_image_url: "/samples/kitchen-after.svg",
  };
}

function nonceOf(csp: string | undefined): string {
  const nonce = /'nonce-([^']+)'/.exec(csp ?? "")?.[1];
  expect(nonce, "a nonce in the CSP header").toBeTruthy();
  return nonce!;
}

const FORM_TOKEN = /name="formToken" value="(\d{10,12}\.[A-Za-z0-9_-]{43})"/;

async function getPage(server: SpawnedServer, encoding: string, headers: Record<string, string> = {}) {
  const response = await rawRequest(server.port, { method: "GET", path: "/", headers: { "accept-encoding": encoding, ...headers } });
  expect(response.status).toBe(200);
  const html = response.headers["content-encoding"] === "gzip" ? gunzipSync(response.body).toString("utf8") : response.body.toString("utf8");
  return { html, nonce: nonceOf(response.headers["content-security-policy"] as string), headers: response.headers, raw: response };
}

/** The page with its per-response values (nonce, form token) replaced by fixed marks. */
function normalised(page: { html: string; nonce: string }): string {
  return page.html.replaceAll(page.nonce, "N").replace(/\b\d{10,12}\.[A-Za-z0-9_-]{43}\b/g, "T");
}

/** Response headers but those that differ per response by design (Date, the nonce, the length, the request's id). */
function comparableHeaders(response: RawResponse): Record<string, string> {
  const result: Record<string, string> = {};
  const csp = String(response.headers["content-security-policy"]);
  expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  for (const [name, value] of Object.entries(response.headers)) {
    if (name === "date" || name === "content-length" || name === "x-request-id" || value === undefined) continue;
    result[name] = String(value).replace(/'nonce-[^']+'/, "'nonce-N'");
  }
  expect(csp).toMatch(/'nonce-[^']+'/);
  return result;
}

beforeAll(() => assertBuilt());

describe.each(backends)("cached public responses on $name", (backend) => {
  const site = useSite(backend, { seed: (db) => createProject(db, project("Cached Terrace Kitchen"), TEST_ACTOR) });
  let database: TestDatabase;
  let server: SpawnedServer;
  let writer: Database;
  beforeAll(() => ({ database, server, reader: writer } = site));

  it("serves the same page with a fresh nonce each time, gzip and plain alike", async () => {
    const first = await getPage(server, "gzip");
    const second = await getPage(server, "gzip");
    const plain = await getPage(server, "identity");
    expect(first.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(new Set([first.nonce, second.nonce, plain.nonce]).size).toBe(3);
    for (const page of [first, second, plain]) {
      const scripts = page.html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${page.nonce}"`);
      expect(page.html).toContain("Cached Terrace Kitchen");
    }
    // Apart from the nonce, byte for byte the same document; the contact form's
    // time-trap token is issued per whole second (decision 012), so it may differ
    // when the requests straddle one.
    expect(first.html).toMatch(FORM_TOKEN);
    expect(normalised(second)).toBe(normalised(first));
    expect(normalised(plain)).toBe(normalised(first));
  });

  it("answers exactly as the full pipeline does, headers and document, gzip and plain", async () => {
    for (const encoding of ["gzip, deflate, br", "identity"]) {
      await getPage(server, encoding);
      const fast = await getPage(server, encoding);
      // A cookie sends the request through Express and React Router.
      const full = await getPage(server, encoding, { cookie: "visitor=1" });
      expect(comparableHeaders(fast.raw), encoding).toEqual(comparableHeaders(full.raw));
      expect(normalised(fast), encoding).toBe(normalised(full));
    }
  });

  it("answers HEAD / with the headers of a GET and no body", async () => {
    const get = await getPage(server, "gzip");
    const head = await rawRequest(server.port, { method: "HEAD", path: "/", headers: { "accept-encoding": "gzip" } });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(head.headers["content-encoding"]).toBe("gzip");
    // Its own nonce, and otherwise the GET's headers, the length of the body it would have had included.
    expect(nonceOf(head.headers["content-security-policy"] as string)).not.toBe(get.nonce);
    expect(comparableHeaders(head)).toEqual(comparableHeaders(get.raw));
    expect(Number(head.headers["content-length"])).toBe(get.raw.body.length);
  });

  it("carries a contact form token issued in the second it is served, not when the page was rendered", async () => {
    const tokenAt = async () => {
      const before = Date.now();
      const { html } = await getPage(server, "gzip");
      const token = FORM_TOKEN.exec(html)?.[1];
      expect(token, "a form token").toBeTruthy();
      const issuedAt = Number(token!.split(".")[0]) * 1000;
      // Rounded up to the whole second (form-token.server.ts): never older than the request.
      expect(issuedAt).toBeGreaterThanOrEqual(before);
      expect(issuedAt).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await formTokensOf(writer.db).verify(token, new Date(issuedAt + 10_000))).toBe("ok");
      return token!;
    };
    const first = await tokenAt();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await tokenAt();
    expect(second).not.toBe(first);
  });

  it("shows a project added, hidden or deleted by another writer on the very next request", async () => {
    const titles = async () => ((await (await fetch(`${server.url}/api/projects`)).json()) as { title: string }[]).map((p) => p.title);
    await getPage(server, "gzip");
    const added = await createProject(writer.db, project("Freshly Added Loft"), TEST_ACTOR);
    expect((await getPage(server, "gzip")).html).toContain("Freshly Added Loft");
    expect(await titles()).toContain("Freshly Added Loft");

    await setProjectActive(writer.db, added.id, false, TEST_ACTOR);
    expect((await getPage(server, "identity")).html).not.toContain("Freshly Added Loft");
    expect(await titles()).not.toContain("Freshly Added Loft");

    await setProjectActive(writer.db, added.id, true, TEST_ACTOR);
    expect((await getPage(server, "gzip")).html).toContain("Freshly Added Loft");
    await deleteProject(writer.db, added.id, TEST_ACTOR);
    expect((await getPage(server, "gzip")).html).not.toContain("Freshly Added Loft");
    expect(await titles()).not.toContain("Freshly Added Loft");
  });

  it("shows a project's picture sizes as soon as another writer records the image", async () => {
    const name = "1700000000000-cachetest001.jpg";
    await createProject(writer.db, { ...project("Picture Pending Flat"), before_image_url: `/images/${name}` }, TEST_ACTOR);
    expect((await getPage(server, "gzip")).html).not.toContain("cachetest001-640w.webp");
    await writer.db
      .insertInto("images")
      .values({
        name,
        content_type: "image/jpeg",
        width: 1280,
        height: 960,
        bytes: 1000,
        variants: JSON.stringify([{ name: "1700000000000-cachetest001-640w.webp", width: 640, height: 480, format: "webp" }]),
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await getPage(server, "gzip")).html).toContain("cachetest001-640w.webp");
  });

  it("gives every one of many requests at once after a change the new page", async () => {
    await getPage(server, "gzip");
    await createProject(writer.db, project("Crowd Awaited Conservatory"), TEST_ACTOR);
    const pages = await Promise.all(Array.from({ length: 20 }, (_, i) => getPage(server, i % 2 ? "gzip" : "identity")));
    for (const page of pages) expect(page.html).toContain("Crowd Awaited Conservatory");
    expect(new Set(pages.map((page) => page.nonce)).size).toBe(pages.length);
  });

  it("shows a change an admin makes through another instance on the same database", async () => {
    const other = await startServer({ ...database.env, ...TEST_ADMIN_ENV });
    try {
      const shown = await createProject(writer.db, project("Second Instance Mews"), TEST_ACTOR);
      expect((await getPage(server, "gzip")).html).toContain("Second Instance Mews");
      const cookie = await signInOverHttp(other);
      const hide = await fetch(`${other.url}/admin/projects`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: other.url, cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "toggle-project", id: shown.id, active: "false" }).toString(),
      });
      expect(hide.status).toBeLessThan(400);
      await hide.arrayBuffer();
      expect((await getPage(server, "gzip")).html).not.toContain("Second Instance Mews");
    } finally {
      await other.stop();
    }
  });

  it("does not keep a page with a query string or a form result", async () => {
    const withQuery = await fetch(`${server.url}/?utm_source=test`);
    expect(withQuery.status).toBe(200);
    expect(await withQuery.text()).toContain("Cached Terrace Kitchen");
    const posted = await fetch(`${server.url}/?index`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "", email: "", userType: "", message: "" }).toString(),
    });
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain("Please fill in all required fields");
    const { html } = await getPage(server, "gzip");
    expect(html).not.toContain("Please fill in all required fields");
  });

  it("answers /api/projects with an ETag, 304 when unchanged, a new ETag after a change", async () => {
    const first = await fetch(`${server.url}/api/projects`);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/);
    const body = await first.text();

    const gzipped = await rawRequest(server.port, { method: "GET", path: "/api/projects", headers: { "accept-encoding": "gzip" } });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.etag).toBe(etag);
    expect(gunzipSync(gzipped.body).toString("utf8")).toBe(body);

    // A raw request, as a browser revalidating its cache sends it (fetch() would
    // add Cache-Control: no-cache to a conditional request, forcing a 200).
    const revalidate = () => rawRequest(server.port, { method: "GET", path: "/api/projects", headers: { "if-none-match": etag! } });
    const unchanged = await revalidate();
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    // A cache may hold it as a weak validator: If-None-Match compares weakly.
    const weak = await rawRequest(server.port, { method: "GET", path: "/api/projects", headers: { "if-none-match": `W/${etag}` } });
    expect(weak.status).toBe(304);

    await createProject(writer.db, project("Another Bathroom"), TEST_ACTOR);
    const changed = await revalidate();
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const titles = (JSON.parse(changed.body.toString("utf8")) as { title: string }[]).map((p) => p.title);
    expect(titles).toContain("Another Bathroom");
  });
});
