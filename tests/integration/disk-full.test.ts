/**
 * A full disk on SQLite (issue 19, decision 038): SQLite ends the
 * transaction by itself on SQLITE_FULL, and the rollback Kysely sends after it
 * used to fail with "cannot rollback - no transaction is active", which was
 * all the log said. Now the error that is reported is SQLITE_FULL's own, the
 * log says the disk is full, the dashboard says so while it lasts and for a
 * day after, and the site recovers by itself once there is room.
 *
 * Two real ways to fill it: SQLite's max_page_count (anywhere, in this
 * process), and a small filesystem of its own that the server's DATA_DIR is on
 * (where a test may mount one: root, as CI runs).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { isDiskFull } from "~/platform/db/database-health.server";
import { migrateToLatest, openDatabase } from "~/platform/db/db.server";
import { TEST_ADMIN_ENV, signInOverHttp } from "../support/admin-http";
import { backends } from "../support/backends";
import { NO_MAIL, postJson, validEnquiry } from "../support/enquiries";
import { assertBuilt, logLines, startServer, type SpawnedServer } from "../support/server";
import { canMountSmallDisk, mountSmallDisk, type SmallDisk } from "../support/small-disk";
import { waitFor } from "../support/wait";

const sqlite = backends.find((backend) => backend.name === "sqlite")!;

/** A long enquiry, so that each one needs new pages of the database. */
const bigEnquiry = (n: number) => ({
  ...validEnquiry,
  userType: "landlord" as const,
  message: Array.from({ length: 900 }, (_, i) => `Flat ${n}-${i} needs a new boiler.`)
    .join(" ")
    .slice(0, 19_000),
});

describe("a full disk on SQLite", () => {
  it("a transaction the disk cannot hold fails with SQLITE_FULL, not with the rollback after it; the log and the health say the disk is full until a write goes through", async () => {
    const database = await sqlite.createDatabase();
    const lines: string[] = [];
    const log = {
      error: (message: string) => void lines.push(`error: ${message}`),
      warn: (message: string) => void lines.push(`warn: ${message}`),
      info: (message: string) => void lines.push(`info: ${message}`),
    } as Parameters<typeof openDatabase>[1];
    const opened = openDatabase(database.options, log);
    try {
      await migrateToLatest(opened);
      // Room for no more pages than the database has now: the next that needs one finds the disk full.
      const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(opened.db);
      await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(opened.db);

      const failure = await saveEnquiry(opened.db, bigEnquiry(1), NO_MAIL).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure?.message).toBe("database or disk is full");
      expect(isDiskFull(failure)).toBe(true);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^error: The disk is full: the database cannot write \(database or disk is full \(SQLITE_FULL\)\)/);
      // A second one is counted, not logged again.
      await expect(saveEnquiry(opened.db, bigEnquiry(2), NO_MAIL)).rejects.toThrow("database or disk is full");
      expect(lines).toHaveLength(1);
      // Reads still work, and do not end it: nothing has been written yet.
      expect(await opened.db.selectFrom("contact_submissions").select("id").execute()).toEqual([]);
      expect(opened.health.recent(new Date())).toMatchObject([
        { kind: "disk-full", until: undefined, failures: 2, detail: "database or disk is full (SQLITE_FULL)" },
      ]);

      // Room again: the next enquiry is stored, and the episode ends.
      await sql.raw("pragma max_page_count = 1073741823").execute(opened.db);
      const stored = await saveEnquiry(opened.db, bigEnquiry(3), NO_MAIL);
      expect(await opened.db.selectFrom("contact_submissions").select("id").execute()).toEqual([{ id: stored.id }]);
      expect(lines[1]).toMatch(/^info: The database writes again: the disk had room again after [\d.]+ s \(2 queries failed\)$/);
      expect(opened.health.recent(new Date())).toMatchObject([{ kind: "disk-full", until: expect.any(Date), failures: 2 }]);
    } finally {
      await opened.close();
      await database.cleanup();
    }
  });
});

// Registered where this machine lets a test mount a filesystem (root; CI runs as root on Debian).
describe.runIf(await canMountSmallDisk())("DATA_DIR on a full filesystem", () => {
  let disk: SmallDisk | undefined;
  let server: SpawnedServer | undefined;

  beforeAll(async () => {
    assertBuilt();
    disk = await mountSmallDisk(8);
    server = await startServer({ DATA_DIR: disk!.dir, CONTACT_RATE_LIMIT: "100000", CONTACT_SITE_LIMIT: "100000", ...TEST_ADMIN_ENV });
  });

  afterAll(async () => {
    await server?.stop();
    await disk?.remove();
  });

  it("answers enquiries 503 with Retry-After, logs SQLITE_FULL, shows it on the dashboard, and recovers by itself once there is room", async () => {
    const running = server!;
    const cookie = await signInOverHttp(running);
    const dashboard = async () => {
      const response = await fetch(`${running.url}/admin`, { headers: { cookie } });
      expect(response.status).toBe(200);
      return response.text();
    };
    expect(await dashboard()).not.toContain("The disk");

    await disk!.fill();
    // What the database had room for is used up first; then every write finds the disk full.
    let refused: Response | undefined;
    let stored = 0;
    for (let n = 0; n < 500 && !refused; n++) {
      const response = await postJson(running.url, bigEnquiry(n));
      if (response.status === 503) refused = response;
      else expect(response.status).toBe(201);
      if (response.status === 201) stored++;
    }
    expect(refused, "an enquiry refused once the disk was full").toBeDefined();
    console.log(`DATA_DIR full: ${stored} more enquiries stored after the filesystem was filled, then 503`);
    expect(refused!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await refused!.json()) as { error: string }).error).toMatch(/try again/i);
    expect((await postJson(running.url, bigEnquiry(1_000))).status).toBe(503);

    const page = await dashboard();
    expect(page).toContain("The disk is full");
    expect(page).toContain("database or disk is full (SQLITE_FULL)");
    await waitFor("the log to name the full disk", () => running.stdout().includes("The disk is full"));
    const messages = logLines(running.stdout()).map((line) => `${line.msg} ${String(line.reason ?? "")}`);
    expect(messages.some((message) => message.startsWith("Could not store an enquiry: disk full: database or disk is full (SQLITE_FULL)"))).toBe(true);
    expect(messages.filter((message) => message.includes("cannot rollback"))).toEqual([]);

    // Room again: the site recovers by itself, and the dashboard says what happened.
    await disk!.free();
    const accepted = await postJson(running.url, bigEnquiry(2_000));
    expect(accepted.status).toBe(201);
    const after = await dashboard();
    expect(after).toContain("The disk was full");
    expect(after).not.toContain("The disk is full");
    await waitFor("the log to say the database writes again", () => running.stdout().includes("The database writes again"));
  });
});
