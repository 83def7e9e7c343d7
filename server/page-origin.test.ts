import type { IncomingMessage } from "node:http";
import express from "express";
import { describe, expect, it } from "vitest";
import { pageOrigin, type TrustProxy } from "./page-origin";

/** Express's own compiled TRUST_PROXY, so the page cache is held to the rules Express applies. */
function trusting(setting: unknown): TrustProxy {
  return express().set("trust proxy", setting).get("trust proxy fn") as TrustProxy;
}

function request(peer: string, headers: Record<string, string | string[]>): IncomingMessage {
  return { headers, socket: { remoteAddress: peer } } as unknown as IncomingMessage;
}

const proxied = { host: "10.0.0.5:3000", "x-forwarded-proto": "https", "x-forwarded-host": "www.lettings.example" };

describe("the origin a cached page is rendered for", () => {
  it("is the Host header's without a trusted proxy, whatever forwarded headers say", () => {
    expect(pageOrigin(request("203.0.113.9", proxied), undefined, trusting(false))).toBe("http://10.0.0.5:3000");
    // A proxy is trusted by its address, not by what it sends.
    expect(pageOrigin(request("203.0.113.9", proxied), undefined, trusting("loopback"))).toBe("http://10.0.0.5:3000");
  });

  it("is the forwarded scheme and host behind a trusted proxy, the first value of each", () => {
    expect(pageOrigin(request("127.0.0.1", proxied), undefined, trusting("loopback"))).toBe("https://www.lettings.example");
    const chained = { ...proxied, "x-forwarded-proto": "https, http", "x-forwarded-host": "www.lettings.example, internal:8080" };
    expect(pageOrigin(request("::1", chained), undefined, trusting("loopback"))).toBe("https://www.lettings.example");
    // Only the scheme forwarded: the host is the Host header's (nginx's `proxy_set_header Host $host`).
    expect(pageOrigin(request("127.0.0.1", { host: "lettings.example", "x-forwarded-proto": "https" }), undefined, trusting("loopback"))).toBe(
      "https://lettings.example",
    );
  });

  it("is PUBLIC_URL whenever it is set", () => {
    expect(pageOrigin(request("127.0.0.1", proxied), "https://www.acme.example", trusting("loopback"))).toBe("https://www.acme.example");
    expect(pageOrigin(request("203.0.113.9", { host: "evil.example" }), "https://www.acme.example", trusting(false))).toBe("https://www.acme.example");
  });

  it("leaves to the full pipeline a host or scheme that is not plain", () => {
    const trust = trusting("loopback");
    expect(pageOrigin(request("127.0.0.1", {}), undefined, trust)).toBeUndefined();
    expect(pageOrigin(request("127.0.0.1", { host: "a b" }), undefined, trust)).toBeUndefined();
    expect(pageOrigin(request("127.0.0.1", { ...proxied, "x-forwarded-proto": "gopher" }), undefined, trust)).toBeUndefined();
    expect(pageOrigin(request("127.0.0.1", { ...proxied, "x-forwarded-host": "evil.example/path" }), undefined, trust)).toBeUndefined();
    expect(pageOrigin(request("127.0.0.1", { host: "a b" }), "https://www.acme.example", trust)).toBeUndefined();
  });
});
