import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { SplicedText, acceptsGzip, precompress } from "./compression.server";

describe("SplicedText", () => {
  const hole = "HOLE";
  const texts = [
    "no holes at all",
    "HOLE at the start and at the end HOLE",
    `<script nonce="HOLE">a</script>${"<p>repeated text</p>".repeat(2000)}<script nonce="HOLE">b</script>`,
    "unicode £ 🏠 — HOLE — ünïcödé",
    "HOLEHOLE",
    "",
  ];

  it.each(texts)("gunzips to the text with every hole filled: %s", (text) => {
    const spliced = new SplicedText(text, [hole]);
    for (const value of ["", "abc+/==", "n".repeat(1000), "£🏠"]) {
      const expected = text.replaceAll(hole, value);
      expect(gunzipSync(spliced.gzip([value])).toString("utf8")).toBe(expected);
      expect(spliced.identity([value]).toString("utf8")).toBe(expected);
    }
  });

  it("fills several holes, each with its own value, in any order and number", () => {
    const text = `<meta nonce="N1"><input value="T2">${"<li>same</li>".repeat(3000)}T2 N1N1 £ T2`;
    const spliced = new SplicedText(text, ["N1", "T2"]);
    for (const [nonce, token] of [["abc", "1700000000.xyz"], ["", "t"], ["🏠".repeat(300), ""]] as const) {
      const expected = text.replaceAll("N1", nonce).replaceAll("T2", token);
      expect(gunzipSync(spliced.gzip([nonce, token])).toString("utf8")).toBe(expected);
      expect(spliced.identity([nonce, token]).toString("utf8")).toBe(expected);
    }
  });

  it("treats placeholders as plain text, not patterns", () => {
    const spliced = new SplicedText("a.b a+b a.b", ["a.b"]);
    expect(spliced.identity(["X"]).toString()).toBe("X a+b X");
  });

  it("compresses a repetitive document far below its size", () => {
    const text = `<p nonce="HOLE">${"<div class=\"card\">Same card</div>".repeat(1000)}</p>`;
    const body = new SplicedText(text, [hole]).gzip(["x".repeat(24)]);
    expect(body.length).toBeLessThan(text.length / 10);
  });

  it("refuses a value too long for one stored block", () => {
    expect(() => new SplicedText("aHOLEb", [hole]).gzip(["x".repeat(70_000)])).toThrow(/64 KB/);
  });
});

describe("precompress", () => {
  it("keeps the text, its gzip and an ETag that changes with the text", () => {
    const a = precompress('[{"title":"A"}]');
    expect(gunzipSync(a.gzip).toString()).toBe(a.text);
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(precompress('[{"title":"A"}]').etag).toBe(a.etag);
    expect(precompress('[{"title":"B"}]').etag).not.toBe(a.etag);
  });
});

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    ["GZIP", true],
    ["identity", false],
    ["gzip;q=0", false],
    ["br", false],
    ["", false],
    [null, false],
  ])("%s → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
