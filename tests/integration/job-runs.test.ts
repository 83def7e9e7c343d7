import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/platform/db/db.server";
import { claimJobRun, startFleetJob } from "~/platform/fleet/job-runs.server";
import { backends, type TestDatabase } from "../support/backends";

const HOUR = 60 * 60 * 1000;
const NOW = new Date("2026-11-25T09:00:00.000Z");

describe.each(backends)("work the fleet does once, on $name", (backend) => {
  let testDb: TestDatabase;
  /** Three instances: three connections (pools, on PostgreSQL) to one database. */
  let instances: Database[];

  beforeAll(async () => {
    testDb = await backend.createDatabase({ migrated: true });
    instances = [testDb.open(), testDb.open(), testDb.open()];
  });
  afterAll(() => testDb.cleanup());

  it("of several instances claiming a due run at once, exactly one gets it; none again until it is due", async () => {
    const claims = await Promise.all(instances.map((instance) => claimJobRun(instance.db, "claim-test", HOUR, NOW)));
    expect(claims.filter(Boolean)).toHaveLength(1);

    const almost = new Date(NOW.getTime() + HOUR - 1);
    expect(await Promise.all(instances.map((instance) => claimJobRun(instance.db, "claim-test", HOUR, almost)))).toEqual([false, false, false]);

    const due = new Date(NOW.getTime() + HOUR);
    const next = await Promise.all(instances.map((instance) => claimJobRun(instance.db, "claim-test", HOUR, due)));
    expect(next.filter(Boolean)).toHaveLength(1);
  });

  it("runs a job started on three instances once per period; a failed run is given back and taken by the next check", async () => {
    const PERIOD = 50;
    const clock = new Date(NOW.getTime() + 7 * HOUR);
    let checks = 0;
    let runs = 0;
    const errors: unknown[] = [];
    const jobs = instances.map((instance) =>
      startFleetJob(
        {
          db: instance.db,
          name: "every-period",
          everyMs: PERIOD,
          firstAfterMs: 0,
          // The clock stands still: after the run that succeeds, the job is never due again.
          now: () => {
            checks += 1;
            return clock;
          },
        },
        async () => {
          runs += 1;
          if (runs === 1) throw new Error("the work failed");
        },
        (error) => errors.push(error),
      ),
    );
    try {
      await vi.waitFor(() => expect(runs).toBe(2));
      const seen = checks;
      // Every instance checks a few more times: none of them runs it again.
      await vi.waitFor(() => expect(checks).toBeGreaterThan(seen + 9), { timeout: 10_000 });
      expect(runs).toBe(2);
      expect(errors.map((error) => (error as Error).message)).toEqual(["the work failed"]);
    } finally {
      for (const job of jobs) job.stop();
    }
  });

  if (backend.name === "sqlite") {
    it("a failed run the database would not take back at the time (it went away mid-run) is given back at the next check", async () => {
      const instance = testDb.open();
      // Fail fast on a locked database, as a write to a database that has gone away fails.
      await sql`pragma busy_timeout = 20`.execute(instance.db);
      const blocker = new DatabaseSync(testDb.sqliteFile!);
      const clock = new Date(NOW.getTime() + 30 * HOUR);
      let runs = 0;
      const errors: string[] = [];
      const job = startFleetJob(
        // The clock stands still: the claimed run comes round again only if it is given back.
        { db: instance.db, name: "given-back-late", everyMs: 100, firstAfterMs: 0, now: () => clock },
        async () => {
          runs += 1;
          if (runs === 1) {
            blocker.exec("begin exclusive");
            throw new Error("the database went away");
          }
        },
        (error) => errors.push((error as Error).message),
      );
      try {
        await vi.waitFor(() => expect(errors).toContain("the database went away"));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(runs).toBe(1);
        blocker.exec("commit");
        await vi.waitFor(() => expect(runs).toBe(2), { timeout: 5_000 });
      } finally {
        job.stop();
        if (blocker.isTransaction) blocker.exec("rollback");
        blocker.close();
      }
    });
  }
});
