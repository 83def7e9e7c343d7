/**
 * GET /images/<name> answers from the site's own record of its uploads
 * first (issue 19): a name that was never uploaded is a 404 without a request
 * to the bucket, which on S3 costs money and time for every name anyone
 * cares to ask for; a file in the bucket that the site does not know is not
 * served either. On disk and on S3 (when S3_* is set, with the requests
 * reaching the S3 server counted), on SQLite and PostgreSQL.
 */
import { writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadImage } from "../support/admin-http";
import { backends } from "../support/backends";
import { twoToneJpeg } from "../support/images";
import { countS3Requests, createTestBucket, s3EnvOf, s3Settings, type CountedS3, type TestBucket } from "../support/s3";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

beforeAll(() => assertBuilt());

const storages = s3Settings ? (["disk", "s3"] as const) : (["disk"] as const);
const cases = backends.flatMap((backend) => storages.map((storage) => ({ backend, name: backend.name, storage })));

describe.each(cases)("/images/<name> on $name with the images on $storage", { timeout: 120_000 }, ({ backend, storage }) => {
  let bucket: TestBucket | undefined;
  let counted: CountedS3 | undefined;
  beforeAll(async () => {
    if (storage === "s3") {
      bucket = await createTestBucket();
      counted = await countS3Requests(bucket.config);
    }
  });
  afterAll(async () => {
    await counted?.close();
    await bucket?.cleanup();
  });

  const site = useSite(backend, { env: async () => (counted ? s3EnvOf(counted.config) : {}) });
  let uploaded: { name: string; copy: string };
  beforeAll(async () => {
    const answer = await uploadImage(site.server, site.cookie, { data: await twoToneJpeg(1200, 800), filename: "kitchen.jpg", type: "image/jpeg" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const name = answer.body.name!;
    uploaded = { name, copy: name.replace(/\.jpg$/, "-480w.avif") };
  });

  const get = (name: string, method = "GET") => fetch(`${site.server.url}/images/${name}`, { method });

  it("serves an uploaded image and its copies", async () => {
    for (const name of [uploaded.name, uploaded.copy]) {
      const response = await get(name);
      expect(response.status, name).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it("answers 404 to names never uploaded, without asking the bucket", async () => {
    const stem = uploaded.name.replace(/\.jpg$/, "");
    const never = [
      "1700000000000-abcdefabcdef.jpg",
      "1700000000000-abcdefabcdef.pdf",
      "1700000000000-abcdefabcdef-480w.webp",
      // The upload's own stem, but a copy it does not have, or another extension.
      `${stem}-123w.avif`,
      `${stem}.png`,
      `${stem}.pdf`,
    ];
    const before = counted?.requests();
    for (const name of never) {
      for (const method of ["GET", "HEAD"]) {
        const response = await get(name, method);
        expect(response.status, `${method} ${name}`).toBe(404);
        expect(response.headers.get("cache-control")).toBe("no-store");
        await response.arrayBuffer();
      }
    }
    if (counted) expect(counted.requests() - before!, "requests that reached S3").toBe(0);
  });

  it("does not serve a file put in the bucket behind the site's back", async () => {
    const stray = "1700000000001-strayfile001.jpg";
    const bytes = await twoToneJpeg(200, 100);
    if (bucket) await bucket.rawPut(stray, bytes);
    else {
      const directory = site.imagesDir;
      await mkdir(directory, { recursive: true });
      await writeFile(path.join(directory, stray), bytes);
    }
    expect((await get(stray)).status).toBe(404);
    expect((await get(uploaded.name)).status).toBe(200);
  });
});
