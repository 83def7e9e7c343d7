/**
 * Migration 025 (decision 086) on a site that ran before it, on each backend:
 * the limits' places already taken are kept and still counted, a place taken
 * and given back goes by the table's new key, and lifting a lockout clears a
 * member's failed sign-ins as before.
 */
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "~/platform/db/db.server";
import { clearEvents, countEvents, takeSlot } from "~/platform/limits/rate-limit.server";
import { useDatabaseBefore } from "../support/sites";
import { backends } from "../support/backends";

describe.each(backends)("migration 025 on $name", (backend) => {
  const database = useDatabaseBefore(backend, "025");

  it("keeps the places taken before it, counts them, and gives one back by its key", async () => {
    const now = new Date("2026-11-27T12:00:00.000Z");
    const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
    const untyped = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    // Written as the code before 025 wrote them; two at the same moment for the same subject.
    await untyped
      .insertInto("rate_limit_events")
      .values([
        { id: "e1", bucket: "contact-submission", subject: "203.0.113.9", created_at: minutesAgo(50) },
        { id: "e2", bucket: "contact-submission", subject: "203.0.113.9", created_at: minutesAgo(5) },
        { id: "e3", bucket: "contact-submission", subject: "203.0.113.9", created_at: minutesAgo(5) },
        { id: "e4", bucket: "contact-site", subject: "site", created_at: minutesAgo(90) },
        { id: "e5", bucket: "login-failure", subject: "203.0.113.9 owner@example.com", created_at: minutesAgo(1) },
      ])
      .execute();

    expect(await migrateToLatest(database)).toEqual(["025-less-written-per-enquiry"]);

    const hour = 60 * 60_000;
    expect(await countEvents(database.db, "contact-submission", "203.0.113.9", hour, now)).toBe(3);
    expect(await countEvents(database.db, "contact-site", "site", hour, now)).toBe(0);
    // The fourth place of three is refused; a place taken and given back leaves the others.
    expect(await takeSlot(database.db, "contact-submission", "203.0.113.9", { limit: 3, windowMs: hour, now })).toMatchObject({ ok: false });
    const slot = await takeSlot(database.db, "contact-submission", "203.0.113.9", { limit: 4, windowMs: hour, now });
    expect(slot).toMatchObject({ ok: true, used: 4 });
    if (!slot.ok) return;
    await slot.release();
    expect(await countEvents(database.db, "contact-submission", "203.0.113.9", hour, now)).toBe(3);
    const ids = await untyped.selectFrom("rate_limit_events").select("id").orderBy("id").execute();
    expect(ids.map((row) => row.id)).toEqual(["e1", "e2", "e3", "e4", "e5"]);

    await clearEvents(database.db, "login-failure", "203.0.113.9 owner@example.com");
    expect(await countEvents(database.db, "login-failure", "203.0.113.9 owner@example.com", hour, now)).toBe(0);
    expect(await countEvents(database.db, "contact-submission", "203.0.113.9", hour, now)).toBe(3);
  });

  it("drops the three indexes nothing reads, and keeps the others", async () => {
    await migrateToLatest(database);
    const indexes = await indexesOf(database.db, "contact_submissions");
    expect(indexes).not.toContain("contact_submissions_created_idx");
    expect(indexes).not.toContain("contact_submissions_email_idx");
    expect(indexes).not.toContain("contact_submissions_read_created_idx");
    expect(indexes).toEqual(
      expect.arrayContaining(["contact_submissions_created_id_idx", "contact_submissions_spam_read_created_idx", "contact_submissions_email_folded_idx"]),
    );
    expect(await indexesOf(database.db, "rate_limit_events")).toContain("rate_limit_events_created_idx");
  });
});

async function indexesOf(db: object, table: string): Promise<string[]> {
  const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const sqlite = await untyped
    .selectFrom("sqlite_master")
    .select("name")
    .where("type", "=", "index")
    .where("tbl_name", "=", table)
    .execute()
    .catch(() => undefined);
  if (sqlite) return sqlite.map((row) => String(row.name));
  const postgres = await untyped.selectFrom("pg_indexes").select("indexname").where("tablename", "=", table).execute();
  return postgres.map((row) => String(row.indexname));
}
