import { describe, expect, it } from "vitest";
import { assertSameOrigin, isSameOriginRequest } from "./require-admin.server";

const post = (headers: Record<string, string>, url = "https://site.example/admin") => new Request(url, { method: "POST", headers });

describe("the cross-site check of state-changing requests", () => {
  it.each([
    ["our own origin", { origin: "https://site.example" }],
    ["our host over another scheme (TLS ended at a proxy)", { origin: "http://site.example" }],
    ["no Origin, Sec-Fetch-Site same-origin", { "sec-fetch-site": "same-origin" }],
    ["no Origin, Sec-Fetch-Site none (typed in, bookmark)", { "sec-fetch-site": "none" }],
    ["neither header (curl, scripts)", {}],
  ])("lets through %s", (_, headers) => {
    expect(isSameOriginRequest(post(headers))).toBe(true);
    expect(() => assertSameOrigin(post(headers))).not.toThrow();
  });

  it.each([
    ["another site", { origin: "https://evil.example" }],
    ["a subdomain", { origin: "https://admin.site.example" }],
    ["another port", { origin: "https://site.example:8443" }],
    ["Origin: null", { origin: "null" }],
    ["a malformed Origin", { origin: "not a url" }],
    ["Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site same-site", { "sec-fetch-site": "same-site" }],
    ["a foreign Origin even with Sec-Fetch-Site same-origin", { origin: "https://evil.example", "sec-fetch-site": "same-origin" }],
  ])("refuses %s with 403", (_, headers) => {
    expect(isSameOriginRequest(post(headers))).toBe(false);
    let thrown: unknown;
    try {
      assertSameOrigin(post(headers));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });

  it("answers 403 JSON on /api/ paths", async () => {
    let thrown: unknown;
    try {
      assertSameOrigin(post({ origin: "https://evil.example" }, "https://site.example/api/admin/enquiries"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(403);
    expect(await (thrown as Response).json()).toEqual({ error: "Cross-site request refused." });
  });

  it("never refuses a read", () => {
    const get = new Request("https://site.example/admin", { headers: { origin: "https://evil.example" } });
    expect(() => assertSameOrigin(get)).not.toThrow();
  });
});
