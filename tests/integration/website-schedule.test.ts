/**
 * Scheduled publishing and moving a site between installations (issue 15):
 * a publish set for a London date and time happens then, once, on one
 * instance even when two run on one database; `export-site` and
 * `import-site` round-trip the content, and a bad file changes nothing.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { siteDefaults, type SiteContent } from "~/website/content";
import { fromLondonTime, toLondonTime } from "~/platform/dates";
import { publishDue, readSchedule, schedulePublish } from "~/website/schedule.server";
import { listVersions, readDraft, readLive, saveDraft } from "~/website/website.server";
import { runAdmin } from "../support/admin-cli";
import { TEST_ADMIN_ENV, postAdminForm, signInOverHttp } from "../support/admin-http";
import { backends } from "../support/backends";
import { rawRequest } from "../support/http";
import { assertBuilt, startServer, type SpawnedServer } from "../support/server";
import { useDatabase } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

const DEFAULTS = siteDefaults();

describe("London time", () => {
  it.each([
    ["2026-12-01T09:00", "2026-12-01T09:00:00.000Z"], // GMT
    ["2026-07-01T09:00", "2026-07-01T08:00:00.000Z"], // BST
    ["2027-03-28T00:30", "2027-03-28T00:30:00.000Z"], // before the clocks go forward at 01:00 GMT
    ["2027-03-28T02:30", "2027-03-28T01:30:00.000Z"], // after
    ["2026-10-25T00:30", "2026-10-24T23:30:00.000Z"], // BST, before the clocks go back
  ])("%s in London is %s", (local, utc) => {
    expect(fromLondonTime(local)?.toISOString()).toBe(utc);
    expect(toLondonTime(new Date(utc))).toBe(local);
  });

  it.each(["", "2026-13-01T09:00", "2026-02-30T09:00", "2026-12-01 09:00", "2026-12-01T24:00", "tomorrow"])("refuses %j", (local) => {
    expect(fromLondonTime(local)).toBeUndefined();
  });
});

beforeAll(() => assertBuilt());

describe.each(backends)("scheduled publishing and site files on $name", (backend) => {
  const data = useDatabase(backend);

  const edit = async (name: string) => {
    const draft = await readDraft(data.db, DEFAULTS);
    const content: SiteContent = { ...draft.content, company: { ...draft.content.company, name } };
    expect(
      (await saveDraft(data.db, { content, defaults: DEFAULTS, baseRevision: draft.revision, by: "editor@example.com", actor: TEST_ACTOR, now: new Date() }))
        .ok,
    ).toBe(true);
    return (await readDraft(data.db, DEFAULTS)).revision;
  };

  it("publishes the draft as it was when scheduled, at its time, once; later edits stay in the draft", async () => {
    const revision = await edit("Scheduled Lettings Ltd");
    const at = new Date("2026-12-01T09:00:00Z");
    expect(
      await schedulePublish(data.db, {
        defaults: DEFAULTS,
        baseRevision: revision,
        publishAt: at,
        by: "editor@example.com",
        actor: TEST_ACTOR,
        now: new Date(),
      }),
    ).toEqual({ ok: true });
    expect(
      await schedulePublish(data.db, {
        defaults: DEFAULTS,
        baseRevision: revision - 1,
        publishAt: at,
        by: "editor@example.com",
        actor: TEST_ACTOR,
        now: new Date(),
      }),
    ).toEqual({
      ok: false,
      reason: "stale",
    });
    await edit("Edited After Scheduling Ltd");

    expect(await publishDue(data.db, new Date("2026-12-01T08:59:59Z"))).toBeUndefined();
    expect((await readLive(data.db, DEFAULTS)).version).toBeUndefined();
    // Two instances find it due at the same moment: one publishes it.
    const results = await Promise.all([publishDue(data.db, at), publishDue(data.db, at), publishDue(data.db, at)]);
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    const live = await readLive(data.db, DEFAULTS);
    expect(live.content.company.name).toBe("Scheduled Lettings Ltd");
    expect((await listVersions(data.db))[0]).toMatchObject({ publishedBy: "editor@example.com (scheduled)" });
    expect(await readSchedule(data.db)).toBeUndefined();
    expect(await publishDue(data.db, new Date("2026-12-02T00:00:00Z"))).toBeUndefined();
    const draft = await readDraft(data.db, DEFAULTS);
    expect(draft.content.company.name).toBe("Edited After Scheduling Ltd");
    expect(draft.unpublished).toBe(true);
  });

  it("export-site writes live and draft; import-site reads them back into another installation; a bad file changes nothing", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "site-file-"));
    try {
      const file = path.join(dir, "site.json");
      const exported = await runAdmin(data.database.env, ["export-site", file]);
      expect(exported.stderr.split("\n").filter((line) => /error/i.test(line))).toEqual([]);
      expect(exported.code).toBe(0);
      expect(exported.stdout).toMatch(/^Wrote the website's content to .*site\.json \(live: version \d+\), with the unpublished draft\.$/m);
      const json = JSON.parse(await readFile(file, "utf8"));
      expect(json).toMatchObject({
        format: "property-management-site",
        version: 1,
        live: { company: { name: "Scheduled Lettings Ltd" } },
        draft: { company: { name: "Edited After Scheduling Ltd" } },
      });
      expect((await runAdmin(data.database.env, ["export-site", file])).stderr).toContain("exists already");

      const other = await backend.createDatabase({ migrated: true });
      try {
        const otherDb = other.open();
        const before = await readDraft(otherDb.db, DEFAULTS);
        const broken = path.join(dir, "broken.json");
        for (const bad of [
          "not json",
          JSON.stringify({ format: "something-else" }),
          JSON.stringify({ ...json, draft: { ...json.draft, company: { ...json.draft.company, email: "not an address" } } }),
        ]) {
          await writeFile(broken, bad);
          const refused = await runAdmin(other.env, ["import-site", broken, "--publish"]);
          expect(refused.code, bad.slice(0, 40)).toBe(1);
          expect(await readDraft(otherDb.db, DEFAULTS)).toEqual(before);
          expect((await readLive(otherDb.db, DEFAULTS)).version).toBeUndefined();
        }
        const imported = await runAdmin(other.env, ["import-site", file]);
        expect(imported.code).toBe(0);
        expect(imported.stdout).toContain("Imported the draft exported");
        expect((await readDraft(otherDb.db, DEFAULTS)).content.company.name).toBe("Edited After Scheduling Ltd");
        expect((await readLive(otherDb.db, DEFAULTS)).version).toBeUndefined();
        const published = await runAdmin(other.env, ["import-site", file, "--publish"]);
        expect(published.stdout).toMatch(/Published: version 1 is live\./);
        expect((await readLive(otherDb.db, DEFAULTS)).content).toEqual((await readDraft(data.db, DEFAULTS)).content);
      } finally {
        await other.cleanup();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a running server publishes at the time set in the Website tab, with nobody signed in", async () => {
    const server: SpawnedServer = await startServer({ ...data.database.env, ...TEST_ADMIN_ENV });
    // A second instance on the same PostgreSQL database: the publish still happens once.
    const second: SpawnedServer | undefined = backend.name === "postgres" ? await startServer({ ...data.database.env }) : undefined;
    try {
      const cookie = await signInOverHttp(server);
      const revision = await edit("Published On Time Ltd");
      const versionsBefore = (await listVersions(data.db)).length;
      const post = (fields: Record<string, string>) => postAdminForm(server, cookie, "/admin/website", fields);
      const past = await post({ intent: "schedule", revision: String(revision), publishAt: toLondonTime(new Date(Date.now() - 120_000)) });
      expect(past.status).toBe(400);
      expect(past.text).toContain("That time has passed.");
      // A minute boundary the form can express, a little ahead: then the server's next check (every 20 s) publishes it.
      const when = new Date(Math.ceil((Date.now() + 5_000) / 60_000) * 60_000);
      const scheduled = await post({ intent: "schedule", revision: String(revision), publishAt: toLondonTime(when) });
      expect(scheduled.status).toBe(302);
      const tab = await rawRequest(server.port, { method: "GET", path: "/admin/website", headers: { cookie } });
      expect(tab.text).toContain("Publishing is scheduled for");
      expect((await rawRequest(server.port, { method: "GET", path: "/" })).text).not.toContain("Published On Time Ltd");

      const deadline = when.getTime() + 45_000;
      let home = "";
      while (Date.now() < deadline) {
        home = (await rawRequest(server.port, { method: "GET", path: "/" })).text;
        if (home.includes("Published On Time Ltd")) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      expect(home).toContain("Published On Time Ltd");
      expect(Date.now()).toBeGreaterThanOrEqual(when.getTime());
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect((await listVersions(data.db)).length).toBe(versionsBefore + 1);
    } finally {
      await second?.stop();
      await server.stop();
    }
  }, 120_000);
});
