import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { insertEnquiry } from "~/enquiries/enquiries.server";
import { migrateToLatest, type Database, type Db } from "~/platform/db/db.server";
import { groupCommits } from "~/platform/db/group-commit.server";
import { takeSlots, takeSlotsIn } from "~/platform/limits/rate-limit.server";
import type { DatabaseSchema } from "~/platform/db/schema";
import { openSqlite } from "~/platform/db/sqlite-driver.server";
import { backends, type TestDatabase } from "../support/backends";
import { NO_MAIL } from "../support/enquiries";

const ENQUIRY = { name: "Grace Hopper", email: "grace@example.com", userType: "landlord", message: "Please call me about my flat." } as const;
const WINDOW_MS = 60 * 60 * 1000;

/** An enquiry as submitEnquiry stores one: its places under the limits, then the enquiry, in one piece of work. */
async function enquiry(trx: Db, message: string, limit = 1_000, now = new Date()): Promise<string | "refused"> {
  const slots = await takeSlotsIn(
    trx,
    [
      { bucket: "contact-submission", subject: "203.0.113.9", limit },
      { bucket: "contact-site", subject: "site", limit },
    ],
    { windowMs: WINDOW_MS, now },
  );
  if (!slots.ok) return "refused";
  return (await insertEnquiry(trx, { ...ENQUIRY, message }, { ...NO_MAIL, now })).id;
}

async function storedMessages(db: Db): Promise<string[]> {
  const rows = await db.selectFrom("contact_submissions").select("message").orderBy("message").execute();
  return rows.map((row) => row.message);
}

async function events(db: Db): Promise<number> {
  const row = await db
    .selectFrom("rate_limit_events")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(backends)("grouped commits on $name", (backend) => {
  let testDb: TestDatabase;
  let database: Database;

  const setup = async () => {
    testDb = await backend.createDatabase();
    database = testDb.open();
    await migrateToLatest(database);
  };
  afterEach(async () => {
    await testDb?.cleanup();
  });

  it("stores concurrent enquiries, and one that fails fails alone: its places and rows are rolled back, the others' kept", async () => {
    await setup();
    const transactions = groupCommits(database.db);
    const outcomes = await Promise.allSettled(
      ["first", "second", "failing", "fourth"].map((message) =>
        transactions.run(async (trx) => {
          const id = await enquiry(trx, message);
          if (message === "failing") throw new Error("this enquiry's own fault");
          return id;
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ message: "this enquiry's own fault" });
    // Another connection sees the three that were acknowledged, and nothing of the one that failed.
    const other = testDb.open();
    expect(await storedMessages(other.db)).toEqual(["first", "fourth", "second"]);
    expect(await events(other.db), "two places per stored enquiry, none for the failed one").toBe(6);
  });

  it("counts places exactly across enquiries stored together, in later commits, and by another connection meanwhile", async () => {
    await setup();
    const transactions = groupCommits(database.db);
    const now = new Date();
    // Five places: three taken together, then one in a later commit…
    const together = await Promise.all([1, 2, 3].map((n) => transactions.run((trx) => enquiry(trx, `together ${n}`, 5, now))));
    expect(together).not.toContain("refused");
    expect(await transactions.run((trx) => enquiry(trx, "later", 5, now))).not.toBe("refused");
    // …one by another connection (another instance, the admin CLI) between commits…
    const other = testDb.open();
    await takeSlots(other.db, [{ bucket: "contact-submission", subject: "203.0.113.9", limit: 5 }], { windowMs: WINDOW_MS, now });
    await takeSlots(other.db, [{ bucket: "contact-site", subject: "site", limit: 5 }], { windowMs: WINDOW_MS, now });
    // …so none is left.
    expect(await transactions.run((trx) => enquiry(trx, "one too many", 5, now))).toBe("refused");
    expect((await storedMessages(other.db)).length).toBe(4);
  });

  it("gives a refused enquiry's pieces no places and takes the next ones where they are", async () => {
    await setup();
    const transactions = groupCommits(database.db);
    const now = new Date();
    const outcomes = await Promise.allSettled(
      [1, 2, 3, 4].map((n) =>
        transactions.run(async (trx) => {
          const id = await enquiry(trx, `enquiry ${n}`, 3, now);
          if (n === 2) throw new Error("failed after taking its places");
          return id;
        }),
      ),
    );
    // The second gave its places back when it rolled back: the third and fourth fit in three.
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value !== "refused" : "failed"))).toEqual([true, "failed", true, true]);
    expect(await transactions.run((trx) => enquiry(trx, "enquiry 5", 3, now))).toBe("refused");
  });
});

/** Grouping is SQLite's alone: PostgreSQL groups its WAL flushes itself, and there `run` is a plain transaction. */
describe("grouped commits on SQLite's one connection", () => {
  let testDb: TestDatabase;
  afterEach(async () => {
    await testDb?.cleanup();
  });

  /** A migrated SQLite database, and the same file through a connection whose statements the test sees. */
  async function loggedConnection() {
    testDb = await backends.find((backend) => backend.name === "sqlite")!.createDatabase();
    await migrateToLatest(testDb.open());
    const statements: string[] = [];
    const { database: connection } = openSqlite(testDb.sqliteFile!);
    const logged = new Kysely<DatabaseSchema>({
      dialect: new SqliteDialect({ database: connection }),
      log: (event) => void statements.push(event.query.sql.trim().toLowerCase()),
    });
    return { statements, logged };
  }

  it("commits the enquiries that arrive together once, and acknowledges each only after that commit", async () => {
    const { statements, logged } = await loggedConnection();
    try {
      const transactions = groupCommits(logged);
      const reader = testDb.open();
      const seenAtAcknowledgement: number[] = [];
      await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          transactions
            .run((trx) => enquiry(trx, `enquiry ${n}`))
            .then(async () => {
              seenAtAcknowledgement.push((await storedMessages(reader.db)).length);
            }),
        ),
      );
      expect(statements.filter((statement) => statement === "commit")).toHaveLength(1);
      expect(statements.filter((statement) => statement === "savepoint grouped")).toHaveLength(5);
      // Each was acknowledged when all five were on disk, not one by one.
      expect(seenAtAcknowledgement).toEqual([5, 5, 5, 5, 5]);
      // Work handed in later is the next commit.
      await transactions.run((trx) => enquiry(trx, "enquiry 6"));
      expect(statements.filter((statement) => statement === "commit")).toHaveLength(2);
      expect((await sql<{ n: number }>`select count(*) as n from contact_submissions`.execute(reader.db)).rows[0]!.n).toBe(6);
    } finally {
      await logged.destroy();
    }
  });

  it("counts a subject's places in full once, not again in each later batch, the search index's rows included", async () => {
    const { statements, logged } = await loggedConnection();
    const fullCounts = () => statements.filter((statement) => statement.includes('as "recent"')).length;
    try {
      const transactions = groupCommits(logged);
      await Promise.all([1, 2, 3].map((n) => transactions.run((trx) => enquiry(trx, `first batch ${n}`))));
      // One full count per subject (the connection's and the site's), kept for the batch's other pieces.
      expect(fullCounts()).toBe(2);
      for (const batch of [2, 3]) await Promise.all([1, 2, 3].map((n) => transactions.run((trx) => enquiry(trx, `batch ${batch}, ${n}`))));
      // Nothing but the batches wrote: the later ones count only the events that left the window.
      expect(fullCounts()).toBe(2);
      const reader = testDb.open();
      expect(
        (await sql<{ n: number }>`select count(*) as n from contact_submissions_search where contact_submissions_search match 'batch'`.execute(reader.db))
          .rows[0]!.n,
      ).toBe(9);
    } finally {
      await logged.destroy();
    }
  });

  it("runs no count at all for later pieces while none of the events counted can have left the window", async () => {
    const { statements, logged } = await loggedConnection();
    const windowReads = () => statements.filter((statement) => statement.startsWith("select") && statement.includes('"rate_limit_events"')).length;
    try {
      const transactions = groupCommits(logged);
      const start = Date.now();
      // A batch a second: the window's start moves on, but no event is old enough to leave it.
      for (const batch of [0, 1, 2, 3]) {
        const now = new Date(start + batch * 1000);
        await Promise.all([1, 2, 3].map((n) => transactions.run((trx) => enquiry(trx, `batch ${batch}, ${n}`, 1_000, now))));
      }
      // The first piece's full count per subject, and nothing after.
      expect(windowReads()).toBe(2);
    } finally {
      await logged.destroy();
    }
  });

  it("counts exactly when remembered events leave the window between batches", async () => {
    const { statements, logged } = await loggedConnection();
    try {
      const transactions = groupCommits(logged);
      const start = Date.now() - 2 * WINDOW_MS;
      const at = (ms: number) => new Date(start + ms);
      // Three places of three: two at the start, one ten minutes on.
      await Promise.all([1, 2].map((n) => transactions.run((trx) => enquiry(trx, `early ${n}`, 3, at(0)))));
      expect(await transactions.run((trx) => enquiry(trx, "ten minutes on", 3, at(10 * 60_000)))).not.toBe("refused");
      expect(await transactions.run((trx) => enquiry(trx, "full", 3, at(20 * 60_000)))).toBe("refused");
      // The first two leave the window: two places free up, not three.
      const later = at(WINDOW_MS + 1);
      const outcomes = await Promise.all([1, 2, 3].map((n) => transactions.run((trx) => enquiry(trx, `later ${n}`, 3, later))));
      expect(outcomes.map((outcome) => outcome !== "refused")).toEqual([true, true, false]);
      // The third left as well: one more.
      const last = at(WINDOW_MS + 10 * 60_000 + 1);
      expect(await transactions.run((trx) => enquiry(trx, "last", 3, last))).not.toBe("refused");
      expect(await transactions.run((trx) => enquiry(trx, "over", 3, last))).toBe("refused");
      expect(statements.filter((statement) => statement === "commit").length).toBeGreaterThan(3);
    } finally {
      await logged.destroy();
    }
  });
});
