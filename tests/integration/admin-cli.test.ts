import { randomBytes } from "node:crypto";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { plainLog } from "~/platform/observe/log.server";
import { findAdminByEmail } from "~/auth/admins.server";
import { verifyPassword } from "~/auth/password.server";
import { memberActor } from "~/audit/actor";
import { createSession, findSession } from "~/auth/sessions.server";
import { confirmTotpSetup, startTotpSetup, twoStepStatus } from "~/auth/totp.server";
import { signIn } from "~/auth/sign-in.server";
import { saveImage } from "~/images/images.server";
import { createProject } from "~/projects/projects.server";
import { LocalDiskStorage } from "~/platform/storage/storage.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { backends } from "../support/backends";
import { runAdmin } from "../support/admin-cli";
import { assertBuilt } from "../support/server";
import { TEST_ACTOR } from "../support/actors";
import { useDatabase } from "../support/sites";
import { expectOk, totpCodeAt } from "../support/auth-domain";

const PASSWORD = "a long admin password";

describe.each(backends)("npm run admin on $name", (backend) => {
  const data = useDatabase(backend);
  /** `npm run admin -- <args>` on this database. */
  const admin = (args: string[], input?: string) => runAdmin(data.database.env, args, input);
  beforeAll(() => assertBuilt());

  it("shows its commands, and fails on an unknown one", async () => {
    const help = await admin(["help"]);
    expect(help.code).toBe(0);
    for (const command of ["create", "set-password", "list", "delete", "remove-sign-in-factors"]) expect(help.stdout).toContain(command);
    const unknown = await admin(["promote", "x@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown command "promote"');
  });

  it("creates an admin with the password from stdin, stored as an Argon2id hash", async () => {
    const run = await admin(["create", "Owner@Example.com"], `${PASSWORD}\n`);
    expect(run.stderr).not.toContain(PASSWORD);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Created the owner owner@example.com");
    expect((await findAdminByEmail(data.db, "owner@example.com"))?.role).toBe("owner");
    const stored = await findAdminByEmail(data.db, "owner@example.com");
    expect(stored?.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(PASSWORD, stored!.password_hash)).toBe(true);
  });

  it("refuses a second admin with the same e-mail in another case", async () => {
    const run = await admin(["create", "OWNER@example.com"], `${PASSWORD}\n`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("already exists");
  });

  it("never takes a password from the command line", async () => {
    const run = await admin(["create", "argv@example.com", PASSWORD]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Passwords are not taken from the command line");
    expect(await findAdminByEmail(data.db, "argv@example.com")).toBeUndefined();
  });

  it("refuses a short password, an empty stdin and a malformed e-mail, creating nothing", async () => {
    const short = await admin(["create", "short@example.com"], "hunter2\n");
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("at least 12 characters");
    const empty = await admin(["create", "empty@example.com"], "");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("No password on stdin");
    const malformed = await admin(["create", "not-an-address"], `${PASSWORD}\n`);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain("is not an e-mail address");
    for (const email of ["short@example.com", "empty@example.com"]) {
      expect(await findAdminByEmail(data.db, email)).toBeUndefined();
    }
  });

  it("lists the admins with their active sessions", async () => {
    const owner = await findAdminByEmail(data.db, "owner@example.com");
    await createSession(data.db, owner!.id);
    const run = await admin(["list"]);
    expect(run.code).toBe(0);
    const line = run.stdout.split("\n").find((text) => text.startsWith("owner@example.com"));
    expect(line).toMatch(/^owner@example\.com\s+Owner\s+\d{1,2} \w{3} \d{4}, \d{2}:\d{2}\s+1\s+/);
  });

  it("set-password changes the password and ends every session of that admin", async () => {
    const owner = await findAdminByEmail(data.db, "owner@example.com");
    const { token } = await createSession(data.db, owner!.id);
    expect(await findSession(data.db, token)).toBeDefined();
    const run = await admin(["set-password", "owner@example.com"], "a brand new passphrase\n");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/ended [1-9]\d* sessions?/);
    expect(await findSession(data.db, token)).toBeUndefined();
    const updated = await findAdminByEmail(data.db, "owner@example.com");
    expect(await verifyPassword("a brand new passphrase", updated!.password_hash)).toBe(true);
    expect(await verifyPassword(PASSWORD, updated!.password_hash)).toBe(false);
  });

  it("unlock lifts a lockout without changing the password", async () => {
    const attempt = { email: "owner@example.com", limit: 100, log: plainLog(() => {}) };
    for (let i = 0; i < 10; i++) {
      await signIn(data.db, { ...attempt, password: "wrong guess", clientIp: `198.51.100.${i}` });
    }
    const locked = await signIn(data.db, { ...attempt, password: "a brand new passphrase", clientIp: "203.0.113.9" });
    expect(locked).toMatchObject({ ok: false, reason: "limited" });
    const run = await admin(["unlock", "owner@example.com"]);
    expect(run.code).toBe(0);
    const unlocked = await signIn(data.db, { ...attempt, password: "a brand new passphrase", clientIp: "203.0.113.9" });
    expect(unlocked.ok).toBe(true);
  });

  it("remove-sign-in-factors takes away a member's two-step sign-in, recovery codes and passkeys, and ends their sessions", async () => {
    const owner = (await findAdminByEmail(data.db, "owner@example.com"))!;
    const now = new Date();
    const setup = await startTotpSetup(data.db, { adminId: owner.id, email: owner.email, issuer: "Example Lettings" }, now);
    const member = memberActor({ adminId: owner.id, email: owner.email, role: owner.role }, "192.0.2.1");
    expectOk(await confirmTotpSetup(data.db, { member, code: totpCodeAt(setup, now), now }));
    const { token } = await createSession(data.db, owner.id);

    const run = await admin(["remove-sign-in-factors", "Owner@example.com"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Removed two-step sign-in, 10 unused recovery codes and 0 passkeys of owner@example.com; ended 1 session.");
    expect(await twoStepStatus(data.db, owner.id)).toMatchObject({ on: false, recoveryCodesLeft: 0 });
    expect(await findSession(data.db, token)).toBeUndefined();
    const entry = await data.db.selectFrom("audit_log").selectAll().where("action", "=", "sign-in-factors-removed").executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_type: "cli", actor_label: "npm run admin -- remove-sign-in-factors", target_id: owner.id });

    const unknown = await admin(["remove-sign-in-factors", "nobody@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("There is no admin with the e-mail nobody@example.com.");
  });

  it("delete removes the admin and their sessions, never the last owner; deleting again says there is none", async () => {
    const owner = await findAdminByEmail(data.db, "owner@example.com");
    const { token } = await createSession(data.db, owner!.id);
    const last = await admin(["delete", "owner@example.com"]);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain("There must always be at least one owner.");
    expect(await findSession(data.db, token), "refused: nothing changed").toBeDefined();
    expect((await admin(["create", "second.owner@example.com"], `${PASSWORD}\n`)).code).toBe(0);

    const run = await admin(["delete", "owner@example.com"]);
    expect(run.code).toBe(0);
    expect(await findAdminByEmail(data.db, "owner@example.com")).toBeUndefined();
    expect(await findSession(data.db, token)).toBeUndefined();
    const again = await admin(["delete", "owner@example.com"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("There is no admin with the e-mail owner@example.com");
  });

  describe("gc-images", () => {
    const HOUR = 3_600_000;
    let imagesDir: string;

    /** An image as stored long ago: a row (unless `row: false`) and files for the main image and two copies (unless `files: false`). */
    async function oldImage(hoursAgo: number, options: { row?: boolean; files?: boolean } = {}) {
      const stem = `${Date.now() - hoursAgo * HOUR}-${randomBytes(6).toString("hex")}`;
      const name = `${stem}.jpg`;
      const variants = [480, 960].map((width) => ({ name: `${stem}-${width}w.webp`, width, height: width / 2, format: "webp" }));
      const files = [name, ...variants.map((variant) => variant.name)];
      if (options.files !== false) {
        await mkdir(imagesDir, { recursive: true });
        for (const file of files) await writeFile(path.join(imagesDir, file), `bytes of ${file}`);
      }
      if (options.row !== false) {
        await data.db
          .insertInto("images")
          .values({
            name,
            content_type: "image/jpeg",
            width: 960,
            height: 480,
            bytes: 100,
            variants: JSON.stringify(variants),
            created_at: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
          })
          .execute();
      }
      return { url: `/images/${name}`, name, files };
    }

    const project = (title: string, before: string, after: string, isActive = true) =>
      createProject(
        data.db,
        {
          title,
          category: "Kitchen Renovation",
          description: "For the image clean-up.",
          duration: "1 week",
          budget: "£1,000",
          before_image_url: before,
          after_image_url: after,
          is_active: isActive,
        },
        TEST_ACTOR,
      );

    const rowNames = async () => (await data.db.selectFrom("images").select("name").execute()).map((row) => row.name).sort();
    const filesNow = async () => (await readdir(imagesDir)).sort();

    beforeAll(() => {
      imagesDir = path.join(data.database.env.DATA_DIR, "images");
    });

    it("removes old images no project uses, with their copies and rows; keeps used ones, young ones and files not its own", async () => {
      const usedBefore = await oldImage(100);
      const usedAfter = await oldImage(50);
      const usedByHidden = await oldImage(72);
      await project("Uses Two Old Images", usedBefore.url, usedAfter.url);
      await project("Hidden But Still Using", usedByHidden.url, usedAfter.url, false);
      const unusedRecorded = await oldImage(48);
      const strayFiles = await oldImage(30, { row: false });
      const rowWithoutFiles = await oldImage(40, { files: false });
      const justOverMinAge = await oldImage(25);
      // Young: an upload made a moment ago (through the real pipeline) for a form not saved yet, and a young stray file.
      const storage = new LocalDiskStorage(imagesDir, IMAGE_NAMING);
      const young = await saveImage(
        { db: data.db, storage },
        await sharp({ create: { width: 64, height: 48, channels: 3, background: "#808080" } })
          .jpeg()
          .toBuffer(),
        TEST_ACTOR,
      );
      const youngFiles = [young.name, ...young.variants.map((variant) => variant.name)];
      const youngStray = `${Date.now() - HOUR}-${randomBytes(6).toString("hex")}.png`;
      await writeFile(path.join(imagesDir, youngStray), "young stray");
      // Not bucket names: never touched.
      await writeFile(path.join(imagesDir, ".upload-0123456789abcdef"), "being written");
      await writeFile(path.join(imagesDir, "README.txt"), "not an image");

      const used = [...usedBefore.files, ...usedAfter.files, ...usedByHidden.files];
      const removed = [...unusedRecorded.files, ...strayFiles.files, ...justOverMinAge.files];
      const kept = [...used, ...youngFiles, youngStray, ".upload-0123456789abcdef", "README.txt"];
      expect(await filesNow()).toEqual([...kept, ...removed].sort());

      const run = await admin(["gc-images"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(
        `Removed ${removed.length} unused files; ${used.length} in use; ${youngFiles.length + 1} unused but younger than 24 hours kept.`,
      );
      expect(await filesNow()).toEqual([...kept].sort());
      expect(await rowNames()).toEqual([usedBefore.name, usedAfter.name, usedByHidden.name, young.name].sort());
      expect(rowWithoutFiles.name).not.toBe(young.name);

      // Nothing left to do at the default age.
      const again = await admin(["gc-images"]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`Removed 0 unused files; ${used.length} in use;`);
      expect(await filesNow()).toEqual([...kept].sort());

      // --min-age=0: the young ones go too; what projects use stays.
      const all = await admin(["gc-images", "--min-age=0"]);
      expect(all.code, all.stderr).toBe(0);
      expect(all.stdout).toContain(`Removed ${youngFiles.length + 1} unused files; ${used.length} in use; 0 unused but younger than 0 hours kept.`);
      expect(await filesNow()).toEqual([...used, ".upload-0123456789abcdef", "README.txt"].sort());
      expect(await rowNames()).toEqual([usedBefore.name, usedAfter.name, usedByHidden.name].sort());
    });

    it("--min-age=<hours> keeps what is younger than that many hours", async () => {
      const threeHours = await oldImage(3);
      const tenHours = await oldImage(10);
      const run = await admin(["gc-images", "--min-age=5"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`Removed ${tenHours.files.length} unused files;`);
      expect(run.stdout).toContain(`${threeHours.files.length} unused but younger than 5 hours kept.`);
      const files = await filesNow();
      for (const file of threeHours.files) expect(files).toContain(file);
      for (const file of tenHours.files) expect(files).not.toContain(file);
      expect(await rowNames()).toContain(threeHours.name);
      expect(await rowNames()).not.toContain(tenHours.name);
    });

    it("refuses a malformed --min-age, removing nothing", async () => {
      const old = await oldImage(100);
      for (const args of [["--min-age=soon"], ["--min-age=-1"], ["--min-age"], ["--older-than=5"], ["--min-age=1", "extra"]]) {
        const run = await admin(["gc-images", ...args]);
        expect(run.code, args.join(" ")).toBe(1);
        expect(run.stderr.length, args.join(" ")).toBeGreaterThan(0);
      }
      const files = await filesNow();
      for (const file of old.files) expect(files).toContain(file);
      expect(await rowNames()).toContain(old.name);
    });
  });
});
