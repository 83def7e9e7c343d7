import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { toIsoString } from "~/platform/db/db-values";
import { preparedInsert, preparedQuery } from "~/platform/db/prepared.server";
import { backends } from "../support/backends";
import { useDatabase } from "../support/sites";

/*
 * The hot path's queries are built and compiled once and run again with each
 * call's values (platform/db/prepared.server.ts, decision 065): every call must
 * store and read its own values, never those the query was first built with.
 */
describe.each(backends)("queries compiled once on $name", (backend) => {
  const data = useDatabase(backend);
  const insertEvents = preparedInsert("rate_limit_events");
  const countFor = preparedQuery(["subject", "after"], (db, p: { subject: string; after: string }) =>
    db
      .selectFrom("rate_limit_events")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("subject", "=", p.subject)
      .where("created_at", ">", p.after),
  );
  const event = (id: string, subject: string, at: string) => ({ id, bucket: "contact-submission" as const, subject, created_at: at });

  it("inserts each call's own rows, one row or several", async () => {
    await insertEvents(data.db, [event("p-1", "prepared-a", "2026-11-27T09:00:00.000Z")]);
    await insertEvents(data.db, [event("p-2", "prepared-b", "2026-11-27T09:01:00.000Z")]);
    await insertEvents(data.db, [event("p-3", "prepared-b", "2026-11-27T09:02:00.000Z"), event("p-4", "prepared-c", "2026-11-27T09:03:00.000Z")]);
    const rows = await data.db
      .selectFrom("rate_limit_events")
      .select(["id", "subject", "created_at"])
      .where("id", "in", ["p-1", "p-2", "p-3", "p-4"])
      .orderBy("id")
      .execute();
    expect(rows.map((row) => ({ ...row, created_at: toIsoString(row.created_at) }))).toEqual([
      { id: "p-1", subject: "prepared-a", created_at: "2026-11-27T09:00:00.000Z" },
      { id: "p-2", subject: "prepared-b", created_at: "2026-11-27T09:01:00.000Z" },
      { id: "p-3", subject: "prepared-b", created_at: "2026-11-27T09:02:00.000Z" },
      { id: "p-4", subject: "prepared-c", created_at: "2026-11-27T09:03:00.000Z" },
    ]);
  });

  it("stores a row that names more columns, and one that leaves some out, each as given", async () => {
    const insertSubmission = preparedInsert("contact_submissions");
    const base = { name: "Ada", email: "ada@example.com", email_folded: "ada@example.com", phone: null, user_type: "landlord" as const };
    const common = { is_read: false, spam_reason: null, spam_signals: null };
    await insertSubmission(data.db, [{ id: "s-1", ...base, message: "first", ...common, created_at: "2026-11-27T09:00:00.000Z" }]);
    await insertSubmission(data.db, [
      { id: "s-2", ...base, message: "second", ...common, created_at: "2026-11-27T09:01:00.000Z", kind: "valuation", details: '{"postcode":"LS1 6AF"}' },
    ]);
    await insertSubmission(data.db, [{ id: "s-3", ...base, message: "third", ...common, created_at: "2026-11-27T09:02:00.000Z", kind: undefined }]);
    const rows = await data.db
      .selectFrom("contact_submissions")
      .select(["id", "message", "kind", "details", "is_read"])
      .where("id", "in", ["s-1", "s-2", "s-3"])
      .orderBy("id")
      .execute();
    expect(rows.map((row) => ({ ...row, is_read: Boolean(row.is_read) }))).toEqual([
      { id: "s-1", message: "first", kind: "contact", details: null, is_read: false },
      { id: "s-2", message: "second", kind: "valuation", details: '{"postcode":"LS1 6AF"}', is_read: false },
      { id: "s-3", message: "third", kind: "contact", details: null, is_read: false },
    ]);
  });

  it("reads with each call's own values", async () => {
    await insertEvents(data.db, [event("q-1", "query-a", "2026-11-27T10:00:00.000Z"), event("q-2", "query-a", "2026-11-27T10:05:00.000Z")]);
    await insertEvents(data.db, [event("q-3", "query-b", "2026-11-27T10:00:00.000Z")]);
    const count = async (subject: string, after: string) => Number((await countFor(data.db, { subject, after })).rows[0]!.count);
    expect(await count("query-a", "2026-11-27T09:59:00.000Z")).toBe(2);
    expect(await count("query-a", "2026-11-27T10:01:00.000Z")).toBe(1);
    expect(await count("query-b", "2026-11-27T09:59:00.000Z")).toBe(1);
    expect(await count("query-c", "2026-11-27T09:59:00.000Z")).toBe(0);
  });

  it("builds a query afresh each time when an argument is not bound as a value (written into the SQL text)", async () => {
    const literal = preparedQuery(["subject"], (db, p: { subject: string }) =>
      db
        .selectFrom("rate_limit_events")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("subject", "=", sql.lit(p.subject)),
    );
    await insertEvents(data.db, [event("l-1", "literal-a", "2026-11-27T11:00:00.000Z")]);
    expect(Number((await literal(data.db, { subject: "literal-a" })).rows[0]!.count)).toBe(1);
    expect(Number((await literal(data.db, { subject: "literal-b" })).rows[0]!.count)).toBe(0);
  });
});
