import { readdir } from "node:fs/promises";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";

/**
 * Image files as an admin (or an attacker) might upload them, and ways to
 * look inside what the server stored.
 */

/** A JPEG of the given size: the left half red, the right half blue (so a turn shows). */
export function twoToneJpeg(width = 320, height = 200): Promise<Buffer> {
  return twoTone(width, height).jpeg({ quality: 90 }).toBuffer();
}

export function twoTonePng(width = 64, height = 48): Promise<Buffer> {
  return twoTone(width, height).png().toBuffer();
}

function twoTone(width: number, height: number) {
  const half = Math.floor(width / 2);
  return sharp({ create: { width, height, channels: 3, background: { r: 255, g: 0, b: 0 } } }).composite([
    { input: { create: { width: width - half, height, channels: 3, background: { r: 0, g: 0, b: 255 } } }, left: half, top: 0 },
  ]);
}

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Secret Photographer</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`;

/**
 * A phone photo: 300×200 as stored, EXIF orientation 6 (shown turned a
 * quarter clockwise, so 200×300 upright), a camera make, a GPS position, XMP
 * and a Display P3 ICC profile.
 */
export function phonePhotoJpeg(): Promise<Buffer> {
  return twoTone(300, 200)
    .jpeg({ quality: 90 })
    .withIccProfile("p3")
    .withXmp(XMP)
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "Test", Model: "Phone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 1234/100", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 3900/100" },
    })
    .toBuffer();
}

/** True when the EXIF block (as sharp's metadata().exif gives it) has a GPS IFD (tag 0x8825 in IFD0). */
export function exifHasGps(exif: Buffer): boolean {
  const tiff = exif.subarray(exif.subarray(0, 6).toString("latin1") === "Exif\0\0" ? 6 : 0);
  const little = tiff.subarray(0, 2).toString("latin1") === "II";
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  const ifd0 = u32(4);
  const entries = u16(ifd0);
  for (let index = 0; index < entries; index++) {
    if (u16(ifd0 + 2 + index * 12) === 0x8825) return true;
  }
  return false;
}

/** The colour (r, g, b) of one pixel of an encoded image. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
}

/** A ZIP archive with one stored (uncompressed) file. */
export function zipArchive(name = "payload.txt", content = "zip payload: not an image"): Buffer {
  const fileName = Buffer.from(name);
  const data = Buffer.from(content);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(0, 6); // flags
  local.writeUInt16LE(0, 8); // stored
  local.writeUInt32LE(0, 10); // time, date
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  local.writeUInt16LE(0, 28);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(0, 8);
  central.writeUInt16LE(0, 10);
  central.writeUInt32LE(0, 12);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  central.writeUInt32LE(0, 30); // extra, comment lengths
  central.writeUInt32LE(0, 34); // disk, internal attributes
  central.writeUInt32LE(0, 38); // external attributes
  central.writeUInt32LE(0, 42); // offset of the local header
  const localPart = Buffer.concat([local, fileName, data]);
  const centralPart = Buffer.concat([central, fileName]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(centralPart.length, 12);
  end.writeUInt32LE(localPart.length, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([localPart, centralPart, end]);
}

export const ZIP_LOCAL_HEADER = Buffer.from("PK\x03\x04", "latin1");
export const ZIP_END = Buffer.from("PK\x05\x06", "latin1");

/** Every file name in a folder (none when it does not exist), hidden ones included. */
export async function filesIn(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** A multipart/form-data body, byte for byte, for requests fetch will not make (no Content-Length, a lie in it). */
export function multipartBody(
  parts: Array<{ name: string; value: string } | { name: string; filename: string; type: string; data: Buffer }>,
  boundary = `----pm-test-${Math.random().toString(16).slice(2)}`,
): { contentType: string; body: Buffer } {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    if ("data" in part) {
      pieces.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`),
        part.data,
        Buffer.from("\r\n"),
      );
    } else {
      pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    }
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(pieces) };
}

/** Resident memory of a process, in bytes (Linux). */
export async function residentBytes(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!kb) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb[1]) * 1024;
}

/** Runs `work` while sampling a process's RSS every 10 ms; returns its result and how far RSS rose above where it began. */
export async function withRssGrowth<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; grewBy: number; from: number; to: number }> {
  const baseline = await residentBytes(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    residentBytes(pid).then(
      (bytes) => (peak = Math.max(peak, bytes)),
      () => undefined,
    );
  }, 10);
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, await residentBytes(pid));
  return { result, grewBy: peak - baseline, from: baseline, to: peak };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid, all-black, 1-bit greyscale PNG: a huge number of pixels in a few
 * kilobytes (12000×10000 is 120 megapixels in about 15 KB).
 */
export function blackBilevelPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8))); // filter 0, black pixels
  return Buffer.concat([
    Buffer.from("\x89PNG\r\n\x1a\n", "latin1"),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
