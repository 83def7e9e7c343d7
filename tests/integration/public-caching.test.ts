/**
 * The public page and the gallery JSON are rendered or compressed once per
 * version of their data. These tests change the data behind the server's back,
 * as another instance on the same database would, and expect to see it at once.
 */
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, type Database } from "~/platform/db.server";
import { createProject, type NewProject } from "~/projects/projects.server";
import { backends, type TestDatabase } from "../support/backends";
import { rawRequest } from "../support/http";
import { assertBuilt, startServer, type SpawnedServer } from "../support/server";

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

async function getPage(server: SpawnedServer, encoding: string) {
  const response = await rawRequest(server.port, { method: "GET", path: "/", headers: { "accept-encoding": encoding } });
  expect(response.status).toBe(200);
  const html =
    response.headers["content-encoding"] === "gzip" ? gunzipSync(response.body).toString("utf8") : response.body.toString("utf8");
  return { html, nonce: nonceOf(response.headers["content-security-policy"] as string), headers: response.headers };
}

beforeAll(() => assertBuilt());

describe.each(backends)("cached public responses on $name", (backend) => {
  let database: TestDatabase;
  let server: SpawnedServer;
  let writer: Database;

  beforeAll(async () => {
    database = await backend.createDatabase();
    writer = database.open();
    await migrateToLatest(writer);
    await createProject(writer.db, project("Cached Terrace Kitchen"));
    server = await startServer(database.env);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.cleanup();
  });

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
    const normalised = (page: { html: string; nonce: string }) =>
      page.html.replaceAll(page.nonce, "N").replace(/\b\d{10,12}\.[A-Za-z0-9_-]{43}\b/g, "T");
    expect(first.html).toMatch(/name="formToken" value="\d{10,12}\.[A-Za-z0-9_-]{43}"/);
    expect(normalised(second)).toBe(normalised(first));
    expect(normalised(plain)).toBe(normalised(first));
  });

  it("shows a project added by another writer on the very next request", async () => {
    await getPage(server, "gzip");
    await createProject(writer.db, project("Freshly Added Loft"));
    const { html } = await getPage(server, "gzip");
    expect(html).toContain("Freshly Added Loft");
    const json = (await (await fetch(`${server.url}/api/projects`)).json()) as { title: string }[];
    expect(json.map((p) => p.title)).toContain("Freshly Added Loft");
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
    const revalidate = () =>
      rawRequest(server.port, { method: "GET", path: "/api/projects", headers: { "if-none-match": etag! } });
    const unchanged = await revalidate();
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);

    await createProject(writer.db, project("Another Bathroom"));
    const changed = await revalidate();
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const titles = (JSON.parse(changed.body.toString("utf8")) as { title: string }[]).map((p) => p.title);
    expect(titles).toContain("Another Bathroom");
  });
});
