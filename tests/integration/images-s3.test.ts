/**
 * Images in an S3 bucket (decision 034), through the built server and
 * `npm run admin`, on a real S3 server (S3_BUCKET and S3_ENDPOINT set; .ci/run
 * starts Ceph's RADOS Gateway): two instances share one bucket, so an image
 * uploaded through one is served by the other; deleting a project and
 * gc-images remove objects from the bucket; migrate-images copies a bucket
 * across and back, idempotently, and refuses to overwrite. Then
 * PUBLIC_IMAGES_URL, which needs no S3: the page links images there.
 */
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TEST_ADMIN_ENV, projectFields, signInOverHttp, uploadImage } from "../support/admin-http";
import { runAdmin } from "../support/admin-cli";
import { backends, type TestDatabase } from "../support/backends";
import { twoToneJpeg } from "../support/images";
import { createTestBucket, s3EnvOf, s3Settings, type TestBucket } from "../support/s3";
import { assertBuilt, startServer, type SpawnedServer } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";
import { useSite } from "../support/sites";

beforeAll(() => assertBuilt());

/** Every file under a folder, or none when it does not exist. */
async function filesUnder(directory: string): Promise<string[]> {
  return (await readdir(directory, { recursive: true }).catch(() => [] as string[])).sort();
}

async function postAdmin(server: SpawnedServer, cookie: string, fields: Record<string, string>) {
  const response = await fetch(`${server.url}/admin/projects`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: server.url, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, text: await response.text() };
}

// Uploads are a second of sharp each, more on a busy machine: these tests get twice the usual time.
describe.runIf(s3Settings).each(backends)("a fleet of two instances on one S3 bucket, on $name", { timeout: 120_000 }, (backend) => {
  let database: TestDatabase;
  let bucket: TestBucket;
  let otherDataDir: string;
  let first: SpawnedServer;
  let second: SpawnedServer;
  let cookie: string;

  // Two servers for the whole file (starting them is most of its time): each test looks at what it changed.
  beforeAll(async () => {
    database = await backend.createDatabase({ migrated: true });
    bucket = await createTestBucket();
    // Each instance has a DATA_DIR of its own; on SQLite they must share the database file in it.
    otherDataDir = backend.name === "postgres" ? await makeTempDir("second-instance") : database.env.DATA_DIR;
    const env = { ...database.env, ...TEST_ADMIN_ENV, ...s3EnvOf(bucket.config) };
    // One after the other: two first starts on one SQLite file at once only contend for its lock.
    first = await startServer(env);
    second = await startServer({ ...env, DATA_DIR: otherDataDir });
    cookie = await signInOverHttp(first);
  });

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await bucket?.cleanup();
    if (backend.name === "postgres" && otherDataDir) await removeTempDir(otherDataDir);
    await database?.cleanup();
  });

  it("serves an image uploaded through one instance from the other, with the same headers, and keeps nothing on disk", async () => {
    const answer = await uploadImage(first, cookie, { data: await twoToneJpeg(1200, 800), filename: "kitchen.jpg", type: "image/jpeg" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const name = answer.body.name!;
    const stem = name.replace(/\.jpg$/, "");
    const keys = (await bucket.keys()).filter((key) => key.startsWith(stem));
    // The image and its six copies (AVIF and WebP at three widths).
    expect(keys).toHaveLength(7);
    expect(keys).toContain(name);

    for (const key of [name, keys.find((key) => key.endsWith(".avif"))!]) {
      const fromSecond = await fetch(`${second.url}/images/${key}`);
      const fromFirst = await fetch(`${first.url}/images/${key}`);
      expect(fromSecond.status).toBe(200);
      const bytes = Buffer.from(await fromSecond.arrayBuffer());
      expect(bytes.equals((await bucket.rawGet(key))!)).toBe(true);
      expect(Buffer.from(await fromFirst.arrayBuffer()).equals(bytes)).toBe(true);
      for (const header of [
        "content-type",
        "content-length",
        "cache-control",
        "content-security-policy",
        "cross-origin-resource-policy",
        "x-content-type-options",
      ]) {
        expect(fromSecond.headers.get(header), header).toBe(fromFirst.headers.get(header));
      }
      expect(fromSecond.headers.get("content-type")).toBe(key.endsWith(".avif") ? "image/avif" : "image/jpeg");
      expect(fromSecond.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(fromSecond.headers.get("content-security-policy")).toContain("sandbox");
      expect(Number(fromSecond.headers.get("content-length"))).toBe(bytes.length);
    }
    const head = await fetch(`${second.url}/images/${name}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe((await bucket.rawGet(name))!.length);

    expect((await fetch(`${second.url}/images/1700000000000-abcdefghij01.jpg`)).status).toBe(404);
    expect(await filesUnder(path.join(database.env.DATA_DIR, "images"))).toEqual([]);
    expect(await filesUnder(path.join(otherDataDir, "images"))).toEqual([]);
  });

  it("removes a deleted project's images from the bucket, whichever instance the delete went to", async () => {
    const photo = await twoToneJpeg(1200, 800);
    const already = await bucket.keys();
    const before = await uploadImage(first, cookie, { data: photo, filename: "before.jpg", type: "image/jpeg" });
    const after = await uploadImage(first, cookie, { data: photo, filename: "after.jpg", type: "image/jpeg" });
    const created = await postAdmin(first, cookie, projectFields("Bucket Kitchen", { before_image_url: before.body.url!, after_image_url: after.body.url! }));
    expect(created.status, created.text.slice(0, 300)).toBe(302);
    expect(await bucket.keys()).toHaveLength(already.length + 14);

    const projects = (await (await fetch(`${second.url}/api/projects`)).json()) as { id: string; title: string }[];
    const project = projects.find((candidate) => candidate.title === "Bucket Kitchen")!;
    const secondCookie = await signInOverHttp(second);
    const deleted = await postAdmin(second, secondCookie, { intent: "delete-project", id: project.id, confirmed: "yes" });
    expect(deleted.status).toBe(200);
    expect(await bucket.keys()).toEqual(already);
    expect((await fetch(`${first.url}${before.body.url}`)).status).toBe(404);
  });

  it("gc-images removes from the bucket the uploads no project uses, and keeps the ones a project does", async () => {
    const photo = await twoToneJpeg(1200, 800);
    const used = [
      await uploadImage(first, cookie, { data: photo, filename: "a.jpg", type: "image/jpeg" }),
      await uploadImage(first, cookie, { data: photo, filename: "b.jpg", type: "image/jpeg" }),
    ];
    expect((await postAdmin(first, cookie, projectFields("Kept", { before_image_url: used[0]!.body.url!, after_image_url: used[1]!.body.url! }))).status).toBe(
      302,
    );
    const unused = await uploadImage(second, cookie, { data: photo, filename: "c.jpg", type: "image/jpeg" });
    const stems = [...used, unused].map((answer) => answer.body.name!.replace(/\.jpg$/, ""));
    const all = await bucket.keys();
    const inUse = all.filter((key) => stems.slice(0, 2).some((stem) => key.startsWith(stem)));
    expect(inUse).toHaveLength(14);
    expect(all.filter((key) => key.startsWith(stems[2]!))).toHaveLength(7);

    const run = await runAdmin({ ...database.env, ...s3EnvOf(bucket.config) }, ["gc-images", "--min-age=0"]);
    expect(run.stderr).not.toContain(bucket.config.credentials!.secretAccessKey);
    expect(run.code, run.stderr).toBe(0);
    // Whatever earlier tests left unused goes too; the project's 14 files stay.
    expect(run.stdout).toContain(`Removed ${all.length - 14} unused files; 14 in use`);
    expect(await bucket.keys()).toEqual(inUse);
    expect((await fetch(`${second.url}${used[0]!.body.url}`)).status).toBe(200);
    expect((await fetch(`${second.url}${unused.body.url}`)).status).toBe(404);
  });
});

describe.runIf(s3Settings)("npm run admin -- migrate-images", () => {
  let dataDir: string;
  let bucket: TestBucket;
  const files: Record<string, string> = {
    "1700000000000-aaaaaaaaaaa1.jpg": "first image",
    "1700000000000-aaaaaaaaaaa1-480w.avif": "its small copy",
    "1700000000001-bbbbbbbbbbb2.png": "second image",
  };

  beforeEach(async () => {
    dataDir = await makeTempDir("migrate");
    bucket = await createTestBucket();
    await mkdir(path.join(dataDir, "images"), { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dataDir, "images", name), text);
    // Not an image of ours: never copied.
    await writeFile(path.join(dataDir, "images", "notes.txt"), "a note");
  });
  afterEach(async () => {
    await bucket.cleanup();
    await removeTempDir(dataDir);
  });

  const migrate = (to: string, directory = dataDir) => runAdmin({ DATA_DIR: directory, ...s3EnvOf(bucket.config) }, ["migrate-images", "--to", to]);

  it("copies every image to the bucket and back, checks each, and copies nothing twice", async () => {
    const first = await migrate("s3");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("Copied 3 files; 0 already there; all 3 read back and identical.");
    expect(await bucket.keys()).toEqual(Object.keys(files).sort());
    for (const [name, text] of Object.entries(files)) expect((await bucket.rawGet(name))!.toString()).toBe(text);

    const again = await migrate("s3");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("Copied 0 files; 3 already there; all 3 read back and identical.");

    const elsewhere = await makeTempDir("migrate-back");
    try {
      const back = await migrate("disk", elsewhere);
      expect(back.code, back.stderr).toBe(0);
      expect(back.stdout).toContain("Copied 3 files");
      expect(await filesUnder(path.join(elsewhere, "images"))).toEqual(Object.keys(files).sort());
      for (const [name, text] of Object.entries(files)) expect(await readFile(path.join(elsewhere, "images", name), "utf8")).toBe(text);
    } finally {
      await removeTempDir(elsewhere);
    }
  });

  it("never overwrites an object that differs at the target: names it and fails, and copies the rest", async () => {
    await bucket.rawPut("1700000000001-bbbbbbbbbbb2.png", "something else");
    const run = await migrate("s3");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("1700000000001-bbbbbbbbbbb2.png: the target has other bytes under this name; left as it is.");
    expect(run.stdout).toContain("Copied 2 files");
    expect((await bucket.rawGet("1700000000001-bbbbbbbbbbb2.png"))!.toString()).toBe("something else");
    expect(await readFile(path.join(dataDir, "images", "1700000000001-bbbbbbbbbbb2.png"), "utf8")).toBe("second image");
  });

  it.each([[[]], [["--to"]], [["--to", "ftp"]], [["--to", "s3", "extra"]]])("refuses the arguments %j and copies nothing", async (args) => {
    const run = await runAdmin({ DATA_DIR: dataDir, ...s3EnvOf(bucket.config) }, ["migrate-images", ...args]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Expected --to s3 or --to disk");
    expect(await bucket.keys()).toEqual([]);
  });
});

describe("npm run admin -- migrate-images without S3_BUCKET", () => {
  it("says which variables to set", async () => {
    const dataDir = await makeTempDir("migrate-unset");
    try {
      const run = await runAdmin({ DATA_DIR: dataDir }, ["migrate-images", "--to", "s3"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Set S3_BUCKET");
    } finally {
      await removeTempDir(dataDir);
    }
  });
});

describe("PUBLIC_IMAGES_URL", () => {
  const site = useSite(backends[0]!, { env: { PUBLIC_IMAGES_URL: "https://cdn.example.net/acme" } });

  it("links the page's pictures there, allows that origin in the page's CSP, and keeps /images/<name> working", async () => {
    const { server, cookie } = site;
    const photo = await twoToneJpeg(1200, 800);
    const before = await uploadImage(server, cookie, { data: photo, filename: "before.jpg", type: "image/jpeg" });
    const after = await uploadImage(server, cookie, { data: photo, filename: "after.jpg", type: "image/jpeg" });
    expect(
      (await postAdmin(server, cookie, projectFields("On The CDN", { before_image_url: before.body.url!, after_image_url: after.body.url! }))).status,
    ).toBe(302);

    const page = await fetch(`${server.url}/`);
    const html = await page.text();
    const stem = before.body.name!.replace(/\.jpg$/, "");
    expect(html).toContain(`src="https://cdn.example.net/acme/${before.body.name}"`);
    expect(html).toContain(`https://cdn.example.net/acme/${stem}-480w.avif 480w`);
    expect(html).not.toContain(`"/images/${before.body.name}"`);
    expect(html).not.toContain(`/images/${stem}-480w.avif`);
    const imgSrc = /img-src ([^;]*)/.exec(page.headers.get("content-security-policy") ?? "")?.[1];
    expect(imgSrc?.split(" ")).toContain("https://cdn.example.net");

    // The API and the stored project keep the address that identifies the image, which still works.
    const projects = (await (await fetch(`${server.url}/api/projects`)).json()) as { before_image_url: string }[];
    expect(projects[0]!.before_image_url).toBe(`/images/${before.body.name}`);
    expect((await fetch(`${server.url}/images/${before.body.name}`)).status).toBe(200);
  });
});
