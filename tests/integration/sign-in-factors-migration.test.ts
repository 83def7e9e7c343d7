/**
 * Migration 015 on a database that already holds e-mail jobs, on each
 * backend: the outbox keeps its rows and indexes, and takes kinds beyond the
 * enquiry e-mails once the old check on kind is gone.
 */
import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { Migrator, type Migration } from "kysely/migration";
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "~/platform/db/db.server";
import { migrations } from "~/platform/db/migrations";
import { backends } from "../support/backends";

describe.each(backends)("migration 015 on $name", (backend) => {
  it("keeps the outbox's jobs and indexes, and lets it hold a password-reset job", async () => {
    const testDatabase = await backend.createDatabase();
    try {
      const database = testDatabase.open();
      const provider = {
        getMigrations: async (): Promise<Record<string, Migration>> =>
          Object.fromEntries(
            Object.entries(migrations).map(([name, migration]) => [name, { up: (db: Kysely<unknown>) => migration.up(db, database.dialect) }]),
          ),
      };
      const { error } = await new Migrator({ db: database.db, provider }).migrateTo("010-job-runs");
      expect(error).toBeUndefined();
      const job = { id: randomUUID(), submission_id: "s1", kind: "notification" as const, message: "{}", next_attempt_at: new Date().toISOString() };
      await database.db.insertInto("email_outbox").values(job).execute();
      const refusedBefore = await database.db
        .insertInto("email_outbox")
        .values({ ...job, id: randomUUID(), kind: "password-reset" })
        .execute()
        .then(
          () => false,
          () => true,
        );
      expect(refusedBefore).toBe(true);

      expect(await migrateToLatest(database)).toEqual(["015-sign-in-factors"]);
      expect(
        await database.db.selectFrom("email_outbox").select(["id", "submission_id", "kind", "message", "status", "attempts", "expires_at"]).execute(),
      ).toEqual([{ id: job.id, submission_id: "s1", kind: "notification", message: "{}", status: "queued", attempts: 0, expires_at: null }]);
      await database.db
        .insertInto("email_outbox")
        .values({ ...job, id: randomUUID(), submission_id: null, kind: "password-reset" })
        .execute();
      const indexes =
        backend.name === "sqlite"
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'email_outbox' and sql is not null`.execute(
              database.db,
            )
          : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'email_outbox' and indexname like '%idx'`.execute(
              database.db,
            );
      expect(indexes.rows.map((row) => row.name).sort()).toEqual(["email_outbox_due_idx", "email_outbox_status_idx", "email_outbox_submission_idx"]);
      // The status is still checked.
      await expect(
        database.db
          .insertInto("email_outbox")
          .values({ ...job, id: randomUUID(), status: "lost" as "sent" })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await testDatabase.cleanup();
    }
  });
});
