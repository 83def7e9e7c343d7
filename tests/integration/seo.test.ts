/**
 * What search engines and link previews read: canonical link, Open Graph and
 * Twitter card tags, the LocalBusiness structured data, robots.txt,
 * sitemap.xml and the web manifest, with and without PUBLIC_URL. No stored
 * data is involved, so SQLite alone is enough.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { backends } from "../support/backends";
import { rawRequest } from "../support/http";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

const sqlite = backends.find((backend) => backend.name === "sqlite")!;

const PUBLIC_URL = "https://www.acme-lettings.example";
const COMPANY = {
  COMPANY_NAME: "Acme Lettings & Management <Ltd>",
  COMPANY_SHORT_NAME: "Acme",
  COMPANY_PHONE: "0161 496 0999",
  COMPANY_EMAIL: "office@acme-lettings.example",
  COMPANY_ADDRESS: "22 Deansgate, Manchester M3 2BW",
  COMPANY_LOGO_URL: "/logo.svg",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_match, entity: string) => {
    if (entity[0] === "#") return String.fromCodePoint(Number(entity[1] === "x" ? `0${entity.slice(1)}` : entity.slice(1)));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[entity.toLowerCase()]!;
  });
}

/** Every <tag …> of that name in the document, as its decoded attributes. */
function tags(html: string, name: "meta" | "link"): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, "gi"))].map(([, attributes]) =>
    Object.fromEntries([...attributes!.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, key, value]) => [key!.toLowerCase(), decodeEntities(value!)])),
  );
}

/** The content of <meta property|name="key">, failing when it is missing or repeated. */
function metaContent(html: string, key: string): string {
  const found = tags(html, "meta").filter((tag) => tag.property === key || tag.name === key);
  expect(found, `one meta ${key}`).toHaveLength(1);
  return found[0]!.content!;
}

function canonicalOf(html: string): string {
  const found = tags(html, "link").filter((tag) => tag.rel === "canonical");
  expect(found, "one canonical link").toHaveLength(1);
  return found[0]!.href!;
}

type JsonLd = Record<string, unknown> & {
  address: Record<string, string>;
  openingHoursSpecification: { "@type": string; dayOfWeek: string[]; opens: string; closes: string }[];
};

function jsonLdOf(html: string): JsonLd {
  const scripts = [...html.matchAll(/<script\b[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/gi)];
  expect(scripts, "one JSON-LD script").toHaveLength(1);
  return JSON.parse(scripts[0]![1]!) as JsonLd;
}

/**
 * Enough of an XML well-formedness check for a sitemap: one declaration, then
 * elements that nest and close properly, no stray "<" and only escaped "&".
 */
function expectWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  expect(body.length, "an XML declaration followed by elements").toBeLessThan(xml.length);
  const open: string[] = [];
  let rootClosed = false;
  for (const token of body.split(/(<[^<>]*>)/)) {
    if (token.startsWith("<")) {
      expect(rootClosed, "nothing after the root element").toBe(false);
      const tag = /^<(\/?)([A-Za-z_][\w:.-]*)(?:\s+[\w:.-]+="[^"<]*")*\s*(\/?)>$/.exec(token);
      expect(tag, `a well-formed tag: ${token}`).not.toBeNull();
      const [, closing, name, selfClosing] = tag!;
      if (closing) {
        expect(open.pop(), `</${name}> closes the element last opened`).toBe(name);
        rootClosed = open.length === 0;
      } else if (!selfClosing) open.push(name!);
    } else {
      expect(token, "text without a raw < or an unescaped &").not.toMatch(/<|&(?!(amp|lt|gt|quot|apos);)/);
      if (open.length === 0) expect(token.trim()).toBe("");
    }
  }
  expect(open, "every element closed").toEqual([]);
  expect(rootClosed, "a root element").toBe(true);
}

async function getText(url: string, headers?: Record<string, string>) {
  const response = await fetch(url, { headers });
  return { response, text: await response.text() };
}

beforeAll(() => assertBuilt());

describe("SEO with PUBLIC_URL and a configured company", () => {
  let html: string;
  let cspHeader: string;

  // The trailing slash is dropped: every URL below is PUBLIC_URL + path.
  const site = useSite(sqlite, { signedIn: false, env: { ...COMPANY, PUBLIC_URL: `${PUBLIC_URL}/` } });

  beforeAll(async () => {
    const page = await getText(`${site.server.url}/`);
    expect(page.response.status).toBe(200);
    html = page.text;
    cspHeader = page.response.headers.get("content-security-policy") ?? "";
  });

  it("gives the canonical URL and the social card tags with PUBLIC_URL", () => {
    expect(canonicalOf(html)).toBe(`${PUBLIC_URL}/`);
    expect(metaContent(html, "og:url")).toBe(`${PUBLIC_URL}/`);
    expect(metaContent(html, "og:type")).toBe("website");
    expect(metaContent(html, "og:site_name")).toBe(COMPANY.COMPANY_NAME);
    expect(metaContent(html, "og:locale")).toBe("en_GB");
    expect(metaContent(html, "og:title")).toContain(COMPANY.COMPANY_NAME);
    expect(metaContent(html, "og:description")).toBe(metaContent(html, "description"));
    expect(metaContent(html, "og:image")).toBe(`${PUBLIC_URL}/og-image.png`);
    expect(metaContent(html, "og:image:width")).toBe("1200");
    expect(metaContent(html, "og:image:height")).toBe("630");
    expect(metaContent(html, "og:image:alt")).not.toBe("");
    expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
    expect(metaContent(html, "twitter:title")).toBe(metaContent(html, "og:title"));
    expect(metaContent(html, "twitter:description")).toBe(metaContent(html, "description"));
    expect(metaContent(html, "twitter:image")).toBe(`${PUBLIC_URL}/og-image.png`);
    expect(metaContent(html, "twitter:image:alt")).toBe(metaContent(html, "og:image:alt"));
  });

  it("serves the social card image, 1200×630", async () => {
    const response = await fetch(`${site.server.url}${new URL(metaContent(html, "og:image")).pathname}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^image\/(png|jpeg)/);
    const png = Buffer.from(await response.arrayBuffer());
    // The PNG header's IHDR chunk: width and height, big-endian.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it("describes the company as a local business in JSON-LD built from its configuration", () => {
    const data = jsonLdOf(html);
    expect(data["@context"]).toBe("https://schema.org");
    expect(data["@type"]).toBe("RealEstateAgent");
    expect(data.name).toBe(COMPANY.COMPANY_NAME);
    expect(data.url).toBe(`${PUBLIC_URL}/`);
    expect(data.telephone).toBe(COMPANY.COMPANY_PHONE);
    expect(data.email).toBe(COMPANY.COMPANY_EMAIL);
    expect(data.logo).toBe(`${PUBLIC_URL}/logo.svg`);
    expect(data.image).toBe(`${PUBLIC_URL}/og-image.png`);
    expect(data.priceRange).toBe("£80–£120");
    expect(data.address).toEqual({
      "@type": "PostalAddress",
      streetAddress: "22 Deansgate",
      addressLocality: "Manchester",
      postalCode: "M3 2BW",
      addressCountry: "GB",
    });
    const hours = data.openingHoursSpecification.map(({ "@type": type, dayOfWeek, opens, closes }) => ({
      type,
      days: dayOfWeek.map((day) => day.replace("https://schema.org/", "")),
      opens,
      closes,
    }));
    // SPEC §9: Mon-Fri 9:00-18:00, Sat 10:00-16:00, Sun closed.
    expect(hours).toEqual([
      { type: "OpeningHoursSpecification", days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], opens: "09:00", closes: "18:00" },
      { type: "OpeningHoursSpecification", days: ["Saturday"], opens: "10:00", closes: "16:00" },
    ]);
  });

  it("keeps a '<' in the company name from closing the JSON-LD script, which carries the CSP nonce", () => {
    const [, attributes, script] = /<script\b([^>]*type="application\/ld\+json"[^>]*)>([\s\S]*?)<\/script>/i.exec(html)!;
    expect(script).not.toContain("<");
    const nonce = /'nonce-([^']+)'/.exec(cspHeader)?.[1];
    expect(nonce, "a nonce in the CSP header").toBeTruthy();
    expect(attributes).toContain(`nonce="${nonce}"`);
    expect(jsonLdOf(html).name).toBe(COMPANY.COMPANY_NAME);
  });

  it("answers robots.txt: everything but the admin, and where the sitemap is", async () => {
    const { response, text } = await getText(`${site.server.url}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    const lines = text.split("\n").map((line) => line.trim());
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Disallow: /admin");
    expect(lines).toContain("Disallow: /api/");
    expect(lines).not.toContain("Disallow: /");
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it("answers sitemap.xml, well-formed, listing the canonical URL", async () => {
    const { response, text } = await getText(`${site.server.url}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
    expectWellFormedXml(text);
    expect(text).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect([...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map(([, loc]) => decodeEntities(loc!))).toEqual([
      canonicalOf(html),
      new URL("/valuation", canonicalOf(html)).href,
    ]);
  });

  it("answers a web manifest named after the company, whose icons all load", async () => {
    expect(
      tags(html, "link")
        .filter((tag) => tag.rel === "manifest")
        .map((tag) => tag.href),
    ).toEqual(["/site.webmanifest"]);
    expect(metaContent(html, "theme-color")).toMatch(/^#[\da-f]{6}$/i);
    const response = await fetch(`${site.server.url}/site.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(manifest).toMatchObject({ name: COMPANY.COMPANY_NAME, short_name: "Acme", start_url: "/", display: "browser" });
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    for (const icon of manifest.icons) {
      const answer = await fetch(new URL(icon.src, `${site.server.url}/`));
      expect(answer.status, icon.src).toBe(200);
      expect(answer.headers.get("content-type")).toContain(icon.type);
    }
  });

  it("links the favicon and icons from every page", async () => {
    const links = tags(html, "link");
    const hrefs = links.filter((tag) => /\bicon\b/.test(tag.rel ?? "")).map((tag) => tag.href!);
    expect(hrefs).toEqual(expect.arrayContaining(["/favicon.svg", "/icon-192.png", "/apple-touch-icon.png"]));
    for (const href of hrefs) expect((await fetch(`${site.server.url}${href}`)).status, href).toBe(200);
  });

  it("keeps the admin out of search results and social cards", async () => {
    const response = await fetch(`${site.server.url}/admin`);
    const admin = await response.text();
    expect(response.headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(tags(admin, "meta").some((tag) => tag.name === "robots" && /noindex/.test(tag.content ?? ""))).toBe(true);
    expect(tags(admin, "meta").filter((tag) => tag.property?.startsWith("og:"))).toEqual([]);
    expect(admin).not.toContain("application/ld+json");
  });
});

describe("SEO without PUBLIC_URL", () => {
  const site = useSite(sqlite, { signedIn: false, env: { TRUST_PROXY: "loopback" } });

  it("uses the address the request came to, absolute", async () => {
    const { text: html } = await getText(`${site.server.url}/`);
    expect(canonicalOf(html)).toBe(`${site.server.url}/`);
    expect(metaContent(html, "og:url")).toBe(`${site.server.url}/`);
    expect(metaContent(html, "og:image")).toBe(`${site.server.url}/og-image.png`);
    expect(jsonLdOf(html).url).toBe(`${site.server.url}/`);
    const { text: robots } = await getText(`${site.server.url}/robots.txt`);
    expect(robots).toContain(`Sitemap: ${site.server.url}/sitemap.xml`);
    const { text: sitemap } = await getText(`${site.server.url}/sitemap.xml`);
    expect(sitemap).toContain(`<loc>${site.server.url}/</loc>`);
  });

  it("uses the scheme a trusted proxy forwards, and the host it passes on", async () => {
    // As nginx's `proxy_set_header Host $host` plus X-Forwarded-Proto.
    const headers = { host: "lettings.example", "x-forwarded-proto": "https" };
    const page = await rawRequest(site.server.port, { method: "GET", path: "/", headers });
    expect(page.status).toBe(200);
    expect(canonicalOf(page.text)).toBe("https://lettings.example/");
    expect(metaContent(page.text, "og:image")).toBe("https://lettings.example/og-image.png");
    // The document cache keeps one copy per origin: the direct address is unchanged.
    const { text: direct } = await getText(`${site.server.url}/`);
    expect(canonicalOf(direct)).toBe(`${site.server.url}/`);
    const sitemap = await rawRequest(site.server.port, { method: "GET", path: "/sitemap.xml", headers });
    expect(sitemap.text).toContain("<loc>https://lettings.example/</loc>");
  });

  it("lets no shared cache keep robots.txt or sitemap.xml, since the request chose the address in them", async () => {
    for (const path of ["/robots.txt", "/sitemap.xml"]) {
      const forged = await rawRequest(site.server.port, { method: "GET", path, headers: { host: "localhost", "x-forwarded-host": "evil.example" } });
      expect(forged.text, path).toContain("evil.example");
      expect(forged.headers["cache-control"], path).toBe("private, max-age=3600");
    }
  });

  it("describes the placeholder company's address with its postcode", async () => {
    const { text: html } = await getText(`${site.server.url}/`);
    expect(jsonLdOf(html).address).toEqual({
      "@type": "PostalAddress",
      streetAddress: "1 Example Street",
      addressLocality: "London",
      postalCode: "EC1A 1AA",
      addressCountry: "GB",
    });
  });
});
