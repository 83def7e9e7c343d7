/**
 * The upload case's test image: a 6000×4000 (24-megapixel) JPEG of about
 * 10 MB, as a phone takes it: EXIF orientation 6 (the camera was held upright,
 * so the stored landscape pixels must be turned to portrait), a Make/Model and
 * a GPS position.
 *
 * Content: a colour gradient with gaussian noise on every channel. A flat or
 * smooth picture compresses to far less than a real photo; noise brings it to
 * a photo's size, which is what decoding time depends on. The noise comes from
 * a fixed-seed generator, so one (sigma, quality) always gives the same file.
 * Sigma is searched (quality fixed) until the file is between 9.0 and 10.0 MiB,
 * strictly under the server's cap of 10,485,760 bytes.
 *
 * The file is cached in bench/results/ (git-ignored) under a name that holds
 * every parameter, with a small JSON beside it; a rerun reuses it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

export const UPLOAD_IMAGE = {
  width: 6000,
  height: 4000,
  quality: 80,
  orientation: 6,
  /** Size window, bytes: [9.0 MiB, 10.0 MiB); the server refuses 10,485,760 bytes or more. */
  minBytes: 9 * 1024 * 1024,
  maxBytes: 10 * 1024 * 1024 - 1,
  seed: 0x5eed_1234,
  /** Bump when the generator changes, so an old cached file is not reused. */
  version: 2,
} as const;

export type UploadImage = {
  file: string;
  bytes: number;
  width: number;
  height: number;
  quality: number;
  sigma: number;
  orientation: number;
  generatedInMs: number | null;
  cached: boolean;
};

/** Gradient + gaussian noise (sigma in 8-bit levels), RGB, deterministic. */
function pixels(width: number, height: number, sigma: number, seed: number): Buffer {
  // xorshift32, and a table of standard normal samples (Box–Muller) it indexes.
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  const TABLE = 1 << 16;
  const normal = new Float32Array(TABLE);
  for (let index = 0; index < TABLE; index += 2) {
    const u1 = (next() + 1) / 4294967297;
    const u2 = next() / 4294967296;
    const radius = Math.sqrt(-2 * Math.log(u1));
    normal[index] = radius * Math.cos(2 * Math.PI * u2);
    normal[index + 1] = radius * Math.sin(2 * Math.PI * u2);
  }
  const out = Buffer.allocUnsafe(width * height * 3);
  let offset = 0;
  for (let y = 0; y < height; y++) {
    const fy = y / (height - 1);
    for (let x = 0; x < width; x++) {
      const fx = x / (width - 1);
      const base = [40 + 180 * fx, 60 + 150 * fy, 200 - 140 * fx * fy];
      for (let channel = 0; channel < 3; channel++) {
        const value = base[channel]! + sigma * normal[next() & (TABLE - 1)]!;
        out[offset++] = Math.min(Math.max(value, 0), 255);
      }
    }
  }
  return out;
}

async function encode(sigma: number): Promise<Buffer> {
  const { width, height, quality, orientation, seed } = UPLOAD_IMAGE;
  return sharp(pixels(width, height, sigma, seed), { raw: { width, height, channels: 3 } })
    .jpeg({ quality, chromaSubsampling: "4:2:0" })
    .withMetadata({ orientation })
    .withExif({
      IFD0: { Make: "Bench", Model: "Phone" },
      // GPS, as a phone writes it: the server must not pass it on.
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 2600/100", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 3900/100" },
    })
    .toBuffer();
}

/** The test image, from the cache or generated (a few seconds: a bisection on sigma). */
export async function ensureUploadImage(directory: string, log: (message: string) => void = () => {}): Promise<UploadImage> {
  const { width, height, quality, orientation, minBytes, maxBytes, seed, version } = UPLOAD_IMAGE;
  const stem = `upload-${width}x${height}-q${quality}-o${orientation}-${(minBytes / 1048576).toFixed(1)}-${(maxBytes / 1048576).toFixed(1)}MiB-s${seed.toString(16)}-v${version}`;
  const file = path.join(directory, `${stem}.jpg`);
  const sidecar = path.join(directory, `${stem}.json`);
  if (existsSync(file) && existsSync(sidecar)) {
    try {
      const bytes = readFileSync(file);
      const meta = JSON.parse(readFileSync(sidecar, "utf8")) as { sigma?: unknown; bytes?: unknown };
      const info = await sharp(bytes).metadata();
      if (
        meta.bytes === bytes.length &&
        typeof meta.sigma === "number" &&
        bytes.length >= minBytes &&
        bytes.length <= maxBytes &&
        info.format === "jpeg" &&
        info.width === width &&
        info.height === height &&
        info.orientation === orientation
      ) {
        return { file, bytes: bytes.length, width, height, quality, sigma: meta.sigma, orientation, generatedInMs: null, cached: true };
      }
    } catch {
      // regenerate below
    }
  }

  const started = performance.now();
  mkdirSync(directory, { recursive: true });
  let low = 2;
  let high = 80;
  let sigma = 30;
  let found: Buffer | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = await encode(sigma);
    log(`sigma ${sigma.toFixed(2)}: ${candidate.length.toLocaleString("en-GB")} bytes`);
    if (candidate.length >= minBytes && candidate.length <= maxBytes) {
      found = candidate;
      break;
    }
    if (candidate.length < minBytes) low = sigma;
    else high = sigma;
    sigma = (low + high) / 2;
  }
  if (!found) throw new Error(`Could not make a ${width}×${height} JPEG between ${minBytes} and ${maxBytes} bytes at quality ${quality}`);
  const generatedInMs = Math.round(performance.now() - started);
  writeFileSync(`${file}.tmp`, found);
  renameSync(`${file}.tmp`, file);
  writeFileSync(sidecar, `${JSON.stringify({ width, height, quality, orientation, seed, version, sigma, bytes: found.length }, null, 2)}\n`);
  return { file, bytes: found.length, width, height, quality, sigma, orientation, generatedInMs, cached: false };
}
