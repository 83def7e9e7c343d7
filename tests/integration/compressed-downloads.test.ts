/**
 * A long streamed response (the inbox's CSV of thousands of enquiries) sent
 * compressed: the same bytes as uncompressed, and no listener left behind for
 * each time the compressor's buffer filled (the compression middleware's
 * `res.on` forwards "drain" to its stream, but `off` and `once`'s own removal
 * reach the response: decision 074).
 */
import { randomUUID } from "node:crypto";
import { get } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { CSV_BATCH_SIZE } from "~/enquiries/csv";
import { backends } from "../support/backends";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

beforeAll(() => assertBuilt());

describe.each(backends)("a compressed streamed download on $name", (backend) => {
  const site = useSite(backend);

  beforeAll(async () => {
    const start = Date.UTC(2025, 0, 1);
    // A dozen of the export's batches, each one write of the response.
    const rows = Array.from({ length: 12 * CSV_BATCH_SIZE + 1 }, (_, i) => ({
      id: randomUUID(),
      name: `Sender ${i}`,
      email: `sender${i}@example.net`,
      phone: null,
      user_type: "landlord" as const,
      message: `Message ${randomUUID()}`,
      is_read: false,
      created_at: new Date(start + i * 60_000).toISOString(),
      spam_reason: null,
    }));
    for (let at = 0; at < rows.length; at += 500)
      await site.db
        .insertInto("contact_submissions")
        .values(rows.slice(at, at + 500))
        .execute();
  });

  /** The file as a slow client takes it, a piece at a time: the server's buffers fill and it waits for them to drain. */
  function downloadSlowly(encoding: string): Promise<{ encoding: string | undefined; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const request = get(new URL("/admin/enquiries.csv", site.server.url), { headers: { cookie: site.cookie, "accept-encoding": encoding } }, (response) => {
        const pieces: Buffer[] = [];
        response.on("data", (piece: Buffer) => {
          pieces.push(piece);
          response.pause();
          setTimeout(() => response.resume(), 2);
        });
        response.on("end", () => {
          const body = Buffer.concat(pieces);
          resolve({
            encoding: response.headers["content-encoding"],
            body: encoding === "gzip" ? gunzipSync(body) : encoding === "br" ? brotliDecompressSync(body) : body,
          });
        });
        response.on("error", reject);
      });
      request.on("error", reject);
    });
  }

  /** The file as fetch gives it: decompressed by fetch, whatever the server sent. */
  async function download(encoding: string): Promise<{ encoding: string | null; body: Buffer }> {
    const response = await fetch(`${site.server.url}/admin/enquiries.csv`, { headers: { cookie: site.cookie, "accept-encoding": encoding } });
    expect(response.status).toBe(200);
    return { encoding: response.headers.get("content-encoding"), body: Buffer.from(await response.arrayBuffer()) };
  }

  it("is the same file gzip, Brotli or plain, and the server warns of no leaked listener", async () => {
    const plain = await download("identity");
    expect(plain.encoding).toBeNull();
    expect(plain.body.length).toBeGreaterThan(2_000_000);
    for (const encoding of ["gzip", "br"]) {
      const compressed = await download(encoding);
      expect(compressed.encoding).toBe(encoding);
      expect(compressed.body.equals(plain.body), `${encoding}: the same bytes once decompressed`).toBe(true);
      const slowly = await downloadSlowly(encoding);
      expect(slowly.encoding).toBe(encoding);
      expect(slowly.body.equals(plain.body), `${encoding}, read slowly: the same bytes once decompressed`).toBe(true);
    }
    const output = site.server.stdout() + site.server.stderr();
    expect(output).not.toContain("MaxListenersExceededWarning");
  });
});
