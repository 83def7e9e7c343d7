/**
 * Migration 013 (the sign-in factors) on each backend: on a site that ran
 * 012, the outbox keeps its jobs, 012's columns, indexes and checks (its kind
 * check already takes password resets: 013 rebuilds nothing), and gains only
 * when a job runs out; and inside one transaction, as a restore builds the
 * schema (decision 040), it runs and is undone with the rest.
 */
import { sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest, type Database } from "~/platform/db/db.server";
import { migrations } from "~/platform/db/migrations";
import { useDatabaseBefore } from "../support/sites";
import { backends } from "../support/backends";

const AT = "2026-11-20T10:00:00.000Z";

async function tableNames(database: Database): Promise<string[]> {
  const query =
    database.dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`;
  return (await query.execute(database.db)).rows.map((row) => row.name).sort();
}

async function outboxIndexes(database: Database): Promise<string[]> {
  const query =
    database.dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'email_outbox' and sql is not null`
      : sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'email_outbox' and indexname like '%idx'`;
  return (await query.execute(database.db)).rows.map((row) => row.name).sort();
}

const FACTOR_TABLES = ["passkeys", "password_resets", "pending_sign_ins", "recovery_codes", "sign_in_policy", "totp_factors", "webauthn_challenges"];

describe.each(backends)("migration 013 on $name", (backend) => {
  describe("on a site that ran 012", () => {
    const database = useDatabaseBefore(backend, "013");

    it("keeps the outbox's jobs with 012's columns, indexes and checks, and adds only expires_at", async () => {
      const indexesBefore = await outboxIndexes(database);
      expect(indexesBefore).toEqual(["email_outbox_due_idx", "email_outbox_invitation_idx", "email_outbox_status_idx", "email_outbox_submission_idx"]);
      // Written as the code of 012 writes them: an enquiry's e-mail, an invitation with its link kept apart, a reset.
      const untyped = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const common = { message: "{}", status: "queued", attempts: 0, next_attempt_at: AT, created_at: AT, updated_at: AT };
      const jobs = [
        { ...common, id: "j1", submission_id: "s1", kind: "notification", invitation_id: null, link: null },
        { ...common, id: "j2", submission_id: null, kind: "invitation", invitation_id: "i1", link: "https://x/admin/join?token=t" },
        { ...common, id: "j3", submission_id: null, kind: "password-reset", invitation_id: null, link: null },
      ];
      await untyped.insertInto("email_outbox").values(jobs).execute();

      expect(await migrateToLatest(database)).toEqual([
        "013-sign-in-factors",
        "014-join-with-a-passkey",
        "015-enquiry-status",
        "016-enquiry-notes",
        "017-valuation-requests",
        "018-enquiry-search",
        "019-enquiry-replies",
        "020-first-response",
        "021-assignment-and-follow-up",
        "022-enquiry-counts",
        "023-search-the-property",
        "024-search-index-per-commit",
        "025-less-written-per-enquiry",
      ]);

      const kept = await database.db
        .selectFrom("email_outbox")
        .select(["id", "submission_id", "kind", "invitation_id", "link", "message", "status", "expires_at"])
        .orderBy("id")
        .execute();
      expect(kept).toEqual(
        jobs.map(({ id, submission_id, kind, invitation_id, link }) => ({
          id,
          submission_id,
          kind,
          invitation_id,
          link,
          message: "{}",
          status: "queued",
          expires_at: null,
        })),
      );
      expect(await outboxIndexes(database)).toEqual(indexesBefore);
      // 012's checks stand: a kind of no one's, a status of no one's, are refused by the table itself.
      await expect(
        untyped
          .insertInto("email_outbox")
          .values({ ...common, id: "j4", kind: "newsletter" })
          .execute(),
      ).rejects.toThrow(/check/i);
      await expect(
        untyped
          .insertInto("email_outbox")
          .values({ ...common, id: "j5", kind: "notification", status: "lost" })
          .execute(),
      ).rejects.toThrow(/check/i);
      // A reset job that runs out.
      await database.db
        .insertInto("email_outbox")
        .values({
          id: "j6",
          submission_id: null,
          kind: "password-reset",
          message: "{}",
          next_attempt_at: AT,
          lease_token: null,
          lease_until: null,
          last_error: null,
          sent_at: null,
          expires_at: AT,
        })
        .execute();

      expect(await tableNames(database)).toEqual(expect.arrayContaining(FACTOR_TABLES));
      const policy = await database.db.selectFrom("sign_in_policy").selectAll().execute();
      expect(policy.map((row) => ({ id: Number(row.id), required: Boolean(row.second_factor_required) }))).toEqual([{ id: 1, required: false }]);
    });
  });

  it("runs inside one transaction with every migration before it, and is undone with them (a restore's schema)", async () => {
    const testDb = await backend.createDatabase();
    try {
      const database = testDb.open();
      const undo = new Error("the restore failed after the schema was built");
      let built: string[] = [];
      const outcome = await database.db
        .transaction()
        .execute(async (trx) => {
          for (const migration of Object.values(migrations)) await migration.up(trx as unknown as Kysely<unknown>, database.dialect);
          const query =
            database.dialect === "sqlite"
              ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
              : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`;
          built = (await query.execute(trx)).rows.map((row) => row.name);
          throw undo;
        })
        .catch((error: unknown) => error);
      expect(outcome).toBe(undo);
      expect(built).toEqual(expect.arrayContaining([...FACTOR_TABLES, "email_outbox", "audit_log", "admin_invitations"]));
      // Nothing of it was committed on its own.
      expect(await tableNames(database)).toEqual([]);
    } finally {
      await testDb.cleanup();
    }
  });
});
