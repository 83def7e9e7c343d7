import { createHash } from "node:crypto";
import { constants, crc32, deflateRawSync, gzipSync } from "node:zlib";
import Negotiator from "negotiator";

/** True when an Accept-Encoding header allows gzip (and does not refuse it with q=0), as `negotiator` reads it. */
export function acceptsGzip(header: string | null | undefined): boolean {
  if (!header) return false;
  return new Negotiator({ headers: { "accept-encoding": header } }).encodings(["gzip"]).includes("gzip");
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
 * A text with per-response holes (the CSP nonce, the form token) whose gzip
 * form is built without compressing it again: the parts between holes are
 * compressed once, each ending on a byte boundary, and each response joins
 * them with its hole values as stored (uncompressed) blocks plus a CRC-32
 * trailer computed from the parts' CRCs and the values', so the text is not
 * read again either.
 */
export class SplicedText {
  private readonly parts: Buffer[];
  /** Which hole follows each part but the last. */
  private readonly holeAfter: number[];
  private readonly compressedParts: Buffer[];
  private readonly partCrcs: number[];
  /** Per combination of value lengths: see crcPlan(). */
  private readonly crcPlans = new Map<string, CrcPlan>();

  /** `holes`: distinct placeholders, none a part of another; a text may hold each any number of times. */
  constructor(text: string, holes: readonly string[]) {
    if (holes.length === 0 || holes.includes("")) throw new Error("SplicedText needs at least one non-empty hole");
    this.parts = [];
    this.holeAfter = [];
    const pattern = new RegExp(holes.map((hole) => hole.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
    let from = 0;
    for (const match of text.matchAll(pattern)) {
      this.parts.push(Buffer.from(text.slice(from, match.index)));
      this.holeAfter.push(holes.indexOf(match[0]));
      from = match.index + match[0].length;
    }
    this.parts.push(Buffer.from(text.slice(from)));
    this.compressedParts = this.parts.map((part) => deflateRawSync(part, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }));
    this.partCrcs = this.parts.map((part) => crc32(part));
  }

  /**
   * crc(piece₀ ‖ … ‖ pieceₙ) = xor over k of crc(pieceₖ)·x^(8·bytes after pieceₖ).
   * With the values' lengths known, the parts' terms add up to a constant, and
   * the terms of one value's every place to crc(value) times one factor.
   */
  private crcPlan(lengths: readonly number[]): CrcPlan {
    const key = lengths.join(",");
    let plan = this.crcPlans.get(key);
    if (plan) return plan;
    let constant = 0;
    const factors = lengths.map(() => 0);
    let after = 0;
    for (let i = this.parts.length - 1; i >= 0; i--) {
      constant ^= multiplyModP(crcShift(after), this.partCrcs[i]!);
      after += this.parts[i]!.length;
      if (i === 0) break;
      const hole = this.holeAfter[i - 1]!;
      factors[hole] = factors[hole]! ^ crcShift(after);
      after += lengths[hole]!;
    }
    plan = { constant, factors };
    // Values of one hole have one length in practice (a nonce, a token); bound the odd case.
    if (this.crcPlans.size >= 8) this.crcPlans.clear();
    this.crcPlans.set(key, plan);
    return plan;
  }

  /** The text with `values[i]` in every place of `holes[i]`. */
  identity(values: readonly string[]): Buffer {
    const fillers = values.map((value) => Buffer.from(value));
    const chunks: Buffer[] = [this.parts[0]!];
    this.holeAfter.forEach((hole, i) => {
      chunks.push(fillers[hole]!, this.parts[i + 1]!);
    });
    return Buffer.concat(chunks);
  }

  /** identity(values), gzip-encoded. */
  gzip(values: readonly string[]): Buffer {
    const fillers = values.map((value) => {
      const filler = Buffer.from(value);
      if (filler.length > 0xffff) throw new Error("A spliced value must be shorter than 64 KB");
      const stored = Buffer.alloc(5 + filler.length);
      stored.writeUInt16LE(filler.length, 1);
      stored.writeUInt16LE(~filler.length & 0xffff, 3);
      filler.copy(stored, 5);
      return { stored, filler };
    });
    const plan = this.crcPlan(fillers.map(({ filler }) => filler.length));
    let crc = plan.constant;
    fillers.forEach(({ filler }, hole) => {
      crc ^= multiplyModP(plan.factors[hole]!, crc32(filler));
    });

    const chunks: Buffer[] = [GZIP_HEADER, this.compressedParts[0]!];
    let size = this.parts[0]!.length;
    this.holeAfter.forEach((hole, i) => {
      chunks.push(fillers[hole]!.stored, this.compressedParts[i + 1]!);
      size += fillers[hole]!.filler.length + this.parts[i + 1]!.length;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size >>> 0, 4);
    chunks.push(FINAL_BLOCK, trailer);
    return Buffer.concat(chunks);
  }
}

type CrcPlan = { constant: number; factors: number[] };

// CRC-32 of a concatenation from the CRCs of its pieces, as zlib's
// crc32_combine does (Node does not expose it): crc(A‖B) =
// crc(A)·x^(8·|B|) mod P xor crc(B), in GF(2) with the reflected polynomial.
const CRC_POLYNOMIAL = 0xedb88320;

/** a(x)·b(x) modulo the CRC-32 polynomial (bit-reflected, as CRCs are). */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if (a & bit) product ^= b;
    b = b & 1 ? (b >>> 1) ^ CRC_POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) mod P for k = 0…31. */
const X_TO_2_TO_THE: number[] = [];
for (let k = 0, power = 0x40000000; k < 32; k++, power = multiplyModP(power, power)) X_TO_2_TO_THE.push(power);

/** x^(8·bytes) mod P: what a CRC is multiplied by when `bytes` more bytes follow. */
function crcShift(bytes: number): number {
  let result = 0x80000000;
  for (let k = 3, n = bytes; n > 0; k++, n = Math.floor(n / 2)) {
    if (n % 2 === 1) result = multiplyModP(X_TO_2_TO_THE[k % 32]!, result);
  }
  return result;
}
