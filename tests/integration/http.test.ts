/**
 * The built server over HTTP, as a browser or an API client sees it, on each
 * backend. One server per backend for this file; tests that stop or kill the
 * server live in lifecycle.test.ts.
 */
import { readFileSync } from "node:fs";
import type http from "node:http";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { formTokensOf } from "../support/form-tokens";
import { INVALID_EMAIL_MESSAGE, REQUIRED_MESSAGE, SUCCESS_MESSAGE } from "~/enquiries/schema";
import { toBoolean } from "~/platform/db/db-values";
import { createProject, type NewProject } from "~/projects/projects.server";
import { backends } from "../support/backends";
import { countEnquiries, findEnquiry, postForm, postJson, validEnquiry } from "../support/enquiries";
import { rawExchange, rawRequest } from "../support/http";
import { assertBuilt } from "../support/server";
import { seededRandom, waitFor } from "../support/wait";
import { useSite } from "../support/sites";
import type { Db } from "~/platform/db/db.server";
import { visibleHtml } from "../support/html";
import { TEST_ACTOR } from "../support/actors";

const LIMIT = 64 * 1024;
/** The headers an answer of the contact API sets itself, beside those every response of its kind carries. */
const ANSWER_HEADERS = ["content-type", "allow", "retry-after", "connection", "cache-control"];
const UNKNOWN_USER_TYPE = "Please choose Landlord, Tenant, Property Investor or Other";
/** React escapes the apostrophe in text content. */
const SUCCESS_HTML = SUCCESS_MESSAGE.replace("'", "&#x27;");

const activeProjects: NewProject[] = [
  seedProject("Seeded Mews House Rewire", 0),
  seedProject("Seeded Attic Loft Conversion", 1),
  seedProject("Seeded Garden Flat Refit", 2),
];
const inactiveProject = seedProject("Seeded Hidden Basement Dig", 0, false);

function seedProject(title: string, displayOrder: number, active = true): NewProject {
  return {
    title,
    category: "Full Refurbishment",
    description: `${title} from start to finish.`,
    duration: "6 weeks",
    budget: "£24,000",
    before_image_url: `/samples/kitchen-before.svg`,
    after_image_url: `/samples/kitchen-after.svg`,
    is_active: active,
    display_order: displayOrder,
  };
}

function expectSecurityHeaders(headers: Headers | http.IncomingHttpHeaders): string {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : ((headers[name] as string | undefined) ?? null));
  const csp = get("content-security-policy");
  expect(csp, "Content-Security-Policy").toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  const nonce = /script-src [^;]*'nonce-([A-Za-z0-9+/=_-]+)'/.exec(csp!)?.[1];
  expect(nonce, "a nonce in script-src").toBeTruthy();
  expect(csp).not.toMatch(/script-src [^;]*'unsafe-inline'/);
  expect(get("x-content-type-options")).toBe("nosniff");
  expect(get("referrer-policy")).toMatch(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin|origin|origin-when-cross-origin)$/);
  expect(get("x-powered-by")).toBeNull();
  return nonce!;
}

/** Created out of display order, with a hidden one first, so the order cannot come from insertion. */
async function seedProjects(db: Db): Promise<void> {
  for (const project of [activeProjects[2]!, inactiveProject, activeProjects[0]!, activeProjects[1]!]) await createProject(db, project, TEST_ACTOR);
}

beforeAll(() => assertBuilt());

describe.each(backends)("HTTP on $name", (backend) => {
  // Far more enquiries from 127.0.0.1 than CONTACT_RATE_LIMIT's default; the limit is tested in spam.test.ts.
  const site = useSite(backend, { signedIn: false, env: { CONTACT_RATE_LIMIT: "1000" }, seed: seedProjects });

  describe("GET /", () => {
    it("carries a stylesheet of its own that styles every class it uses that the site's stylesheet styles", async () => {
      const html = await (await fetch(`${site.server.url}/`)).text();
      const inline = /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
      // The site's whole stylesheet, as the other pages link it (the sign-in page is one).
      const signIn = await (await fetch(`${site.server.url}/admin`)).text();
      const href = /<link[^>]*rel="stylesheet"[^>]*href="([^"]+\.css)"/.exec(signIn)?.[1];
      expect(href, "the stylesheet the sign-in page links").toBeTruthy();
      const stylesheet = await (await fetch(`${site.server.url}${href}`)).text();
      expect(inline.length, "the landing page's is the smaller").toBeLessThan(stylesheet.length);
      const selector = (name: string) => `.${name.replace(/[^\w-]/g, (character) => `\\${character}`)}`;
      const classes = new Set([...html.matchAll(/class="([^"]*)"/g)].flatMap((match) => match[1]!.split(/\s+/).filter(Boolean)));
      const unstyled = [...classes].filter((name) => stylesheet.includes(selector(name)) && !inline.includes(selector(name)));
      expect(unstyled).toEqual([]);
    });

    it("renders the active projects on the server, in display order, and not the hidden one", async () => {
      const response = await fetch(`${site.server.url}/`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await response.text();
      const visible = visibleHtml(html);
      const positions = activeProjects.map((project) => visible.indexOf(project.title));
      expect(
        positions.every((position) => position >= 0),
        `titles in the visible HTML: ${positions}`,
      ).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(html).not.toContain(inactiveProject.title);
    });

    it("puts the nonce of the Content-Security-Policy on every script", async () => {
      const response = await fetch(`${site.server.url}/`);
      const nonce = expectSecurityHeaders(response.headers);
      const scripts = (await response.text()).match(/<script\b[^>]*>/gi) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    });

    it("uses a new nonce for every response", async () => {
      const [a, b] = await Promise.all([fetch(`${site.server.url}/`), fetch(`${site.server.url}/`)]);
      expect(expectSecurityHeaders(a.headers)).not.toBe(expectSecurityHeaders(b.headers));
    });

    it("is compressed for a client that accepts gzip", async () => {
      const response = await rawRequest(site.server.port, { method: "GET", path: "/", headers: { "accept-encoding": "gzip" } });
      expect(response.status).toBe(200);
      expect(response.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(response.body).toString("utf8")).toMatch(/^<!DOCTYPE html>/i);
    });

    it("serves the hashed assets it references with immutable, long-lived caching", async () => {
      const html = await (await fetch(`${site.server.url}/`)).text();
      const assets = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!))];
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        const response = await fetch(`${site.server.url}${asset}`);
        expect(response.status, asset).toBe(200);
        const cacheControl = response.headers.get("cache-control") ?? "";
        expect(cacheControl, asset).toContain("immutable");
        expect(Number(/max-age=(\d+)/.exec(cacheControl)?.[1]), asset).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);
        await response.arrayBuffer();
      }
    });
  });

  describe("security headers", () => {
    it.each([
      ["the API", "/api/projects", 200],
      ["a page that does not exist", "/no-such-page", 404],
      ["a missing asset", "/assets/no-such-file.js", 404],
      ["the health check", "/healthz", 200],
    ])("are on %s", async (_label, path, status) => {
      const response = await fetch(`${site.server.url}${path}`);
      expect(response.status).toBe(status);
      expectSecurityHeaders(response.headers);
      await response.arrayBuffer();
    });

    it("are a file's on a static asset: nosniff, same-origin, HSTS, and a policy that allows nothing, without a page's", async () => {
      const html = await (await fetch(`${site.server.url}/`)).text();
      const asset = /(?:src|href)="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(asset).toBeTruthy();
      for (const path of [asset!, "/logo.svg"]) {
        const response = await fetch(`${site.server.url}${path}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
        expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
        // Opened as a page (an SVG can hold a script), it may run, load and frame nothing.
        expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
        for (const header of ["permissions-policy", "x-frame-options", "cross-origin-opener-policy"]) expect(response.headers.get(header), header).toBeNull();
        expect(response.headers.get("x-powered-by")).toBeNull();
        await response.arrayBuffer();
      }
    });

    it("sends a static asset as the build compressed it, Brotli to a browser that takes it, gzip to one that does not", async () => {
      const html = await (await fetch(`${site.server.url}/`)).text();
      const asset = /(?:src|href)="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
      const file = fileURLToPath(new URL(`../../build/client${asset}`, import.meta.url));
      const original = readFileSync(file);
      for (const [accept, encoding, suffix, decode] of [
        ["gzip, deflate, br", "br", ".br", brotliDecompressSync],
        ["gzip", "gzip", ".gz", gunzipSync],
      ] as const) {
        const response = await rawRequest(site.server.port, { method: "GET", path: asset, headers: { "accept-encoding": accept } });
        expect(response.headers["content-encoding"]).toBe(encoding);
        expect(response.headers["content-type"]).toMatch(/javascript/);
        // The build's own compressed file, not one compressed again per request.
        expect(response.body.equals(readFileSync(`${file}${suffix}`))).toBe(true);
        expect(decode(response.body).equals(original)).toBe(true);
      }
    });
  });

  describe("GET /healthz", () => {
    it("answers 200 {status: ok} and is never cached", async () => {
      const response = await fetch(`${site.server.url}/healthz`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toContain("no-store");
      expect(await response.json()).toEqual({ status: "ok" });
    });
  });

  describe("GET /api/projects", () => {
    it("answers the active projects as JSON, in display order", async () => {
      const response = await fetch(`${site.server.url}/api/projects`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const projects = (await response.json()) as Array<Record<string, unknown>>;
      expect(projects.map((project) => project.title)).toEqual(activeProjects.map((project) => project.title));
      expect(projects[0]).toEqual({
        id: expect.any(String),
        title: "Seeded Mews House Rewire",
        category: "Full Refurbishment",
        description: "Seeded Mews House Rewire from start to finish.",
        duration: "6 weeks",
        budget: "£24,000",
        before_image_url: "/samples/kitchen-before.svg",
        after_image_url: "/samples/kitchen-after.svg",
        before_image_alt: "Before: Seeded Mews House Rewire",
        after_image_alt: "After: Seeded Mews House Rewire",
        // Not uploaded here: no resized copies.
        before_image_sources: null,
        after_image_sources: null,
        is_active: true,
        display_order: 0,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
    });
  });

  describe("POST /api/contact", () => {
    it("stores a valid enquiry and answers 201 with its id", async () => {
      const message = `API enquiry ${backend.name} ${Date.now()}`;
      const response = await postJson(site.server.url, { ...validEnquiry, name: "  Grace Hopper  ", message });
      expect(response.status).toBe(201);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as { ok: boolean; id: string; message: string };
      expect(body).toEqual({ ok: true, id: expect.any(String), message: SUCCESS_MESSAGE });

      const rows = await findEnquiry(site.reader, { id: body.id });
      expect(rows).toHaveLength(1);
      expect({ ...rows[0], is_read: toBoolean(rows[0]!.is_read) }).toMatchObject({
        name: "Grace Hopper",
        email: "grace@example.com",
        phone: "020 7946 0002",
        user_type: "landlord",
        message,
        is_read: false,
        // No token from the API is fine: it never saw the page.
        spam_reason: null,
      });
    });

    // Express answers /api/contact ahead of React Router (decision 065); React Router's route still answers
    // the paths only it matches (/api/%63ontact). One implementation: the same answer either way, the
    // same status, body and headers of its own. How it travels and the security headers differ: Express
    // sends a JSON answer's (decision 083), uncompressed with its length; React Router's, a page's.
    it.each([
      ["a valid enquiry", JSON.stringify(validEnquiry), "application/json"],
      ["a valuation request with fields missing", JSON.stringify({ kind: "valuation", name: "Grace" }), "application/json"],
      ["an unknown kind", JSON.stringify({ ...validEnquiry, kind: "complaint" }), "application/json"],
      ["malformed JSON", '{"name":', "application/json"],
      ["text that is not UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), "application/json"],
      ["a body that is not JSON", "name=Grace", "application/x-www-form-urlencoded"],
      ["a body over 64 KB", JSON.stringify({ ...validEnquiry, padding: "p".repeat(70_000) }), "application/json"],
    ])("answers %s as the route module does", async (_label, body, type) => {
      const answer = async (path: string) => {
        const response = await fetch(`${site.server.url}${path}`, { method: "POST", headers: { "content-type": type }, body });
        const headers = [...response.headers].filter(([name]) => ANSWER_HEADERS.includes(name));
        return { status: response.status, headers, body: (await response.text()).replace(/"id":"[0-9a-f-]{36}"/, '"id":"…"') };
      };
      const express = await answer("/api/contact");
      expect(express).toEqual(await answer("/api/%63ontact"));
      expect(express.headers).toContainEqual(["content-type", "application/json; charset=utf-8"]);
    });

    it.each([
      ["a valid enquiry", 201, JSON.stringify(validEnquiry)],
      ["an enquiry with fields missing", 400, JSON.stringify({ name: "Grace" })],
      ["a body over 64 KB", 413, JSON.stringify({ ...validEnquiry, padding: "p".repeat(70_000) })],
      // Express's route answers what the server's shortcut leaves to it (decision 083): the same answer.
      ["a valid enquiry to a path Express also matches", 201, JSON.stringify(validEnquiry), "/API/Contact"],
      ["a valid enquiry with a query string", 201, JSON.stringify(validEnquiry), "/api/contact?from=footer"],
    ])("answers %s with a JSON answer's security headers, not a page's, uncompressed", async (_label, status, body, path = "/api/contact") => {
      const response = await rawRequest(site.server.port, {
        path,
        headers: { "content-type": "application/json", "accept-encoding": "gzip, deflate, br" },
        body,
      });
      expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.status).toBe(status);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["cross-origin-resource-policy"]).toBe("same-origin");
      expect(response.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
      // Opened as a page, it may run, load and frame nothing: no script, so no nonce.
      expect(response.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
      for (const header of ["permissions-policy", "x-frame-options", "cross-origin-opener-policy", "referrer-policy", "x-powered-by", "vary", "etag"]) {
        expect(response.headers[header], header).toBeUndefined();
      }
      // A hundred bytes are sent as they are, with their length.
      expect(response.headers["content-encoding"]).toBeUndefined();
      expect(Number(response.headers["content-length"])).toBe(response.body.length);
      expect(JSON.parse(response.text)).toEqual(expect.any(Object));
    });

    it("refuses a write from another site with the shared rule's 403, not the route's answer, storing nothing", async () => {
      const before = await countEnquiries(site.reader);
      const response = await fetch(`${site.server.url}/api/contact`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://evil.example" },
        body: JSON.stringify(validEnquiry),
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: "Cross-site request refused." });
      expect(await countEnquiries(site.reader)).toBe(before);
    });

    it("stores an enquiry without a phone number", async () => {
      const { phone: _phone, ...withoutPhone } = validEnquiry;
      const response = await postJson(site.server.url, { ...withoutPhone, userType: "investor" });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      expect((await findEnquiry(site.reader, { id }))[0]).toMatchObject({ phone: null, user_type: "investor" });
    });

    it.each([
      ["a missing name", { name: undefined }, REQUIRED_MESSAGE],
      ["an empty e-mail", { email: "" }, REQUIRED_MESSAGE],
      ["a message of spaces", { message: "   " }, REQUIRED_MESSAGE],
      ["a missing user type", { userType: undefined }, REQUIRED_MESSAGE],
      ["an e-mail without a dot", { email: "grace@example" }, INVALID_EMAIL_MESSAGE],
      ["an e-mail with a second recipient", { email: "grace@example.com,eve@evil.com" }, INVALID_EMAIL_MESSAGE],
      ["an e-mail with a smuggled header", { email: "grace@example.com\r\nBcc: eve@evil.com" }, INVALID_EMAIL_MESSAGE],
      ["an e-mail with two at signs", { email: "grace@evil.com@example.com" }, INVALID_EMAIL_MESSAGE],
      ["an e-mail in angle brackets", { email: "a@b.c>,x@y.z" }, INVALID_EMAIL_MESSAGE],
      ["an unknown user type", { userType: "admin" }, UNKNOWN_USER_TYPE],
      ["a name over 200 characters", { name: "N".repeat(201) }, "Please keep your name under 200 characters"],
      ["a phone number over 40 characters", { phone: "0".repeat(41) }, "Please keep your phone number under 40 characters"],
      ["a message over 20,000 characters", { message: "m".repeat(20_001) }, "Please keep your message under 20,000 characters"],
      ["a name that is a number", { name: 42 }, "Name must be text"],
    ])("refuses %s with 400 and the message, storing nothing", async (_label, change, error) => {
      const before = await countEnquiries(site.reader);
      const response = await postJson(site.server.url, { ...validEnquiry, ...change });
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toMatchObject({ error });
      expect(await countEnquiries(site.reader)).toBe(before);
    });

    it.each([
      ["malformed JSON", '{"name": "Grace",', "Request body must be valid JSON"],
      ["an empty body", "", "Request body must be valid JSON"],
      ["a JSON array", JSON.stringify([validEnquiry]), "Request body must be a JSON object"],
      ["a JSON string", JSON.stringify("hello"), "Request body must be a JSON object"],
      ["JSON null", "null", "Request body must be a JSON object"],
      ["a JSON number", "42", "Request body must be a JSON object"],
    ])("refuses %s with 400 JSON {error}", async (_label, body, error) => {
      const response = await postJson(site.server.url, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error });
    });

    /** A valid enquiry padded with an unknown field to exactly `size` bytes. */
    function bodyOfSize(size: number): string {
      const empty = JSON.stringify({ ...validEnquiry, padding: "" });
      const body = JSON.stringify({ ...validEnquiry, padding: "p".repeat(size - empty.length) });
      expect(Buffer.byteLength(body)).toBe(size);
      return body;
    }

    it("accepts a body of exactly 64 KB", async () => {
      const response = await rawRequest(site.server.port, {
        path: "/api/contact",
        headers: { "content-type": "application/json", "content-length": LIMIT },
        body: bodyOfSize(LIMIT),
      });
      expect(response.status).toBe(201);
    });

    it("refuses a body over 64 KB with 413, by its Content-Length", async () => {
      const before = await countEnquiries(site.reader);
      const response = await rawRequest(site.server.port, {
        path: "/api/contact",
        headers: { "content-type": "application/json", "content-length": LIMIT + 1 },
        body: bodyOfSize(LIMIT + 1),
      });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.text)).toEqual({ error: expect.any(String) });
      expect(await countEnquiries(site.reader)).toBe(before);
    });

    it("refuses a chunked body over 64 KB with no Content-Length with 413", async () => {
      const before = await countEnquiries(site.reader);
      const body = Buffer.from(bodyOfSize(LIMIT + 4096));
      const chunks = Array.from({ length: Math.ceil(body.length / 8192) }, (_, i) => body.subarray(i * 8192, (i + 1) * 8192));
      const response = await rawRequest(site.server.port, {
        path: "/api/contact",
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
        body: chunks,
      });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.text)).toEqual({ error: expect.any(String) });
      expect(await countEnquiries(site.reader)).toBe(before);
    });

    it("refuses text/plain with 415", async () => {
      const response = await fetch(`${site.server.url}/api/contact`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify(validEnquiry),
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: "Content-Type must be application/json" });
    });

    it("refuses a body without a Content-Type with 415", async () => {
      const body = JSON.stringify(validEnquiry);
      const response = await rawRequest(site.server.port, {
        path: "/api/contact",
        headers: { "content-length": Buffer.byteLength(body) },
        body,
      });
      expect(response.status).toBe(415);
      expect(JSON.parse(response.text)).toEqual({ error: "Content-Type must be application/json" });
    });

    it.each(["GET", "PUT", "DELETE", "PATCH"])("answers %s with 405 and Allow: POST", async (method) => {
      const response = await fetch(`${site.server.url}/api/contact`, {
        method,
        ...(method === "GET" ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(validEnquiry) }),
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(await response.json()).toEqual({ error: expect.any(String) });
    });
  });

  describe("the contact form without JavaScript (POST /?index)", () => {
    it("stores the enquiry and shows the success notice", async () => {
      const message = `Form enquiry ${backend.name} ${Date.now()}`;
      // The page's time-trap token, as a person who took 10 s to fill in the form sends it back.
      const formToken = await formTokensOf(site.db).issue(new Date(Date.now() - 10_000));
      const response = await postForm(site.server.url, { ...validEnquiry, userType: "tenant", message, formToken });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(visibleHtml(await response.text())).toContain(SUCCESS_HTML);
      const rows = await findEnquiry(site.reader, { message });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: "Grace Hopper", email: "grace@example.com", user_type: "tenant", spam_reason: null });
    });

    it("shows the error and keeps what was typed", async () => {
      const before = await countEnquiries(site.reader);
      const response = await postForm(site.server.url, {
        name: "Typed Name Kept",
        email: "typed-not-an-address",
        phone: "07700 900123",
        userType: "investor",
        message: "Typed message kept",
      });
      expect(response.status).toBe(400);
      const html = visibleHtml(await response.text());
      expect(html).toContain(INVALID_EMAIL_MESSAGE);
      expect(html).toContain('value="Typed Name Kept"');
      expect(html).toContain('value="typed-not-an-address"');
      expect(html).toContain('value="07700 900123"');
      expect(html).toMatch(/<textarea[^>]*>\s*Typed message kept\s*<\/textarea>/);
      expect(html).toMatch(/<option[^>]*value="investor"[^>]*selected|<option[^>]*selected[^>]*value="investor"/);
      expect(await countEnquiries(site.reader)).toBe(before);
    });

    it("shows the required-fields message for an empty form", async () => {
      const response = await postForm(site.server.url, { name: "", email: "", phone: "", userType: "", message: "" });
      expect(response.status).toBe(400);
      expect(visibleHtml(await response.text())).toContain(REQUIRED_MESSAGE);
    });
  });

  describe("malformed input", () => {
    type Case = { label: string; send: () => Promise<{ status: number; text?: string }> };

    function jsonCase(label: string, body: Buffer | string, contentType = "application/json"): Case {
      return {
        label,
        send: () =>
          rawRequest(site.server.port, {
            path: "/api/contact",
            headers: { "content-type": contentType, "content-length": Buffer.byteLength(body) },
            body,
          }),
      };
    }

    function formCase(label: string, body: Buffer | string, contentType = "application/x-www-form-urlencoded"): Case {
      return {
        label: `form: ${label}`,
        send: () =>
          rawRequest(site.server.port, {
            path: "/?index",
            headers: { "content-type": contentType, "content-length": Buffer.byteLength(body) },
            body,
          }),
      };
    }

    function rawCase(label: string, bytes: string | Buffer, options: { giveUp?: boolean } = {}): Case {
      return { label: `raw: ${label}`, send: () => rawExchange(site.server.port, bytes, options) };
    }

    const valid = JSON.stringify(validEnquiry);
    const json = (value: unknown) => JSON.stringify(value);
    const boundary = "----fuzzboundary";

    const bodyCases: Case[] = [
      jsonCase("invalid UTF-8", Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('"}')])),
      jsonCase("UTF-8 BOM", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid)])),
      jsonCase("a lone surrogate", valid.replace("Grace Hopper", "Grace \\ud800 Hopper")),
      jsonCase("a NUL character in the message", json({ ...validEnquiry, message: "before\u0000after" })),
      jsonCase("a NUL character in the e-mail", json({ ...validEnquiry, email: "grace@exa\u0000mple.com" })),
      jsonCase("huge field values", json({ ...validEnquiry, name: "N".repeat(30_000), message: "M".repeat(30_000) })),
      jsonCase("nested objects", json({ name: { first: "Grace" }, email: { $gt: "" }, userType: { toString: "x" }, message: [] })),
      jsonCase("numbers instead of strings", json({ name: 1, email: 2, phone: 3, userType: 4, message: 5 })),
      jsonCase("booleans and nulls", json({ name: true, email: null, phone: false, userType: null, message: true })),
      jsonCase("duplicate keys", valid.replace("{", '{"name":{},"email":1,')),
      jsonCase("__proto__ and constructor keys", valid.replace("{", '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},')),
      jsonCase("deeply nested arrays", `${"[".repeat(30_000)}${"]".repeat(30_000)}`),
      jsonCase("deeply nested objects", `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`),
      jsonCase("a huge number", `{"name":1${"0".repeat(5000)}}`),
      jsonCase("only white space", "   \n\t  "),
      jsonCase("a JSON string with escapes", json("\u0000\n\r")),
      jsonCase("UTF-16 declared as JSON", Buffer.from(valid, "utf16le"), "application/json; charset=utf-16"),
      jsonCase("multipart garbage", `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nGrace`, `multipart/form-data; boundary=${boundary}`),
      jsonCase("a +json media type with garbage", "}{", "application/problem+json"),
      jsonCase("an odd Content-Type", valid, "application/json;;;; charset=\u00ff"),
      jsonCase("a Content-Type of 2 KB", valid, `application/json; x=${"y".repeat(2048)}`),
      formCase("invalid UTF-8", Buffer.concat([Buffer.from("name="), Buffer.from([0xff, 0xfe]), Buffer.from("&email=x")])),
      formCase("bad percent escapes", "name=%ZZ%&email=%E0%A4%A&message=%FF%FE%00&userType=%"),
      formCase("a NUL character in the message", new URLSearchParams({ ...validEnquiry, message: "a\u0000b" }).toString()),
      formCase("huge field values", new URLSearchParams({ ...validEnquiry, name: "N".repeat(30_000), message: "M".repeat(30_000) }).toString()),
      formCase("bracketed names", "name[]=a&name[x]=b&email[$gt]=&userType[]=tenant&message=1"),
      formCase("duplicate keys", `name=&${new URLSearchParams(validEnquiry).toString()}&name=Second`),
      formCase("only separators", "&&&===&=&"),
      formCase("multipart garbage", "this is not multipart at all", `multipart/form-data; boundary=${boundary}`),
      formCase("multipart without a boundary", `--${boundary}\r\n\r\n`, "multipart/form-data"),
      formCase(
        "multipart cut short",
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nGrace\r\n--${boundary}\r\nContent-Disposition: form-d`,
        `multipart/form-data; boundary=${boundary}`,
      ),
      formCase(
        "multipart with a file in every field",
        ["name", "email", "userType", "message"]
          .map((name) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="x.txt"\r\nContent-Type: text/plain\r\n\r\nfile\r\n`)
          .join("") + `--${boundary}--\r\n`,
        `multipart/form-data; boundary=${boundary}`,
      ),
      formCase("JSON to the form", valid, "application/json"),
      formCase("text/plain to the form", "name=Grace", "text/plain"),
      formCase("an empty Content-Type", "name=Grace", ""),
    ];

    const headerCases: Case[] = [
      rawCase("no Host header (HTTP/1.0)", "GET / HTTP/1.0\r\n\r\n"),
      rawCase("a garbage Host header", "GET / HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n"),
      rawCase("a Host header with spaces", "GET /api/projects HTTP/1.1\r\nHost: a b c\r\nConnection: close\r\n\r\n"),
      rawCase("a garbage X-Forwarded-Host", "GET / HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Host: ^^^:abc\r\nConnection: close\r\n\r\n"),
      rawCase(
        "a bad chunk size",
        `POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
      ),
      rawCase(
        "Content-Length and chunked",
        `POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      ),
      rawCase("a negative Content-Length", `POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: -5\r\n\r\n{}`),
      rawCase(
        "a body shorter than its Content-Length",
        `POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"name":"Gr`,
        { giveUp: true },
      ),
      rawCase(
        "a form body shorter than its Content-Length",
        `POST /?index HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\nname=Gr`,
        { giveUp: true },
      ),
      rawCase("a header line without a colon", "GET / HTTP/1.1\r\nHost: localhost\r\nthis is not a header\r\n\r\n"),
      rawCase("high bytes in a header", Buffer.from("GET / HTTP/1.1\r\nHost: localhost\r\nX-Junk: \xff\xfe\x80\r\nConnection: close\r\n\r\n", "latin1")),
      rawCase("32 KB of headers", `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(32 * 1024)}\r\n\r\n`),
      rawCase("not HTTP at all", "\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003"),
      rawCase("a malformed percent-encoded path", "GET /%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
      rawCase("a path of %", "GET /% HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
      rawCase("a path with dot segments", "GET /assets/..%2f..%2fpackage.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
      rawCase("an absolute-form URL", "GET http://evil.example/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
      rawCase("an asterisk request", "OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
      rawCase("an unknown method", "BREW / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
      rawCase(
        "a React Router data request with garbage",
        "POST /_root.data?index HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4\r\nConnection: close\r\n\r\n%%%%",
      ),
      rawCase("a 10 KB query string", `GET /?${"q=%ff&".repeat(1700)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
    ];

    /** Random damage to a valid body: flipped bytes, cuts, insertions, repeats. Seeded, so failures replay. */
    function mutatedBodies(seed: number, count: number, source: string): Buffer[] {
      const random = seededRandom(seed);
      const pick = (n: number) => Math.floor(random() * n);
      const alphabet = Buffer.from('{}[]":,\\/\u0000\r\n%&=+ ab0\u00ff');
      return Array.from({ length: count }, () => {
        const bytes = [...Buffer.from(source)];
        for (let edits = 1 + pick(6); edits > 0; edits--) {
          const at = pick(bytes.length + 1);
          switch (pick(5)) {
            case 0:
              bytes[at] = pick(256);
              break;
            case 1:
              bytes.splice(at, pick(20));
              break;
            case 2:
              bytes.splice(at, 0, ...Array.from({ length: 1 + pick(8) }, () => alphabet[pick(alphabet.length)]!));
              break;
            case 3:
              bytes.splice(at, 0, ...bytes.slice(at, at + pick(40)));
              break;
            default:
              bytes.length = Math.min(bytes.length, at);
          }
        }
        return Buffer.from(bytes);
      });
    }

    const randomCases: Case[] = [
      ...mutatedBodies(20_251_122, 60, valid).map((body, i) => jsonCase(`mutated JSON #${i}`, body)),
      ...mutatedBodies(1_122, 60, new URLSearchParams(validEnquiry).toString()).map((body, i) => formCase(`mutated form #${i}`, body)),
    ];

    async function statusesOf(cases: Case[]): Promise<string[]> {
      const failures: string[] = [];
      // A few at a time: enough to be quick, few enough not to starve a 2-core machine.
      for (let i = 0; i < cases.length; i += 6) {
        await Promise.all(
          cases.slice(i, i + 6).map(async ({ label, send }) => {
            try {
              const { status, text } = await send();
              if (status >= 500) failures.push(`${label}: ${status} ${(text ?? "").replace(/\s+/g, " ").slice(0, 120)}`);
            } catch (error) {
              failures.push(`${label}: ${(error as Error).message}`);
            }
          }),
        );
      }
      // Whatever came before, the server is still fine.
      expect((await fetch(`${site.server.url}/healthz`)).status).toBe(200);
      return failures;
    }

    it("malformed bodies never get a 5xx", async () => {
      expect(await statusesOf(bodyCases)).toEqual([]);
    });

    it("randomly damaged bodies never get a 5xx", async () => {
      expect(await statusesOf(randomCases)).toEqual([]);
    });

    it("malformed request lines and headers never get a 5xx", async () => {
      expect(await statusesOf(headerCases)).toEqual([]);
    });

    /**
     * Every odd request target with every method, each with and without a
     * cookie (a cookie takes a request past the page cache to Express and
     * React Router), and with other header shapes on the way.
     */
    const TARGETS = [
      "*",
      "http://evil.example/",
      "http://evil.example/admin",
      "HTTPS://LOCALHOST/api/projects",
      "http://[::1]/",
      "http://evil.example",
      "http:/nohost",
      "//evil.example/",
      "///",
      "/%",
      "/%zz",
      "/%00",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/admin/%E0%A4%A",
      "/images/%zz",
      "/images/..%2f..%2fpackage.json",
      "/api/projects/%ff",
      "/?__proto__=1&constructor=2",
      "/admin?notice=__proto__&tab=constructor&filter=__proto__&page=constructor",
      "/admin.data?notice=__proto__",
      "/_root.data",
      "/__manifest?paths=%zz&version=x",
      "x",
      "?a",
      "/nope",
    ];
    const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND", "TRACE"];
    const HEADER_SHAPES = [
      "",
      "Cookie: a=b; __Host-admin_session=not-a-token\r\n",
      "Cookie: \r\nAccept-Encoding: gzip;q=x, *;q=\r\n",
      "X-Forwarded-Host: evil.example, ^^\r\nX-Forwarded-Proto: gopher\r\nX-Forwarded-For: not-an-ip\r\n",
      "Origin: null\r\nSec-Fetch-Site: cross-site\r\n",
      "Content-Type: multipart/form-data\r\nContent-Length: 0\r\n",
    ];
    const targetCases: Case[] = TARGETS.flatMap((target, t) =>
      METHODS.map((method, m) => {
        const shape = HEADER_SHAPES[(t + m) % HEADER_SHAPES.length]!;
        const body = method === "POST" || method === "PUT" || method === "PATCH" ? "Content-Length: 0\r\n" : "";
        const headers = shape.includes("Content-Length") ? shape : shape + body;
        return rawCase(
          `${method} ${target} [${shape.trim().split(":")[0] || "plain"}]`,
          `${method} ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`,
        );
      }),
    );

    it("odd request targets, methods and header shapes never get a 5xx, nor a stack trace in the log", async () => {
      const logBefore = site.server.stdout().length + site.server.stderr().length;
      expect(await statusesOf(targetCases)).toEqual([]);
      const log = (site.server.stdout() + site.server.stderr()).slice(logBefore);
      expect(log, "client errors are logged without stack traces").not.toMatch(/^\s+at /m);
    });

    it("answers OPTIONS * with 204 and Allow, and an absolute-form target as its path on the host it names", async () => {
      const options = await rawExchange(site.server.port, "OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
      expect(options.status).toBe(204);
      expect(options.text).toMatch(/^Allow: GET, HEAD, POST\r$/im);
      expect((await rawExchange(site.server.port, "GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")).status).toBe(400);

      const absolute = await rawExchange(
        site.server.port,
        `GET http://127.0.0.1:${site.server.port}/api/projects HTTP/1.1\r\nHost: elsewhere.example\r\nConnection: close\r\n\r\n`,
      );
      expect(absolute.status).toBe(200);
      expect(absolute.text).toContain(activeProjects[0]!.title);
    });

    it("logs a missing page or a malformed path as one short line, without a stack trace", async () => {
      const missing = `/no-such-page-${Date.now()}`;
      const logBefore = site.server.stdout().length + site.server.stderr().length;
      expect((await fetch(`${site.server.url}${missing}`)).status).toBe(404);
      expect((await rawExchange(site.server.port, `GET ${missing}/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)).status).toBe(400);
      const newLog = () => (site.server.stdout() + site.server.stderr()).slice(logBefore);
      await waitFor("both requests in the log", () => newLog().split(missing).length > 2);
      const lines = newLog()
        .split("\n")
        .filter((line) => line.includes(missing));
      expect(lines).toHaveLength(2);
      // In the order the responses were done, which need not be the order they were asked for.
      const parsed = lines.map((line) => JSON.parse(line) as { status: number }).sort((a, b) => a.status - b.status);
      expect(parsed).toMatchObject([
        { level: "info", method: "GET", path: `${missing}/%E0%A4%A`, status: 400, reason: "malformed percent-encoding" },
        { level: "info", method: "GET", path: missing, status: 404, reason: "Not Found" },
      ]);
      expect(newLog()).not.toMatch(/^\s+at /m);
    });
  });
});
