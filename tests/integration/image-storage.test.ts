/**
 * The images bucket's one contract (ImageStorage), run against local disk
 * (LocalDiskStorage) and, when S3_BUCKET and S3_ENDPOINT are set, against a
 * real S3 server (S3ImageStorage; .ci/run starts Ceph's RADOS Gateway, which
 * checks every request's signature): it takes bare names the bucket hands out
 * and nothing else, never overwrites, and lists by name in pages (SPEC §9:
 * limit 100, offset 0). Then what only the disk has: links and folders.
 */
import { mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LocalDiskStorage, StorageError, type ImageStorage } from "~/platform/storage/storage.server";
import { S3ImageStorage } from "~/platform/storage/s3-storage.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { makeTempDir, removeTempDir } from "../support/temp";
import { createTestBucket, s3Settings } from "../support/s3";

const NAME = "1700000000000-abcdefghij01.jpg";

/** Names that are not bucket names: paths, traversal, absolute paths, NUL, hidden files, other shapes. */
const BAD_NAMES = [
  "",
  ".",
  "..",
  "../app.sqlite",
  `../${NAME}`,
  `images/${NAME}`,
  `${NAME}/..`,
  `sub/${NAME}`,
  `/${NAME}`,
  "/etc/passwd",
  `/tmp/${NAME}`,
  `..\\${NAME}`,
  `${NAME}\0`,
  `${NAME}\0.jpg`,
  "1700000000000-abcdefghij01\0.jpg",
  ".upload-0123456789abcdef",
  `.${NAME}`,
  "1700000000000-ABCDEFGHIJ01.jpg",
  "1700000000000-abcdefghij01.svg",
  "1700000000000-abcdefghij01.jpg.php",
  "170000000000-abcdefghij01.jpg",
  "app.sqlite",
];

/** One empty bucket of a kind, with a look past the storage at what it holds. */
type Bucket = {
  storage: ImageStorage;
  /** Everything the bucket holds, whatever its name (and, on disk, what is beside it). */
  everything(): Promise<string[]>;
  /** Writes something that is not an object of ours straight into the bucket. */
  rawPut(key: string, data: string): Promise<void>;
  /** An object's bytes, read past the storage. */
  rawGet(name: string): Promise<string | undefined>;
  cleanup(): Promise<void>;
};

const kinds: { name: string; create(): Promise<Bucket> }[] = [
  {
    name: "local disk",
    async create() {
      const dataDir = await makeTempDir("storage");
      await writeFile(path.join(dataDir, "app.sqlite"), "the database");
      const directory = path.join(dataDir, "images");
      return {
        storage: new LocalDiskStorage(directory, IMAGE_NAMING),
        everything: async () => (await readdir(dataDir, { recursive: true })).sort(),
        rawPut: async (key, data) => {
          await mkdir(directory, { recursive: true });
          await writeFile(path.join(directory, key), data);
        },
        rawGet: (name) => readFile(path.join(directory, name), "utf8").catch(() => undefined),
        cleanup: () => removeTempDir(dataDir),
      };
    },
  },
];
if (s3Settings) {
  kinds.push({
    name: "S3",
    async create() {
      const bucket = await createTestBucket();
      return {
        storage: new S3ImageStorage(bucket.config, IMAGE_NAMING),
        everything: bucket.keys,
        rawPut: bucket.rawPut,
        rawGet: async (name) => (await bucket.rawGet(name))?.toString("utf8"),
        cleanup: bucket.cleanup,
      };
    },
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(kinds)("ImageStorage on $name", (kind) => {
  let bucket: Bucket;
  let storage: ImageStorage;

  beforeEach(async () => {
    bucket = await kind.create();
    storage = bucket.storage;
  });
  afterEach(() => bucket.cleanup());

  describe("refuses anything but a bucket name", () => {
    it.each(BAD_NAMES.map((name) => [JSON.stringify(name), name]))("%s: put, delete and url refuse it, open and read find nothing", async (_label, name) => {
      await storage.put(NAME, Buffer.from("a real image"), { contentType: "image/jpeg" });
      const before = await bucket.everything();
      await expect(storage.put(name, Buffer.from("overwrite attempt"), { contentType: "image/jpeg" })).rejects.toThrow(StorageError);
      await expect(storage.delete(name)).rejects.toThrow(StorageError);
      expect(() => storage.url(name)).toThrow(StorageError);
      expect(await storage.open(name)).toBeUndefined();
      expect(await storage.read(name)).toBeUndefined();
      expect(await bucket.everything()).toEqual(before);
      expect(await bucket.rawGet(NAME)).toBe("a real image");
    });
  });

  it("stores, opens, reads, names and deletes an object", async () => {
    const data = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    await storage.put(NAME, data, { contentType: "image/jpeg" });
    expect(storage.url(NAME)).toBe(`/images/${NAME}`);
    const opened = await storage.open(NAME);
    expect(opened).toMatchObject({ size: data.length, contentType: "image/jpeg", modifiedAt: expect.any(Date) });
    expect(await readAll(opened!.stream())).toEqual(data);
    expect(Buffer.from((await storage.read(NAME))!)).toEqual(data);
    expect(await storage.list()).toMatchObject([{ name: NAME, size: data.length }]);
    expect(await storage.delete(NAME)).toBe(true);
    expect(await storage.delete(NAME)).toBe(false);
    expect(await storage.open(NAME)).toBeUndefined();
    expect(await storage.read(NAME)).toBeUndefined();
    expect(await storage.list()).toEqual([]);
    expect(await bucket.everything()).not.toContain(NAME);
  });

  it("types an object by its name, whatever the uploader said", async () => {
    const copy = "1700000000000-abcdefghij01-480w.avif";
    await storage.put(copy, Buffer.from("avif bytes"), { contentType: "text/html" });
    const opened = await storage.open(copy);
    expect(opened?.contentType).toBe("image/avif");
    await opened!.close();
  });

  it("never overwrites: a second put of the same name rejects and the original stays", async () => {
    await storage.put(NAME, Buffer.from("original"), { contentType: "image/jpeg" });
    await expect(storage.put(NAME, Buffer.from("replacement"), { contentType: "image/jpeg" })).rejects.toThrow(StorageError);
    expect(await bucket.rawGet(NAME)).toBe("original");
    // Nothing else is left behind by either put (no temporary file, no second version).
    expect((await storage.list()).map((object) => object.name)).toEqual([NAME]);
  });

  it("lets exactly one of several simultaneous puts of one name win", async () => {
    const results = await Promise.allSettled(["first", "second", "third"].map((text) => storage.put(NAME, Buffer.from(text), { contentType: "image/jpeg" })));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) if (result.status === "rejected") expect(result.reason).toBeInstanceOf(StorageError);
    expect(["first", "second", "third"]).toContain(await bucket.rawGet(NAME));
  });

  it("lists nothing, opens nothing and deletes nothing in an empty bucket", async () => {
    expect(await storage.list()).toEqual([]);
    expect(await storage.open(NAME)).toBeUndefined();
    expect(await storage.delete(NAME)).toBe(false);
  });

  describe("list", () => {
    /** 150 names, stored in shuffled order. */
    const names = Array.from({ length: 150 }, (_, index) => `${1700000000000 + index * 7}-aaaaaaaaa${String(index).padStart(3, "0")}.jpg`);
    const sorted = [...names].sort();

    beforeEach(async () => {
      const shuffled = [...names].sort((a, b) => (a.split("").reverse().join("") < b.split("").reverse().join("") ? -1 : 1));
      for (let index = 0; index < shuffled.length; index += 10) {
        await Promise.all(shuffled.slice(index, index + 10).map((name) => storage.put(name, Buffer.from(name), { contentType: "image/jpeg" })));
      }
      // Not objects: a temporary file, a stray note, a hidden file.
      await bucket.rawPut(".upload-0123456789abcdef", "half written");
      await bucket.rawPut("notes.txt", "not an image");
    });

    it("gives the first 100 by name by default", async () => {
      const page = await storage.list();
      expect(page.map((object) => object.name)).toEqual(sorted.slice(0, 100));
      expect(page[0]).toMatchObject({ size: sorted[0]!.length, modifiedAt: expect.any(Date) });
    });

    it("gives the remaining 50 from offset 100, and none past the end", async () => {
      expect((await storage.list({ offset: 100 })).map((object) => object.name)).toEqual(sorted.slice(100));
      expect(await storage.list({ offset: 150 })).toEqual([]);
      expect(await storage.list({ offset: 1000 })).toEqual([]);
    });

    it("takes a limit and an offset together, and the order descending", async () => {
      expect((await storage.list({ limit: 10, offset: 145 })).map((object) => object.name)).toEqual(sorted.slice(145));
      expect((await storage.list({ limit: 3, offset: 0, sortBy: { column: "name", order: "desc" } })).map((object) => object.name)).toEqual(
        [...sorted].reverse().slice(0, 3),
      );
      // Paging through in hundreds visits every object once.
      const seen = [...(await storage.list({ limit: 100, offset: 0 })), ...(await storage.list({ limit: 100, offset: 100 }))].map((o) => o.name);
      expect(seen).toEqual(sorted);
    });
  });
});

describe.runIf(s3Settings)("S3ImageStorage and the server's signature check", () => {
  it("is refused with a wrong secret, and stores nothing", async () => {
    const bucket = await createTestBucket();
    try {
      const forged = new S3ImageStorage(
        { ...bucket.config, credentials: { accessKeyId: bucket.config.credentials!.accessKeyId, secretAccessKey: "not-the-secret" } },
        IMAGE_NAMING,
      );
      const refusal = await forged.put(NAME, Buffer.from("forged"), { contentType: "image/jpeg" }).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ name: "SignatureDoesNotMatch", $metadata: { httpStatusCode: 403 } });
      await expect(forged.list()).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      expect(await bucket.keys()).toEqual([]);
    } finally {
      await bucket.cleanup();
    }
  });
});

/** What only a folder can hold: links and sub-folders with bucket names. */
describe("LocalDiskStorage", () => {
  let root: string;
  let directory: string;
  let storage: LocalDiskStorage;

  beforeAll(async () => {
    root = await makeTempDir("storage");
  });
  afterAll(() => removeTempDir(root));

  let counter = 0;
  beforeEach(async () => {
    const dataDir = path.join(root, `data-${counter++}`);
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, "app.sqlite"), "the database");
    directory = path.join(dataDir, "images");
    storage = new LocalDiskStorage(directory, IMAGE_NAMING);
  });

  it("leaves no temporary file behind when a put is refused", async () => {
    await storage.put(NAME, Buffer.from("original"), { contentType: "image/jpeg" });
    await expect(storage.put(NAME, Buffer.from("replacement"), { contentType: "image/jpeg" })).rejects.toThrow(StorageError);
    expect(await readdir(directory)).toEqual([NAME]);
  });

  it("does not open or read a link, even one with a bucket name pointing at a readable file", async () => {
    await mkdir(directory, { recursive: true });
    await symlink(path.join(path.dirname(directory), "app.sqlite"), path.join(directory, NAME));
    await symlink("../app.sqlite", path.join(directory, "1700000000000-abcdefghij02-480w.webp"));
    expect(await readFile(path.join(directory, NAME), "utf8")).toBe("the database");
    expect(await storage.open(NAME)).toBeUndefined();
    expect(await storage.open("1700000000000-abcdefghij02-480w.webp")).toBeUndefined();
    expect(await storage.read(NAME)).toBeUndefined();
    expect(await storage.read("1700000000000-abcdefghij02-480w.webp")).toBeUndefined();
    // Nor does it list them as objects.
    expect(await storage.list()).toEqual([]);
  });

  it("does not open or read a folder with a bucket name", async () => {
    await mkdir(path.join(directory, NAME), { recursive: true });
    expect(await storage.open(NAME)).toBeUndefined();
    expect(await storage.read(NAME)).toBeUndefined();
    expect(await storage.list()).toEqual([]);
  });

  it("lists nothing for a bucket folder that does not exist yet", async () => {
    expect(await storage.list()).toEqual([]);
    expect(await storage.open(NAME)).toBeUndefined();
    expect(await storage.delete(NAME)).toBe(false);
  });
});
