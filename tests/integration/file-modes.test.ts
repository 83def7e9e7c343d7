/**
 * What the server writes in DATA_DIR is its user's alone: the folder, the
 * SQLite database and its log, the images folder and every image, whatever
 * the umask it was started with (a typical 022 here). So is what
 * `npm run admin -- export-site` writes, wherever it is told to.
 */
import { chmodSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../support/admin-cli";
import { TEST_ADMIN_ENV, signInOverHttp, uploadImage } from "../support/admin-http";
import { twoToneJpeg } from "../support/images";
import { assertBuilt, startServer, type SpawnedServer } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

beforeAll(() => assertBuilt());

describe("file modes in DATA_DIR", () => {
  let root: string;
  let server: SpawnedServer | undefined;

  beforeAll(async () => {
    root = await makeTempDir("modes");
    // The test runner's parent folder may be shared: the server's files must not be, whatever it is.
    chmodSync(root, 0o755);
  });
  afterAll(async () => {
    await server?.stop();
    await removeTempDir(root);
  });

  it("creates DATA_DIR, the database, its log, the images folder and each image readable by the server's user only", async () => {
    const dataDir = path.join(root, "new", "data");
    server = await startServer({ DATA_DIR: dataDir, ...TEST_ADMIN_ENV });
    const answer = await uploadImage(server, await signInOverHttp(server), { data: await twoToneJpeg(64, 48), filename: "a.jpg", type: "image/jpeg" });
    expect(answer.status).toBe(201);

    expect(modeOf(dataDir)).toBe("700");
    expect(modeOf(path.join(dataDir, "app.sqlite"))).toBe("600");
    expect(modeOf(path.join(dataDir, "app.sqlite-wal"))).toBe("600");
    expect(modeOf(path.join(dataDir, "images"))).toBe("700");
    expect(modeOf(path.join(dataDir, "images", answer.body.name!))).toBe("600");
    expect(server.stdout() + server.stderr()).not.toContain("can be read by other users");
    await server.stop();
    server = undefined;
  });

  it("says at start when an existing DATA_DIR can be read by others, and leaves its mode alone", async () => {
    const dataDir = path.join(root, "shared");
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    server = await startServer({ DATA_DIR: dataDir });
    expect(server.stdout()).toContain(`DATA_DIR ${dataDir} can be read by other users of this machine (mode 755)`);
    expect(modeOf(dataDir)).toBe("755");
    expect(modeOf(path.join(dataDir, "app.sqlite"))).toBe("600");
  });

  it("export-site writes its file readable by the server's user only, like a backup", async () => {
    const dataDir = path.join(root, "export-data");
    const file = path.join(root, "site.json");
    const exported = await runAdmin({ DATA_DIR: dataDir }, ["export-site", file]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(modeOf(file)).toBe("600");
  });
});
