import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { insertEnquiry } from "~/enquiries/enquiries.server";
import { parseSearch } from "~/enquiries/inbox";
import { listSubmissions } from "~/enquiries/inbox.server";
import { knownSchema } from "~/platform/backup/database-backup.server";
import type { Db } from "~/platform/db/db.server";
import { groupCommits } from "~/platform/db/group-commit.server";
import { migrations } from "~/platform/db/migrations";
import { backends } from "../support/backends";
import { NO_MAIL } from "../support/enquiries";
import { useDatabase, type OpenDatabase } from "../support/sites";

/** The helpers of both blocks, on the database of `data` (emptied of enquiries before each test). */
function searchIndex(data: OpenDatabase, sqlite: boolean) {
  beforeEach(async () => {
    await data.db.deleteFrom("contact_submissions").execute();
  });

  /** Names the inbox's search finds for `search`, read by another connection (committed data only). */
  const found = async (search: string, db: Db = data.db) =>
    (await listSubmissions(db, { filter: "all", search: parseSearch(search) })).submissions.map((submission) => submission.name).sort();

  const store = (trx: Db, name: string, message: string) =>
    insertEnquiry(trx, { name, email: `${name.toLowerCase().replaceAll(" ", ".")}@example.com`, userType: "landlord", message }, NO_MAIL);

  /** SQLite: the enquiries left out of the index, and what search_pending and search_deferral hold, as committed. */
  async function indexState() {
    if (!sqlite) return { missing: 0, extra: 0, pending: 0, deferral: 0 };
    const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(data.db)).rows[0]!.n);
    return {
      missing: await count(
        sql`select count(*) as n from contact_submissions c where not exists (select 1 from contact_submissions_search_docsize d where d.id = c.rowid)`,
      ),
      extra: await count(
        sql`select count(*) as n from contact_submissions_search_docsize d where not exists (select 1 from contact_submissions c where c.rowid = d.id)`,
      ),
      pending: await count(sql`select count(*) as n from search_pending`),
      deferral: await count(sql`select count(*) as n from search_deferral`),
    };
  }
  const inStep = { missing: 0, extra: 0, pending: 0, deferral: 0 };

  return { found, store, indexState, inStep };
}

/**
 * The search index written once per grouped commit on SQLite (migration 024,
 * decision 070): every writer keeps it in step in its own transaction, and
 * no committed state leaves an enquiry out of it. PostgreSQL's index is its
 * own; the same answers are asked of it.
 */
describe.each(backends)("the search index and grouped commits on $name", (backend) => {
  const data = useDatabase(backend);
  const { found, store, indexState, inStep } = searchIndex(data, backend.name === "sqlite");

  it("finds every enquiry of a grouped commit as soon as it is acknowledged, and nothing of one that failed alone", async () => {
    const transactions = groupCommits(data.reader.db);
    const words = ["Quokka", "Narwhal", "Axolotl", "Pangolin", "Okapi", "Tapir"];
    const seen: Record<string, string[]> = {};
    const outcomes = await Promise.allSettled(
      words.map((word) =>
        transactions
          .run(async (trx) => {
            await store(trx, `${word} Owner`, `A flat above the ${word} Inn.`);
            if (word === "Okapi") throw new Error("this enquiry's own fault");
          })
          .then(async () => {
            seen[word] = await found(`${word} inn`);
          }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled"]);
    for (const word of words.filter((word) => word !== "Okapi")) expect(seen[word], word).toEqual([`${word} Owner`]);
    expect(await found("okapi")).toEqual([]);
    expect(await indexState()).toEqual(inStep);
  });

  it("indexes at once what a plain transaction writes, in that transaction", async () => {
    await data.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("contact_submissions")
        .values({
          id: randomUUID(),
          name: "Zebedee Quartermaine",
          email: "zeb@example.com",
          email_folded: "zeb@example.com",
          phone: null,
          user_type: "landlord",
          message: "A lighthouse near Whitby.",
          is_read: false,
          created_at: new Date().toISOString(),
          status: "new",
          spam_reason: null,
        })
        .execute();
      expect(await found("lighthouse", trx)).toEqual(["Zebedee Quartermaine"]);
    });
    expect(await indexState()).toEqual(inStep);
  });

  it("leaves the deferral's tables out of a backup: they are derived, like the index", async () => {
    const schema = await knownSchema(Object.keys(migrations));
    expect(schema.has("contact_submissions")).toBe(true);
    expect(schema.has("search_pending")).toBe(false);
    expect(schema.has("search_deferral")).toBe(false);
  });
});

/** What only SQLite has: the deferral's tables, and other programs writing to the same file. */
describe("the search index's deferral on SQLite", () => {
  const data = useDatabase(backends.find((backend) => backend.name === "sqlite")!);
  const { found, store, indexState, inStep } = searchIndex(data, true);

  it("keeps the index right when a grouped commit changes or deletes an enquiry it has just stored (its pieces run in turn)", async () => {
    const transactions = groupCommits(data.reader.db);
    const ids: Record<string, string> = {};
    await Promise.all([
      transactions.run(async (trx) => {
        ids.kept = (await store(trx, "Kept Owner", "A cottage in Whitby.")).id;
      }),
      transactions.run(async (trx) => {
        ids.gone = (await store(trx, "Gone Owner", "A barn in Ripon.")).id;
      }),
      transactions.run(async (trx) => {
        await trx.updateTable("contact_submissions").set({ message: "A windmill in Thirsk." }).where("id", "=", ids.kept!).execute();
        await trx.deleteFrom("contact_submissions").where("id", "=", ids.gone!).execute();
      }),
    ]);
    expect(await found("windmill")).toEqual(["Kept Owner"]);
    expect(await found("cottage")).toEqual([]);
    expect(await found("ripon")).toEqual([]);
    expect(await found("gone owner")).toEqual([]);
    // Later, outside any batch, the change and the delete reach the index as before.
    await data.db.updateTable("contact_submissions").set({ message: "A mill in Thirsk." }).where("id", "=", ids.kept!).execute();
    expect(await found("windmill")).toEqual([]);
    expect(await found("mill in thirsk")).toEqual(["Kept Owner"]);
    expect(await indexState()).toEqual(inStep);
  });

  it("indexes what another program writes with plain SQL, foreign keys off, as the sqlite3 shell does", async () => {
    const shell = new DatabaseSync(data.database.sqliteFile!);
    try {
      shell.exec(`insert into contact_submissions (id, name, email, email_folded, user_type, message, is_read, created_at, status)
        values ('${randomUUID()}', 'Shell Owner', 'shell@example.com', 'shell@example.com', 'landlord', 'A houseboat at Goole.', 0, '${new Date().toISOString()}', 'new')`);
    } finally {
      shell.close();
    }
    expect(await found("houseboat")).toEqual(["Shell Owner"]);
    expect(await indexState()).toEqual(inStep);
  });

  it("refuses to commit a deferral left in place, so no committed state leaves an enquiry out of the index", async () => {
    const attempt = data.db.transaction().execute(async (trx) => {
      await sql`insert into search_deferral (id) values (1)`.execute(trx);
      await store(trx, "Stranded Owner", "A croft on Skye.");
    });
    await expect(attempt).rejects.toThrow(/FOREIGN KEY constraint failed/);
    expect(await found("stranded")).toEqual([]);
    expect(await indexState()).toEqual(inStep);
  });
});
