import { randomBytes } from "node:crypto";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { SplicedText, acceptedEncodings, acceptsGzip, precompress } from "./compression.server";

/** The pieces of a body, joined; their count must be what they add up to. */
function bodyOf(encoded: { pieces: Buffer[]; length: number } | undefined): Buffer {
  expect(encoded).toBeDefined();
  const body = Buffer.concat(encoded!.pieces);
  expect(body.length).toBe(encoded!.length);
  return body;
}

describe("SplicedText", () => {
  const hole = "HOLE";
  const texts = [
    "no holes at all",
    "HOLE at the start and at the end HOLE",
    `<script nonce="HOLE">a</script>${"<p>repeated text</p>".repeat(2000)}<script nonce="HOLE">b</script>`,
    "unicode £ 🏠 — HOLE — ünïcödé",
    "HOLEHOLE",
    "aHOLEbHOLE",
    "",
  ];
  /** Values of one length, as the nonce and the token are: plain, odd, the placeholder's own letters, multi-byte. */
  const values = ["abc+/==", "HOLEHOL", "\u0000\u0001\"<>&'", "£🏠."];

  it.each(texts)("gunzips and Brotli-decodes to the text with every hole filled: %s", async (text) => {
    const spliced = await SplicedText.prepare(text, [hole], ["x".repeat(7)]);
    await spliced.brotliReady;
    for (const value of values) {
      const expected = text.replaceAll(hole, value);
      expect(gunzipSync(bodyOf(spliced.encode("gzip", [value]))).toString("utf8")).toBe(expected);
      expect(brotliDecompressSync(bodyOf(spliced.encode("br", [value]))).toString("utf8")).toBe(expected);
      expect(spliced.identity([value]).toString("utf8")).toBe(expected);
    }
  });

  it("fills several holes, each with its own value, in any order and number", async () => {
    const text = `<meta nonce="{N1}"><input value="{T2}">${"<li>same</li>".repeat(3000)}{T2} {N1}{N1} £ {T2}`;
    const spliced = await SplicedText.prepare(text, ["{N1}", "{T2}"], ["n".repeat(24), "t".repeat(54)]);
    await spliced.brotliReady;
    for (let i = 0; i < 20; i++) {
      const nonce = randomBytes(16).toString("base64");
      const token = `1700000000.${randomBytes(32).toString("base64url")}`;
      const expected = text.replaceAll("{N1}", nonce).replaceAll("{T2}", token);
      expect(gunzipSync(bodyOf(spliced.encode("gzip", [nonce, token]))).toString("utf8")).toBe(expected);
      expect(brotliDecompressSync(bodyOf(spliced.encode("br", [nonce, token]))).toString("utf8")).toBe(expected);
    }
  });

  it("answers nothing compressed for a value of another length than the one it was made for", async () => {
    const spliced = await SplicedText.prepare("<p>HOLE</p>", [hole], ["abc"]);
    await spliced.brotliReady;
    expect(spliced.encode("gzip", ["abcd"])).toBeUndefined();
    expect(spliced.encode("br", ["ab"])).toBeUndefined();
    expect(spliced.identity(["abcd"]).toString()).toBe("<p>abcd</p>");
  });

  it("treats placeholders as plain text, not patterns", async () => {
    const spliced = await SplicedText.prepare("a.b a+b a.b", ["a.b"], ["X"]);
    expect(spliced.identity(["X"]).toString()).toBe("X a+b X");
  });

  it("compresses a page with holes about as well as the whole page compressed in one go", async () => {
    const cards = Array.from({ length: 2000 }, (_, i) => `<div class="card" id="c${i}"><h3>Card ${i % 17}</h3><p>Flat ${i} in the street</p></div>`);
    const text = cards.map((card, i) => (i % 400 === 0 ? `<script nonce="HOLE">go(${i})</script>${card}` : card)).join("\n");
    const spliced = await SplicedText.prepare(text, [hole], ["x".repeat(24)]);
    await spliced.brotliReady;
    const nonce = randomBytes(18).toString("base64");
    const filled = text.replaceAll(hole, nonce);
    expect(bodyOf(spliced.encode("gzip", [nonce])).length).toBeLessThan(gzipSync(filled, { level: 9 }).length * 1.1);
    expect(bodyOf(spliced.encode("br", [nonce])).length).toBeLessThan(brotliCompressSync(filled).length * 1.1);
  });

  it("refuses a value too long for one stored block", async () => {
    await expect(SplicedText.prepare("aHOLEb", [hole], ["x".repeat(70_000)])).rejects.toThrow(/64 KB/);
  });
});

describe("acceptedEncodings", () => {
  it.each([
    ["gzip, deflate, br, zstd", ["br", "gzip"]],
    ["gzip, deflate", ["gzip"]],
    ["br;q=0.5, gzip", ["gzip", "br"]],
    ["br;q=0, gzip;q=0", []],
    ["*", ["br", "gzip"]],
    ["identity", []],
    ["", []],
    [undefined, []],
  ] as const)("%s → %j", (header, expected) => {
    expect(acceptedEncodings(header)).toEqual(expected);
    // The second time from what it remembered.
    expect(acceptedEncodings(header)).toEqual(expected);
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
