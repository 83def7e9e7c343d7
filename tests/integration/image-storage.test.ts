/**
 * The images bucket on local disk (LocalDiskStorage): it takes bare names the
 * bucket hands out and nothing else, never overwrites, never follows a link
 * out of its folder, and lists by name in pages (SPEC §9: limit 100, offset 0).
 */
import { mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LocalDiskStorage, StorageError } from "~/platform/storage.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { makeTempDir, removeTempDir } from "../support/temp";

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
    // A bucket of its own for each test, inside a folder that holds other things too.
    const dataDir = path.join(root, `data-${counter++}`);
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, "app.sqlite"), "the database");
    directory = path.join(dataDir, "images");
    storage = new LocalDiskStorage(directory, IMAGE_NAMING);
  });

  /** Everything under the bucket's parent folder, recursively. */
  async function tree(): Promise<string[]> {
    return (await readdir(path.dirname(directory), { recursive: true })).sort();
  }

  describe("refuses anything but a bucket name", () => {
    it.each(BAD_NAMES.map((name) => [JSON.stringify(name), name]))("%s: put, delete and url refuse it, open and read find nothing", async (_label, name) => {
      await storage.put(NAME, Buffer.from("a real image"), { contentType: "image/jpeg" });
      const before = await tree();
      await expect(storage.put(name, Buffer.from("overwrite attempt"), { contentType: "image/jpeg" })).rejects.toThrow(StorageError);
      await expect(storage.delete(name)).rejects.toThrow(StorageError);
      expect(() => storage.url(name)).toThrow(StorageError);
      expect(await storage.open(name)).toBeUndefined();
      expect(await storage.read(name)).toBeUndefined();
      expect(await tree()).toEqual(before);
      expect(await readFile(path.join(path.dirname(directory), "app.sqlite"), "utf8")).toBe("the database");
      expect(await readFile(path.join(directory, NAME), "utf8")).toBe("a real image");
    });
  });

  it("stores, opens, reads, names and deletes an object", async () => {
    const data = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    await storage.put(NAME, data, { contentType: "image/jpeg" });
    expect(storage.url(NAME)).toBe(`/images/${NAME}`);
    const opened = await storage.open(NAME);
    expect(opened).toMatchObject({ size: data.length, contentType: "image/jpeg" });
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(data);
    expect(Buffer.from((await storage.read(NAME))!)).toEqual(data);
    expect(await storage.list()).toMatchObject([{ name: NAME, size: data.length }]);
    expect(await storage.delete(NAME)).toBe(true);
    expect(await storage.delete(NAME)).toBe(false);
    expect(await storage.open(NAME)).toBeUndefined();
    expect(await storage.read(NAME)).toBeUndefined();
    expect(await storage.list()).toEqual([]);
  });

  it("never overwrites: a second put of the same name rejects and the original stays", async () => {
    await storage.put(NAME, Buffer.from("original"), { contentType: "image/jpeg" });
    await expect(storage.put(NAME, Buffer.from("replacement"), { contentType: "image/jpeg" })).rejects.toThrow(StorageError);
    expect(await readFile(path.join(directory, NAME), "utf8")).toBe("original");
    // No temporary file is left behind by either put.
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

  it("lists nothing for a bucket that does not exist yet", async () => {
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
      for (const name of shuffled) await storage.put(name, Buffer.from(name), { contentType: "image/jpeg" });
      // Not objects: a temporary file, a stray note, a hidden file.
      await writeFile(path.join(directory, ".upload-0123456789abcdef"), "half written");
      await writeFile(path.join(directory, "notes.txt"), "not an image");
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
