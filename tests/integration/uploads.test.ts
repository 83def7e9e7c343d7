/**
 * Image uploads through the built server, on each backend: what the admin's
 * upload field (POST /api/admin/images) accepts and refuses, what is stored
 * (re-encoded, upright, no metadata, resized copies), and how the stored
 * files are served at /images/<name>, with nothing else reachable there.
 */
import { randomBytes } from "node:crypto";
import { readFile, readdir, readlink, symlink, writeFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE } from "~/auth/same-origin";
import { MAX_IMAGE_BYTES, UPLOAD_TEXT, parseImageName, type StoredExtension } from "~/images/image-files";
import type { ImageVariant } from "~/images/images.server";
import { uploadImage, type UploadAnswer } from "../support/admin-http";
import { backends } from "../support/backends";
import { rawRequest } from "../support/http";
import {
  ZIP_END,
  blackBilevelPng,
  ZIP_LOCAL_HEADER,
  exifHasGps,
  filesIn,
  multipartBody,
  phonePhotoJpeg,
  pixelAt,
  withRssGrowth,
  twoToneJpeg,
  twoTonePng,
  zipArchive,
} from "../support/images";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

const MB = 1024 * 1024;
/** What sharp calls the format of each stored extension (AVIF is a HEIF container). */
const SHARP_FORMAT = { jpg: "jpeg", png: "png", webp: "webp", avif: "heif" } as const;
const CONTENT_TYPE = { jpg: "image/jpeg", png: "image/png", webp: "image/webp", avif: "image/avif" } as const;

/** A valid JPEG padded after its end marker to exactly `size` bytes (decoders stop at the end marker). */
async function jpegOfSize(size: number): Promise<Buffer> {
  const jpeg = await twoToneJpeg(64, 64);
  return Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length, 0x20)]);
}

const SVG_WITH_SCRIPT = Buffer.from(
  `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(document.cookie)</script><rect width="100" height="100" fill="red"/></svg>\n`,
);

beforeAll(() => assertBuilt());

describe.each(backends)("image uploads on $name", (backend) => {
  const site = useSite(backend);

  const upload = (data: Buffer, filename = "photo.jpg", type = "image/jpeg") => uploadImage(site.server, site.cookie, { data, filename, type });

  async function imageRow(name: string) {
    return site.db.selectFrom("images").selectAll().where("name", "=", name).executeTakeFirst();
  }

  async function variantsOf(name: string): Promise<ImageVariant[]> {
    const row = await imageRow(name);
    expect(row, `a row for ${name}`).toBeDefined();
    return JSON.parse(row!.variants) as ImageVariant[];
  }

  /** What is stored: the files in the bucket and the rows of `images`. */
  async function storedState() {
    const rows = await site.db.selectFrom("images").select("name").orderBy("name").execute();
    return { files: await filesIn(site.imagesDir), rows: rows.map((row) => row.name) };
  }

  function expectAccepted(answer: UploadAnswer): { url: string; name: string; width: number; height: number } {
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const { url, name, width, height } = answer.body;
    expect(url).toBe(`/images/${name}`);
    expect(parseImageName(name!), `a bucket name: ${name}`).toMatchObject({ width: undefined });
    return { url: url!, name: name!, width: width!, height: height! };
  }

  const isRunning = () => site.server.child.exitCode === null && site.server.child.signalCode === null;

  /** The server answers /healthz (given a moment to fall over if it is going to), and has not exited. */
  async function expectServerHealthy() {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const output = () =>
      `the server exited (${site.server.child.exitCode ?? site.server.child.signalCode}):\n${(site.server.stdout() + site.server.stderr()).slice(-3000)}`;
    expect(isRunning(), isRunning() ? "" : output()).toBe(true);
    const response = await fetch(`${site.server.url}/healthz`).catch((error: Error) => ({ status: `${error.message}: ${output()}` }));
    expect(response.status).toBe(200);
  }

  /** POST /api/admin/images with a file, byte for byte (fetch fails with EPIPE when the server answers before reading all). */
  function rawUpload(data: Buffer, options: { chunked?: boolean } = {}) {
    const { contentType, body } = multipartBody([{ name: "file", filename: "big.jpg", type: "image/jpeg", data }]);
    const piece = 256 * 1024;
    return rawRequest(site.server.port, {
      path: "/api/admin/images",
      headers: {
        "content-type": contentType,
        ...(options.chunked ? { "transfer-encoding": "chunked" } : { "content-length": body.length }),
        origin: site.server.url,
        cookie: site.cookie,
      },
      body: Array.from({ length: Math.ceil(body.length / piece) }, (_, i) => body.subarray(i * piece, (i + 1) * piece)),
    });
  }

  describe("POST /api/admin/images", () => {
    it("stores a JPEG as a JPEG no larger than 1920 px, with AVIF and WebP copies at 480, 960 and 1440 px", async () => {
      const answer = await upload(await twoToneJpeg(2400, 1200));
      const { name, width, height } = expectAccepted(answer);
      expect(name).toMatch(/^\d{13}-[a-z0-9]{12}\.jpg$/);
      expect([width, height]).toEqual([1920, 960]);
      const stored = await readFile(path.join(site.imagesDir, name));
      expect(await sharp(stored).metadata()).toMatchObject({ format: "jpeg", width: 1920, height: 960 });

      const variants = await variantsOf(name);
      expect(variants.map((variant) => `${variant.width}x${variant.height}.${variant.format}`).sort()).toEqual([
        "1440x720.avif",
        "1440x720.webp",
        "480x240.avif",
        "480x240.webp",
        "960x480.avif",
        "960x480.webp",
      ]);
      const stem = name.replace(/\.jpg$/, "");
      for (const variant of variants) {
        expect(variant.name).toBe(`${stem}-${variant.width}w.${variant.format}`);
        const data = await readFile(path.join(site.imagesDir, variant.name));
        expect(await sharp(data).metadata()).toMatchObject({ format: SHARP_FORMAT[variant.format], width: variant.width, height: variant.height });
      }
      // Atomic writes leave no temporary files behind.
      expect((await filesIn(site.imagesDir)).filter((file) => file.startsWith("."))).toEqual([]);
    });

    it("keeps a small image at its own size, with copies at its own width", async () => {
      const { name, width, height } = expectAccepted(await upload(await twoTonePng(64, 48), "small.png", "image/png"));
      expect(name).toMatch(/\.png$/);
      expect([width, height]).toEqual([64, 48]);
      expect((await variantsOf(name)).map((variant) => `${variant.width}.${variant.format}`).sort()).toEqual(["64.avif", "64.webp"]);
    });

    it("decides the type by the bytes: a PNG named .jpg is stored as a PNG, a GIF as a PNG, a WebP as a WebP", async () => {
      const png = expectAccepted(await upload(await twoTonePng(), "liar.jpg", "image/jpeg"));
      expect(png.name).toMatch(/\.png$/);
      expect((await sharp(await readFile(path.join(site.imagesDir, png.name))).metadata()).format).toBe("png");

      const gif = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#00ff00" } })
        .gif()
        .toBuffer();
      const fromGif = expectAccepted(await upload(gif, "anim.gif", "image/gif"));
      expect(fromGif.name).toMatch(/\.png$/);
      expect((await sharp(await readFile(path.join(site.imagesDir, fromGif.name))).metadata()).format).toBe("png");

      const webp = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#123456" } })
        .webp()
        .toBuffer();
      const fromWebp = expectAccepted(await upload(webp, "pic.webp", "image/webp"));
      expect(fromWebp.name).toMatch(/\.webp$/);
    });

    it("refuses a text file named .png with 415 (not an image), storing nothing", async () => {
      const before = await storedState();
      const answer = await upload(Buffer.from("Just some notes, not a picture at all.\n"), "notes.png", "image/png");
      expect(answer).toEqual({ status: 415, body: { error: UPLOAD_TEXT.invalidType } });
      expect(await storedState()).toEqual(before);
    });

    it("refuses a truncated JPEG with 422 (unreadable), storing nothing", async () => {
      const before = await storedState();
      const whole = await twoToneJpeg(800, 600);
      const answer = await upload(whole.subarray(0, Math.floor(whole.length / 2)));
      expect(answer).toEqual({ status: 422, body: { error: UPLOAD_TEXT.unreadable } });
      expect(await storedState()).toEqual(before);
    });

    it("refuses an SVG with a script in it with 415 (File type must be …), storing nothing", async () => {
      const before = await storedState();
      const answer = await upload(SVG_WITH_SCRIPT, "logo.png", "image/png");
      expect(answer.status).toBe(415);
      expect(answer.body.error).toMatch(/^File type must be JPEG, PNG, GIF or WebP/);
      expect(await storedState()).toEqual(before);
    });

    it("refuses a ZIP archive with 415, storing nothing", async () => {
      const before = await storedState();
      const answer = await upload(zipArchive(), "photos.jpg", "image/jpeg");
      expect(answer).toEqual({ status: 415, body: { error: UPLOAD_TEXT.invalidType } });
      expect(await storedState()).toEqual(before);
    });

    it("accepts a JPEG with a ZIP archive appended, and stores only the picture", async () => {
      const polyglot = Buffer.concat([await twoToneJpeg(200, 100), zipArchive()]);
      expect(polyglot.includes(ZIP_LOCAL_HEADER)).toBe(true);
      const { name } = expectAccepted(await upload(polyglot));
      const stored = await readFile(path.join(site.imagesDir, name));
      expect(stored.includes(ZIP_LOCAL_HEADER), "no ZIP local header").toBe(false);
      expect(stored.includes(ZIP_END), "no ZIP end record").toBe(false);
      expect(stored.includes(Buffer.from("zip payload"))).toBe(false);
      // The file ends where the JPEG ends.
      expect(stored.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
      for (const variant of await variantsOf(name)) {
        const data = await readFile(path.join(site.imagesDir, variant.name));
        expect(data.includes(ZIP_LOCAL_HEADER), variant.name).toBe(false);
      }
    });

    it("turns a phone photo upright and strips its EXIF (GPS), XMP and ICC, in the file and every copy", async () => {
      const photo = await phonePhotoJpeg();
      // The input really carries what must go.
      const input = await sharp(photo).metadata();
      expect(input).toMatchObject({ format: "jpeg", width: 300, height: 200, orientation: 6 });
      expect(input.exif && exifHasGps(input.exif), "the input has a GPS IFD").toBe(true);
      expect(input.exif!.includes(Buffer.from("Test")), "the input has the camera make").toBe(true);
      expect(input.xmp, "the input has XMP").toBeDefined();
      expect(input.icc, "the input has an ICC profile").toBeDefined();

      const { name, width, height } = expectAccepted(await upload(photo, "IMG_0001.jpg"));
      expect([width, height], "upright: width and height swapped").toEqual([200, 300]);

      const files = [name, ...(await variantsOf(name)).map((variant) => variant.name)];
      expect(files.length).toBeGreaterThan(1);
      for (const file of files) {
        const data = await readFile(path.join(site.imagesDir, file));
        const metadata = await sharp(data).metadata();
        const extension = parseImageName(file)!.extension as Exclude<StoredExtension, "pdf">;
        expect(metadata.format, `${file}: the type matches the bytes`).toBe(SHARP_FORMAT[extension]);
        expect(metadata.exif, `${file}: EXIF`).toBeUndefined();
        expect(metadata.xmp, `${file}: XMP`).toBeUndefined();
        expect(metadata.icc, `${file}: ICC`).toBeUndefined();
        expect(metadata.orientation ?? 1, `${file}: no orientation left to apply`).toBe(1);
        expect(metadata.height, `${file}: portrait`).toBeGreaterThan(metadata.width);
        expect(data.includes(Buffer.from("Secret Photographer")), `${file}: XMP text`).toBe(false);
        // Left half red, right half blue, turned a quarter clockwise: red on top, blue below.
        const top = await pixelAt(data, Math.floor(metadata.width / 2), Math.floor(metadata.height / 8));
        const bottom = await pixelAt(data, Math.floor(metadata.width / 2), Math.floor((metadata.height * 7) / 8));
        expect(top[0] > 180 && top[2] < 80, `${file}: red on top, got ${top.join(",")}`).toBe(true);
        expect(bottom[2] > 180 && bottom[0] < 80, `${file}: blue below, got ${bottom.join(",")}`).toBe(true);
      }
      // And as served: the type the bytes are.
      const served = await fetch(`${site.server.url}/images/${name}`);
      expect(served.headers.get("content-type")).toBe("image/jpeg");
    });

    it("refuses an image of more than 40 megapixels (a few KB of PNG claiming 8000×5001, or 20000×20000) with 422, before decoding it", async () => {
      const before = await storedState();
      for (const [width, height] of [
        [8_000, 5_001],
        [20_000, 20_000],
      ] as const) {
        const huge = blackBilevelPng(width, height);
        expect(huge.length).toBeLessThan(1024 * 1024);
        expect(await sharp(huge, { limitInputPixels: false }).metadata()).toMatchObject({ format: "png", width, height });
        const answer = await upload(huge, "panorama.png", "image/png");
        expect(answer).toEqual({ status: 422, body: { error: "The image is too large in pixels (over 40 megapixels). Please upload a smaller image." } });
      }
      expect(await storedState()).toEqual(before);
      // A small valid 1-bit PNG is fine.
      expectAccepted(await upload(blackBilevelPng(1000, 800), "scan.png", "image/png"));
    });

    it("refuses two files at once with 400, storing nothing", async () => {
      const before = await storedState();
      const jpeg = await twoToneJpeg(40, 40);
      const { contentType, body } = multipartBody([
        { name: "file", filename: "a.jpg", type: "image/jpeg", data: jpeg },
        { name: "file", filename: "b.jpg", type: "image/jpeg", data: jpeg },
      ]);
      const response = await rawRequest(site.server.port, {
        path: "/api/admin/images",
        headers: { "content-type": contentType, "content-length": body.length, origin: site.server.url, cookie: site.cookie },
        body,
      });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.text)).toEqual({ error: UPLOAD_TEXT.tooMany });
      expect(await storedState()).toEqual(before);
    });

    it("answers 400 when no file is sent", async () => {
      const form = new FormData();
      form.append("note", "no file here");
      const response = await fetch(`${site.server.url}/api/admin/images`, {
        method: "POST",
        headers: { origin: site.server.url, cookie: site.cookie },
        body: form,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    });

    it("refuses anybody not signed in with 401, storing nothing", async () => {
      const before = await storedState();
      const answer = await uploadImage(site.server, undefined, { data: await twoToneJpeg(40, 40), filename: "a.jpg", type: "image/jpeg" });
      expect(answer).toEqual({ status: 401, body: { error: "Sign in required." } });
      const forged = await uploadImage(site.server, "__Host-admin_session=not-a-real-token", {
        data: await twoToneJpeg(40, 40),
        filename: "a.jpg",
        type: "image/jpeg",
      });
      expect(forged.status).toBe(401);
      expect(await storedState()).toEqual(before);
    });

    it("refuses an upload from another site with 403, even signed in, storing nothing", async () => {
      const before = await storedState();
      const file = { data: await twoToneJpeg(40, 40), filename: "a.jpg", type: "image/jpeg" };
      const crossSite = await uploadImage(site.server, site.cookie, file, { origin: "https://evil.example" });
      expect(crossSite).toEqual({ status: 403, body: { error: CROSS_SITE_MESSAGE } });
      const fetchMetadata = await uploadImage(site.server, site.cookie, file, { "sec-fetch-site": "cross-site" });
      expect(fetchMetadata.status).toBe(403);
      expect(await storedState()).toEqual(before);
    });
  });

  describe("GET /images/<name>", () => {
    let stored: { name: string; bytes: Buffer; variants: ImageVariant[] };

    beforeAll(async () => {
      const { name } = expectAccepted(await upload(await twoToneJpeg(1000, 500)));
      stored = { name, bytes: await readFile(path.join(site.imagesDir, name)), variants: await variantsOf(name) };
    });

    it("serves a stored image with its type, immutable caching, and its exact bytes", async () => {
      const response = await fetch(`${site.server.url}/images/${stored.name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/jpeg");
      expect(response.headers.get("cache-control")).toMatch(/\bimmutable\b/);
      expect(response.headers.get("cache-control")).toMatch(/\bmax-age=\d{7,}/);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(stored.bytes);
    });

    it("answers HEAD with the headers and no body", async () => {
      const response = await rawRequest(site.server.port, { method: "HEAD", path: `/images/${stored.name}` });
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("image/jpeg");
      expect(response.headers["content-length"]).toBe(String(stored.bytes.length));
      expect(response.headers["cache-control"]).toMatch(/\bimmutable\b/);
      expect(response.body.length).toBe(0);
    });

    it("closes the file of every request the client gave up on, whenever it left", async () => {
      /** The server's open files in the bucket (Linux: /proc/<pid>/fd). */
      const openImageFiles = async () => {
        const fdDir = `/proc/${site.server.child.pid}/fd`;
        const targets = await Promise.all((await readdir(fdDir)).map((fd) => readlink(`${fdDir}/${fd}`).catch(() => "")));
        return targets.filter((target) => target.startsWith(site.imagesDir));
      };
      const names = [stored.name, ...stored.variants.map((variant) => variant.name)];
      // Requests dropped at once (the connection reset as soon as the request is out, before the
      // server has opened the file), and dropped after the first bytes of the answer.
      const reset = (name: string) =>
        new Promise<void>((resolve) => {
          const socket = net.connect(site.server.port, "127.0.0.1", () => {
            socket.write(`GET /images/${name} HTTP/1.1\r\nHost: localhost\r\n\r\n`, () => {
              socket.resetAndDestroy();
              resolve();
            });
          });
          socket.on("error", () => resolve());
        });
      const dropped = (name: string) =>
        new Promise<void>((resolve) => {
          const request = http.get({ host: "127.0.0.1", port: site.server.port, path: `/images/${name}`, agent: false });
          request.on("error", () => resolve());
          request.on("response", () => {
            request.destroy();
            resolve();
          });
        });
      // The first window is narrow, so many times over.
      for (let round = 0; round < 4; round++) {
        await Promise.all(names.flatMap((name) => [reset(name), reset(name), reset(name), reset(name), dropped(name)]));
      }
      // The server is done with each file a moment later; a leaked one stays open until garbage collection.
      let open = await openImageFiles();
      for (let tries = 0; open.length > 0 && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        open = await openImageFiles();
      }
      expect(open).toEqual([]);
      // Nor was one left for the garbage collector to close (Node's DEP0137 warning).
      expect(site.server.stdout() + site.server.stderr()).not.toMatch(/on garbage collection/);
      expect((await fetch(`${site.server.url}/healthz`)).status).toBe(200);
    });

    it("serves every resized copy with its own type", async () => {
      expect(stored.variants.length).toBe(6);
      for (const variant of stored.variants) {
        const response = await fetch(`${site.server.url}/images/${variant.name}`);
        expect(response.status, variant.name).toBe(200);
        expect(response.headers.get("content-type")).toBe(CONTENT_TYPE[variant.format]);
        expect(response.headers.get("cache-control")).toMatch(/\bimmutable\b/);
        const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
        expect(metadata.width).toBe(variant.width);
      }
    });

    it("answers 404 for a valid name that was never stored", async () => {
      for (const name of [`${Date.now()}-${"a".repeat(12)}.jpg`, stored.name.replace(/\.jpg$/, ".png"), stored.name.replace(/\.jpg$/, "-480w.jpg")]) {
        const response = await fetch(`${site.server.url}/images/${name}`);
        expect(response.status, name).toBe(404);
        expect(response.headers.get("cache-control")).not.toMatch(/immutable/);
      }
    });

    describe("never serves anything outside the bucket", () => {
      const secret = `top secret ${randomBytes(8).toString("hex")}`;
      let databaseBytes: Buffer | undefined;
      const linkName = `${Date.now() - 1000}-symlinkoutsi.jpg`;
      const variantLinkName = `${Date.now() - 1000}-symlinkoutsi-480w.webp`;

      beforeAll(async () => {
        const dataDir = site.database.env.DATA_DIR;
        await writeFile(path.join(dataDir, "secret.txt"), secret);
        await writeFile(path.join(site.imagesDir, ".upload-xyz"), secret);
        await symlink(path.join(dataDir, "secret.txt"), path.join(site.imagesDir, linkName));
        await symlink("../secret.txt", path.join(site.imagesDir, variantLinkName));
        if (site.database.sqliteFile) databaseBytes = (await readFile(site.database.sqliteFile)).subarray(0, 16);
      });

      const PATHS = [
        "/images/..%2fapp.sqlite",
        "/images/%2e%2e%2fapp.sqlite",
        "/images/%2E%2E%2Fsecret.txt",
        "/images/../app.sqlite",
        "/images/..%5capp.sqlite",
        "/images/%2fetc%2fpasswd",
        "/images/%2Fetc%2Fpasswd",
        "/images//etc/passwd",
        "/images/..%252fapp.sqlite",
        "/images/.upload-xyz",
        "/images/secret.txt",
        "/images/..",
        "/images/app.sqlite%00.jpg",
        `/images/${linkName}`,
        `/images/${variantLinkName}`,
      ];

      it.each(PATHS)("GET %s: 404, and not the file", async (target) => {
        const response = await site.get(target);
        expect(response.status, target).toBe(404);
        expect(response.text).not.toContain(secret);
        expect(response.text).not.toContain("SQLite format 3");
        expect(response.text).not.toMatch(/root:.*:0:0:/);
        if (databaseBytes) expect(response.body.includes(databaseBytes)).toBe(false);
      });

      it("the symlinks are really there and point at a readable file (so the 404 is the server's choice)", async () => {
        expect(await readFile(path.join(site.imagesDir, linkName), "utf8")).toBe(secret);
        expect(await readFile(path.join(site.imagesDir, variantLinkName), "utf8")).toBe(secret);
      });
    });
  });

  describe("uploads refused before their body is read in full (over 10 MB, a second file, a file in another field)", () => {
    // Last in the file: a server that falls over here is started again for the next test
    // (on the same database and DATA_DIR), so each refusal is judged on its own.
    beforeEach(async () => {
      if (!isRunning()) await site.startAgain();
    });

    // Sent a few times: whether a mishandled refusal takes the process down can depend on how the body's packets arrive.
    it("refuses 11 MB with 413 (File size must be less than 10MB), storing nothing; the server stays up and takes the next upload", async () => {
      const before = await storedState();
      const file = await jpegOfSize(11 * MB);
      for (let attempt = 1; attempt <= 3; attempt++) {
        const response = await rawUpload(file);
        expect(response.status, `attempt ${attempt}`).toBe(413);
        expect(JSON.parse(response.text)).toEqual({ error: UPLOAD_TEXT.tooLarge });
        await expectServerHealthy();
      }
      expect(await storedState()).toEqual(before);
      expectAccepted(await upload(await twoToneJpeg(50, 50)));
    });

    it("refuses an 11 MB body sent chunked, with no Content-Length, with 413, storing nothing; the server stays up", async () => {
      const before = await storedState();
      const file = await jpegOfSize(11 * MB);
      for (let attempt = 1; attempt <= 3; attempt++) {
        const response = await rawUpload(file, { chunked: true });
        expect(response.status, `attempt ${attempt}`).toBe(413);
        expect(JSON.parse(response.text)).toEqual({ error: UPLOAD_TEXT.tooLarge });
        await expectServerHealthy();
      }
      expect(await storedState()).toEqual(before);
    });

    it("refuses a second large file with 400 (Too many files) and stays up", async () => {
      const before = await storedState();
      const photo = await jpegOfSize(4 * MB);
      for (let attempt = 1; attempt <= 3; attempt++) {
        const { contentType, body } = multipartBody([
          { name: "file", filename: "a.jpg", type: "image/jpeg", data: photo },
          { name: "file", filename: "b.jpg", type: "image/jpeg", data: photo },
        ]);
        const response = await rawRequest(site.server.port, {
          path: "/api/admin/images",
          headers: { "content-type": contentType, "content-length": body.length, origin: site.server.url, cookie: site.cookie },
          body: Array.from({ length: Math.ceil(body.length / 262_144) }, (_, i) => body.subarray(i * 262_144, (i + 1) * 262_144)),
        }).catch((error: Error) => ({ status: 0, text: `no answer (${error.message})` }));
        await expectServerHealthy();
        expect(response.status, `attempt ${attempt}: ${response.text}`).toBe(400);
        expect(JSON.parse(response.text)).toEqual({ error: UPLOAD_TEXT.tooMany });
      }
      expect(await storedState()).toEqual(before);
    });

    it("refuses a large file in a field it does not take with 400 and stays up", async () => {
      const before = await storedState();
      const photo = await jpegOfSize(4 * MB);
      for (let attempt = 1; attempt <= 3; attempt++) {
        const { contentType, body } = multipartBody([
          { name: "attachment", filename: "a.jpg", type: "image/jpeg", data: photo },
          { name: "file", filename: "b.jpg", type: "image/jpeg", data: await twoToneJpeg(40, 40) },
        ]);
        const response = await rawRequest(site.server.port, {
          path: "/api/admin/images",
          headers: { "content-type": contentType, "content-length": body.length, origin: site.server.url, cookie: site.cookie },
          body: Array.from({ length: Math.ceil(body.length / 262_144) }, (_, i) => body.subarray(i * 262_144, (i + 1) * 262_144)),
        }).catch((error: Error) => ({ status: 0, text: `no answer (${error.message})` }));
        await expectServerHealthy();
        expect(response.status, `attempt ${attempt}: ${response.text}`).toBe(400);
      }
      expect(await storedState()).toEqual(before);
    });

    it("refuses a file of exactly 10,485,760 bytes with 413", async () => {
      const before = await storedState();
      const response = await rawUpload(await jpegOfSize(MAX_IMAGE_BYTES));
      expect(response.status).toBe(413);
      expect(JSON.parse(response.text)).toEqual({ error: UPLOAD_TEXT.tooLarge });
      expect(await storedState()).toEqual(before);
      await expectServerHealthy();
    });

    it("accepts a file of 10,485,759 bytes (under 10 MB, as the upload field allows)", async () => {
      const response = await rawUpload(await jpegOfSize(MAX_IMAGE_BYTES - 1));
      expect(response.status, response.text).toBe(201);
      const { name } = JSON.parse(response.text) as { name: string };
      expect(await imageRow(name)).toBeDefined();
    });

    it("refuses a declared 1 GB upload with 413 after a few MB, without the server's memory growing or anything written", async () => {
      const before = await storedState();
      const { result, grewBy, from, to } = await withRssGrowth(site.server.child.pid!, () =>
        hugeUpload(site.server.port, { origin: site.server.url, cookie: site.cookie }, 1024 * MB, 6 * MB),
      );
      expect(result.status).toBe(413);
      expect(result.text).toContain(UPLOAD_TEXT.tooLarge);
      expect(grewBy, `RSS grew from ${from} to ${to}`).toBeLessThan(30 * MB);
      expect(await storedState()).toEqual(before);
      await expectServerHealthy();
    });

    it("cuts off an endless chunked upload at 10 MB with 413, its memory bounded and nothing written", async () => {
      const before = await storedState();
      const { result, grewBy, from, to } = await withRssGrowth(site.server.child.pid!, () =>
        hugeUpload(site.server.port, { origin: site.server.url, cookie: site.cookie }, "chunked", 40 * MB),
      );
      await expectServerHealthy();
      expect(result.status).toBe(413);
      expect(result.text).toContain(UPLOAD_TEXT.tooLarge);
      // The first 10 MB are held while they arrive; no more.
      expect(grewBy, `RSS grew from ${from} to ${to}`).toBeLessThan(30 * MB);
      expect(await storedState()).toEqual(before);
    });
  });
});

/**
 * Sends the headers of an upload (declaring a length, or chunked), then at
 * most `send` bytes of its file, stopping as soon as an answer arrives;
 * returns the answer.
 */
function hugeUpload(
  port: number,
  headers: { origin: string; cookie: string },
  /** The Content-Length to declare, or "chunked" for a body of no declared length. */
  length: number | "chunked",
  send: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const boundary = "----pm-test-huge";
    const start = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0`;
    const frame = (piece: Buffer) =>
      length === "chunked" ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece;
    const head = Buffer.concat([
      Buffer.from(
        `POST /api/admin/images HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${headers.origin}\r\nCookie: ${headers.cookie}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
          (length === "chunked" ? "Transfer-Encoding: chunked\r\n\r\n" : `Content-Length: ${length}\r\n\r\n`),
        "latin1",
      ),
      frame(Buffer.from(start, "latin1")),
    ]);
    const socket = net.connect(port, "127.0.0.1");
    let response = "";
    let answered = false;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      socket.destroy();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(response);
      resolve({ status: match ? Number(match[1]) : 0, text: response });
    };
    socket.setEncoding("latin1");
    socket.setTimeout(30_000, () => {
      socket.destroy();
      reject(new Error("no answer to the huge upload in 30 s"));
    });
    socket.on("data", (text: string) => {
      response += text;
      answered = true;
      // The whole answer is a short JSON body: done once it is complete.
      const [headerText, body = ""] = response.split("\r\n\r\n");
      const length = /content-length:\s*(\d+)/i.exec(headerText ?? "")?.[1];
      if (length !== undefined && Buffer.byteLength(body, "latin1") >= Number(length)) finish();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") return;
      reject(error);
    });
    socket.on("close", finish);
    socket.on("connect", async () => {
      // A piece at a time, pausing for an answer after each: a write after the server has answered
      // and closed fails with EPIPE, and Node then drops the answer it had not read yet.
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      const waitForAnswer = (ms: number) =>
        new Promise<void>((resume) => {
          const onData = () => {
            clearTimeout(timer);
            resume();
          };
          const timer = setTimeout(() => {
            socket.off("data", onData);
            resume();
          }, ms);
          socket.once("data", onData);
        });
      await new Promise<void>((written) => socket.write(head, () => written()));
      let sent = 0;
      while (sent < send && !answered && !socket.destroyed) {
        await waitForAnswer(20);
        if (answered || socket.destroyed) break;
        sent += chunk.length;
        await new Promise<void>((written) => {
          // The callback comes once the piece is with the kernel; a server that stopped reading holds it up.
          const timer = setTimeout(written, 2_000);
          socket.write(frame(chunk), () => {
            clearTimeout(timer);
            written();
          });
        });
      }
    });
  });
}
