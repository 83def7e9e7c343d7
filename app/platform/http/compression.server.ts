import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import {
  brotliDecompressSync,
  constants,
  crc32,
  createBrotliCompress,
  createDeflateRaw,
  gunzipSync,
  gzipSync,
  type BrotliCompress,
  type DeflateRaw,
} from "node:zlib";
import Negotiator from "negotiator";

/** True when an Accept-Encoding header allows gzip (and does not refuse it with q=0), as `negotiator` reads it. */
export function acceptsGzip(header: string | null | undefined): boolean {
  if (!header) return false;
  return new Negotiator({ headers: { "accept-encoding": header } }).encodings(["gzip"]).includes("gzip");
}

export type Encoding = "br" | "gzip";

/** Accept-Encoding headers seen, and what they allow: browsers send a handful of distinct ones. */
const allowed = new Map<string, readonly Encoding[]>();

/**
 * The compressed encodings a request that sent `header` takes, best first:
 * by the client's q-values (as `negotiator` reads them), Brotli before gzip
 * between equals; none, answer it uncompressed. Remembered per header text:
 * this runs on every request for a cached page.
 */
export function acceptedEncodings(header: string | null | undefined): readonly Encoding[] {
  if (!header) return [];
  let encodings = allowed.get(header);
  if (encodings === undefined) {
    const negotiator = new Negotiator({ headers: { "accept-encoding": header } });
    // negotiator ≥ 1.0 breaks ties in the server's order given as `preferred` (not in @types/negotiator).
    const encodingsOf = negotiator.encodings as (available: string[], options: { preferred: string[] }) => string[];
    encodings = encodingsOf.call(negotiator, ["br", "gzip"], { preferred: ["br", "gzip"] }) as Encoding[];
    if (allowed.size >= 64) allowed.clear();
    allowed.set(header, encodings);
  }
  return encodings;
}

/** A body compressed once, for as long as it does not change. */
export type Precompressed = { text: string; identity: Buffer; gzip: Buffer; etag: string };

export function precompress(text: string): Precompressed {
  const identity = Buffer.from(text);
  const etag = `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`;
  return { text, identity, gzip: gzipSync(identity, { level: 9 }), etag };
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** The most a hole's value (with the bytes after it) may take: one stored block, one uncompressed meta-block. */
const MAX_FILLER = 0xffff;
/** Placeholders made unique per place can collide with the text they sit in (rarely): this many tries. */
const COMPRESS_ATTEMPTS = 3;
/**
 * Bytes after each hole that go with its value. Brotli picks the code of a
 * literal by the two bytes before it: once the hole is filled, the text's
 * first literals after it must not depend on the value.
 */
const CONTEXT_BYTES = 2;

/** One way of compressing the text in blocks: the compressed pieces, and how a hole's bytes are framed. */
type Blocks = {
  /** Before the first hole; then after each hole (less its CONTEXT_BYTES); then the stream's end. */
  chunks: Buffer[];
  /** The header of an uncompressed block of `bytes` bytes, written into `into` at `at`: where it ends. */
  frame(into: Buffer, at: number, bytes: number): number;
  /** How long that header is. */
  frameBytes: number;
};

/**
 * A text with per-response holes (the CSP nonce, the form token) compressed
 * once, gzip and Brotli, each response's body then made without compressing
 * again: the text is compressed as one stream, flushed to a byte boundary
 * around each hole, and each hole's place, as the compressor wrote it, is
 * replaced by the response's value as an uncompressed block (a stored block
 * in deflate, an uncompressed meta-block in Brotli). The text after a hole
 * may refer back to the text before it, so one stream compresses as well as
 * compressing the whole page does.
 *
 * That holds while nothing after a hole refers to the hole's own bytes, and
 * while each value is as long as the one compressed for (back-references and
 * Brotli's dictionary count positions). So each place is compressed holding a
 * random placeholder of its own, and the result is checked once: filled with
 * values that differ from the placeholders in every byte, it must decompress
 * to the text with those values, or it is made again with other placeholders.
 * A value of another length is answered uncompressed (encode returns
 * undefined); the nonce and the token have fixed lengths.
 *
 * The gzip form is ready when `prepare` resolves; the Brotli form (quality 11,
 * slower) is made afterwards, in the background: `brotliReady`.
 */
export class SplicedText {
  /** The text between the holes (what the CRC-32 and the identity body are made of). */
  private readonly parts: Buffer[];
  /** Which hole follows each part but the last. */
  private readonly holeAfter: number[];
  /** The value lengths the compressed forms were made for, per hole. */
  private readonly lengths: number[];
  private readonly partCrcs: number[];
  private crcPlan: CrcPlan | undefined;
  private gzipBlocks: Blocks | undefined;
  private brotliBlocks: Blocks | undefined;
  /** Resolves once the Brotli form is made (or could not be: then encode("br") stays undefined). */
  brotliReady: Promise<void> = Promise.resolve();

  private constructor(text: string, holes: readonly string[], lengths: number[]) {
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
    this.lengths = lengths;
    this.partCrcs = this.parts.map((part) => crc32(part));
  }

  /**
   * `holes`: distinct placeholders, none a part of another; a text may hold
   * each any number of times. `samples`: a value of each hole, for the
   * lengths of the values to come.
   */
  static async prepare(text: string, holes: readonly string[], samples: readonly string[]): Promise<SplicedText> {
    const lengths = samples.map((sample) => Buffer.byteLength(sample));
    if (lengths.length !== holes.length) throw new Error("SplicedText needs a sample value for each hole");
    if (lengths.some((length) => length + CONTEXT_BYTES > MAX_FILLER)) throw new Error("A spliced value must be shorter than 64 KB");
    const spliced = new SplicedText(text, holes, lengths);
    // Without a compressed form (never seen: placeholders that kept colliding), the text goes uncompressed.
    spliced.gzipBlocks = await spliced.compressChecked(deflateBlocks).catch(() => undefined);
    spliced.brotliReady = spliced.compressChecked(brotliBlocks).then(
      (blocks) => {
        spliced.brotliBlocks = blocks;
      },
      () => undefined,
    );
    return spliced;
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

  /**
   * identity(values), compressed, as the pieces to send one after the other
   * (the compressed chunks, kept, and small pieces with each hole's value
   * framed), and their total length; undefined when that form is not ready or
   * the values' lengths are not the ones it was made for. Nothing as large as
   * the page is allocated per response: the socket writes the pieces
   * together (writev).
   */
  encode(encoding: Encoding, values: readonly string[]): { pieces: Buffer[]; length: number } | undefined {
    const blocks = encoding === "gzip" ? this.gzipBlocks : this.brotliBlocks;
    if (!blocks) return undefined;
    for (const hole of this.holeAfter) if (Buffer.byteLength(values[hole]!) !== this.lengths[hole]) return undefined;
    return this.piecesOf(blocks, values, encoding === "gzip");
  }

  private piecesOf(blocks: Blocks, values: readonly string[], gzip: boolean): { pieces: Buffer[]; length: number } {
    const { chunks, frameBytes } = blocks;
    const pieces: Buffer[] = gzip ? [GZIP_HEADER, chunks[0]!] : [chunks[0]!];
    let length = gzip ? GZIP_HEADER.length + chunks[0]!.length : chunks[0]!.length;
    this.holeAfter.forEach((hole, i) => {
      const after = this.parts[i + 1]!;
      const context = Math.min(CONTEXT_BYTES, after.length);
      const framed = this.lengths[hole]! + context;
      // Small: from Node's shared pool, not an allocation of its own.
      const filler = Buffer.allocUnsafe(frameBytes + framed);
      let at = blocks.frame(filler, 0, framed);
      at += filler.write(values[hole]!, at);
      after.copy(filler, at, 0, context);
      pieces.push(filler, chunks[i + 1]!);
      length += filler.length + chunks[i + 1]!.length;
    });
    pieces.push(chunks.at(-1)!);
    length += chunks.at(-1)!.length;
    if (gzip) {
      const trailer = Buffer.allocUnsafe(8);
      trailer.writeUInt32LE(this.crc(values) >>> 0, 0);
      trailer.writeUInt32LE(this.identityLength() >>> 0, 4);
      pieces.push(trailer);
      length += 8;
    }
    return { pieces, length };
  }

  private identityLength(): number {
    let size = 0;
    for (const part of this.parts) size += part.length;
    for (const hole of this.holeAfter) size += this.lengths[hole]!;
    return size;
  }

  /**
   * crc(piece₀ ‖ … ‖ pieceₙ) = xor over k of crc(pieceₖ)·x^(8·bytes after pieceₖ).
   * With the values' lengths fixed, the parts' terms add up to a constant, and
   * the terms of one value's every place to crc(value) times one factor.
   */
  private crc(values: readonly string[]): number {
    this.crcPlan ??= crcPlanOf(this.parts, this.partCrcs, this.holeAfter, this.lengths);
    let crc = this.crcPlan.constant;
    for (const [hole, value] of values.entries()) crc ^= multiplyModP(this.crcPlan.factors[hole]!, crc32(value));
    return crc;
  }

  /** Compresses with fresh placeholders until the result checks out, COMPRESS_ATTEMPTS times at most. */
  private async compressChecked(make: (pieces: Buffer[], totalBytes: number) => Promise<Blocks>): Promise<Blocks> {
    for (let attempt = 0; attempt < COMPRESS_ATTEMPTS; attempt++) {
      // The stream's pieces: the text before the first hole; then, per place, a placeholder of
      // its own with the bytes after it, and the rest of the text up to the next hole.
      const pieces: Buffer[] = [this.parts[0]!];
      const placeholders: Buffer[] = [];
      this.holeAfter.forEach((hole, i) => {
        const after = this.parts[i + 1]!;
        const placeholder = randomPlaceholder(this.lengths[hole]!);
        placeholders.push(placeholder);
        pieces.push(Buffer.concat([placeholder, after.subarray(0, CONTEXT_BYTES)]), after.subarray(CONTEXT_BYTES));
      });
      const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
      const blocks = await make(pieces, total);
      if (this.checks(blocks, placeholders)) return blocks;
    }
    throw new Error("The text could not be compressed with holes that stay apart");
  }

  /** Filled with values unlike every placeholder byte for byte, the blocks decompress to the text with those values. */
  private checks(blocks: Blocks, placeholders: readonly Buffer[]): boolean {
    const unlike = this.lengths.map((length, hole) => {
      const value = Buffer.alloc(length);
      // Every place of this hole had its own placeholder: differ from each of them.
      const places = placeholders.filter((_, i) => this.holeAfter[i] === hole);
      for (let k = 0; k < length; k++) {
        let byte = 0x41;
        while (places.some((placeholder) => placeholder[k] === byte)) byte++;
        value[k] = byte;
      }
      return value;
    });
    const gzip = blocks.frame === frameStored;
    const values = unlike.map((value) => value.toString("latin1"));
    try {
      const body = Buffer.concat(this.piecesOf(blocks, values, gzip).pieces);
      return (gzip ? gunzipSync(body) : brotliDecompressSync(body)).equals(this.identity(values));
    } catch {
      return false;
    }
  }
}

/** Random bytes of one place's placeholder, from an alphabet that cannot start a multi-byte character. */
function randomPlaceholder(length: number): Buffer {
  const bytes = randomBytes(length);
  for (let i = 0; i < length; i++) bytes[i] = 0x21 + (bytes[i]! % 94);
  return bytes;
}

/** Compresses the pieces as one stream, flushed after each: the chunks between the flushes. */
async function inBlocks(stream: DeflateRaw | BrotliCompress, pieces: Buffer[], flushKind: number): Promise<Buffer[]> {
  const output: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => output.push(chunk));
  const chunks: Buffer[] = [];
  const cut = () => {
    chunks.push(Buffer.concat(output));
    output.length = 0;
  };
  for (const piece of pieces) {
    if (piece.length > 0) stream.write(piece);
    await new Promise<void>((resolve) => stream.flush(flushKind, () => resolve()));
    cut();
  }
  stream.end();
  await once(stream, "end");
  cut();
  return chunks;
}

/** Drops the chunks that held the placeholders (every other one, from the second): their places are filled per response. */
const withoutPlaceholders = (chunks: Buffer[]): Buffer[] => chunks.filter((_, i) => i === 0 || i % 2 === 0 || i === chunks.length - 1);

/** A stored deflate block (not the last) of `bytes` bytes: its header (BFINAL 0, BTYPE 00, LEN, NLEN), from a byte boundary. */
function frameStored(into: Buffer, at: number, bytes: number): number {
  into[at] = 0;
  into.writeUInt16LE(bytes, at + 1);
  return into.writeUInt16LE(~bytes & 0xffff, at + 3);
}

async function deflateBlocks(pieces: Buffer[]): Promise<Blocks> {
  const chunks = await inBlocks(createDeflateRaw({ level: 9, memLevel: 9 }), pieces, constants.Z_SYNC_FLUSH);
  return { chunks: withoutPlaceholders(chunks), frame: frameStored, frameBytes: 5 };
}

/**
 * An uncompressed Brotli meta-block (RFC 7932 §9.2) of `bytes` bytes (1 to
 * 65,536), from a byte boundary: ISLAST 0, MNIBBLES 4, MLEN − 1 in 16 bits,
 * ISUNCOMPRESSED 1, padding to the byte.
 */
function frameUncompressed(into: Buffer, at: number, bytes: number): number {
  const bits = ((bytes - 1) << 3) | (1 << 19);
  into[at] = bits & 0xff;
  into[at + 1] = (bits >>> 8) & 0xff;
  into[at + 2] = (bits >>> 16) & 0xff;
  return at + 3;
}

async function brotliBlocks(pieces: Buffer[], totalBytes: number): Promise<Blocks> {
  const stream = createBrotliCompress({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      // A window just large enough for the page: the compressor's memory follows it.
      [constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(totalBytes + 16)))),
      [constants.BROTLI_PARAM_SIZE_HINT]: totalBytes,
    },
  });
  const chunks = await inBlocks(stream, pieces, constants.BROTLI_OPERATION_FLUSH);
  return { chunks: withoutPlaceholders(chunks), frame: frameUncompressed, frameBytes: 3 };
}

type CrcPlan = { constant: number; factors: number[] };

function crcPlanOf(parts: readonly Buffer[], partCrcs: readonly number[], holeAfter: readonly number[], lengths: readonly number[]): CrcPlan {
  let constant = 0;
  const factors = lengths.map(() => 0);
  let after = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    constant ^= multiplyModP(crcShift(after), partCrcs[i]!);
    after += parts[i]!.length;
    if (i === 0) break;
    const hole = holeAfter[i - 1]!;
    factors[hole] = factors[hole]! ^ crcShift(after);
    after += lengths[hole]!;
  }
  return { constant, factors };
}

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
