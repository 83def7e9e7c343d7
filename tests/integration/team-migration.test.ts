/**
 * Migration 012 on a site that ran before it, on each backend: every existing
 * admin becomes an owner, and the e-mail outbox keeps its jobs while it
 * learns the invitation's kind and link (a rebuilt table on SQLite).
 */
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "~/platform/db/db.server";
import { useDatabaseBefore } from "../support/sites";
import { backends } from "../support/backends";

describe.each(backends)("migration 012 on $name", (backend) => {
  // The site as it was before 012.
  const database = useDatabaseBefore(backend, "012");

  it("makes every existing admin an owner and keeps the outbox's jobs", async () => {
    const at = "2026-11-20T10:00:00.000Z";
    // Written as the code before 012 wrote them (no role, no link).
    const untyped = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await untyped
      .insertInto("admin_users")
      .values([
        { id: "a1", email: "first@example.com", password_hash: "$argon2id$x", created_at: at, updated_at: at },
        { id: "a2", email: "second@example.com", password_hash: "$argon2id$y", created_at: at, updated_at: at },
      ])
      .execute();
    const job = {
      id: "j1",
      submission_id: "s1",
      kind: "notification",
      message: '{"subject":"New enquiry"}',
      status: "failed",
      attempts: 3,
      next_attempt_at: at,
      last_error: "421 try later",
      created_at: at,
      updated_at: at,
    };
    await untyped.insertInto("email_outbox").values(job).execute();

    // 013 (the sign-in factors) and 014 follow, and must keep what 012 made of the outbox.
    expect(await migrateToLatest(database)).toEqual([
      "012-team-and-audit",
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

    const admins = await database.db.selectFrom("admin_users").select(["email", "role", "name"]).orderBy("email").execute();
    expect(admins).toEqual([
      { email: "first@example.com", role: "owner", name: null },
      { email: "second@example.com", role: "owner", name: null },
    ]);
    const kept = await database.db.selectFrom("email_outbox").selectAll().executeTakeFirstOrThrow();
    expect({
      ...kept,
      attempts: Number(kept.attempts),
      next_attempt_at: new Date(kept.next_attempt_at!).toISOString(),
      created_at: new Date(kept.created_at).toISOString(),
      updated_at: new Date(kept.updated_at).toISOString(),
    }).toEqual({
      ...job,
      lease_token: null,
      lease_until: null,
      sent_at: null,
      invitation_id: null,
      link: null,
      expires_at: null,
    });

    // The new kinds go in; anything else is refused by the table itself, as before.
    const now = new Date().toISOString();
    await database.db
      .insertInto("email_outbox")
      .values({
        id: "j2",
        submission_id: null,
        kind: "invitation",
        message: "{}",
        next_attempt_at: now,
        lease_token: null,
        lease_until: null,
        last_error: null,
        sent_at: null,
        link: "https://x/admin/join?token=t",
      })
      .execute();
    await expect(untyped.insertInto("email_outbox").values({ id: "j3", kind: "newsletter", message: "{}", next_attempt_at: now }).execute()).rejects.toThrow(
      /check/i,
    );
    await expect(untyped.updateTable("admin_users").set({ role: "superuser" }).where("id", "=", "a1").execute()).rejects.toThrow(/check/i);
  });
});
