import { createHash } from "node:crypto";
import { constants, crc32, deflateRawSync, gzipSync } from "node:zlib";

/** True when an Accept-Encoding header allows gzip (and does not refuse it with q=0). */
export function acceptsGzip(header: string | null | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** A body compressed once, for as long as it does not change. */
export type Precompressed = { text: string; identity: Buffer; gzip: Buffer; etag: string };

export function precompress(text: string): Precompressed {
  const identity = Buffer.from(text);
  const etag = `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`;
  return { text, identity, gzip: gzipSync(identity, { level: 9 }), etag };
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final deflate block (fixed Huffman): ends the stream. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/**
 * A text with per-response holes (the CSP nonce) whose gzip form is built
 * without compressing it again: the parts between holes are compressed once,
 * each ending on a byte boundary, and each response joins them with its hole
 * values as stored (uncompressed) blocks plus a fresh CRC-32 trailer.
 */
export class SplicedText {
  private readonly parts: Buffer[];
  private readonly compressedParts: Buffer[];

  constructor(text: string, hole: string) {
    this.parts = text.split(hole).map((part) => Buffer.from(part));
    this.compressedParts = this.parts.map((part) =>
      deflateRawSync(part, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }),
    );
  }

  identity(value: string): Buffer {
    const filler = Buffer.from(value);
    return Buffer.concat(this.parts.flatMap((part, i) => (i === 0 ? [part] : [filler, part])));
  }

  gzip(value: string): Buffer {
    const filler = Buffer.from(value);
    if (filler.length > 0xffff) throw new Error("A spliced value must be shorter than 64 KB");
    const stored = Buffer.alloc(5 + filler.length);
    stored.writeUInt16LE(filler.length, 1);
    stored.writeUInt16LE(~filler.length & 0xffff, 3);
    filler.copy(stored, 5);

    const chunks: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let size = 0;
    this.parts.forEach((part, i) => {
      if (i > 0) {
        chunks.push(stored);
        crc = crc32(filler, crc);
        size += filler.length;
      }
      chunks.push(this.compressedParts[i]!);
      crc = crc32(part, crc);
      size += part.length;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size >>> 0, 4);
    chunks.push(FINAL_BLOCK, trailer);
    return Buffer.concat(chunks);
  }
}
