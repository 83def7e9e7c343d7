import { CompiledQuery } from "kysely";
import { dialectOf, type Db } from "./db.server";

/**
 * Writes whose commits are shared (group commit, decision 039).
 *
 * On SQLite with synchronous=FULL every commit waits for the disk (an fsync),
 * and node:sqlite waits on the event loop: one commit per enquiry made the
 * disk, not the server, the limit. `run` gives each piece of work what a
 * transaction of its own would: its writes are committed together or not at
 * all, it sees the writes committed before it, and it resolves only once its
 * writes are on disk. But the work handed in within one turn of the event
 * loop (the requests that arrived while the previous commit was being synced)
 * runs in one SQLite transaction, each piece inside a SAVEPOINT of its own,
 * and the lot is committed once. A piece that throws is rolled back to its
 * savepoint and fails alone; the others commit. If the commit itself fails
 * (a full disk), every piece in it fails, and none was acknowledged. The
 * enquiries' search index is written once for the whole batch, just before
 * the commit (decision 070).
 *
 * A piece must only use the transaction it is given, and await nothing but
 * its queries: the batch holds the database's one connection (and SQLite's
 * write lock) until it commits.
 *
 * PostgreSQL commits concurrent transactions on its own connections and
 * groups their WAL flushes itself: there `run` is a plain transaction.
 */
export type Transactions = {
  run<T>(work: (trx: Db) => Promise<T>): Promise<T>;
};

type Pending = { work: (trx: Db) => Promise<unknown>; resolve(value: unknown): void; reject(error: unknown): void };

/** The memo a batch's transaction reads and writes (see batchMemo). */
const memos = new WeakMap<Db, Map<string, unknown>>();

/**
 * A place for the pieces of grouped commits to remember what they read (a
 * count), from one batch to the next: the data is known to have changed only
 * through them. A batch holds the write lock while it runs; before it starts,
 * the memo is dropped if any other connection committed since the last batch
 * (SQLite's data_version) or this connection wrote outside the batches
 * (total_changes()); a piece that rolls back drops it too. A piece that
 * changes what it remembered keeps it up to date (or deletes it). Undefined
 * outside a batch.
 */
export function batchMemo(trx: Db): Map<string, unknown> | undefined {
  return memos.get(trx);
}

export function groupCommits(db: Db): Transactions {
  if (dialectOf(db) !== "sqlite") return { run: (work) => db.transaction().execute(work) };
  let queue: Pending[] = [];
  let scheduled = false;
  const memo = new Map<string, unknown>();
  /** data_version and total_changes() after the last batch committed: what the memo is true for. */
  let memoFor: string | undefined;

  const runBatch = async () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    const committed: Array<{ pending: Pending; value: unknown }> = [];
    let settled = 0;
    try {
      await db.transaction().execute(async (trx) => {
        if ((await writesSeen(trx)) !== memoFor) memo.clear();
        memoFor = undefined;
        memos.set(trx, memo);
        await trx.executeQuery(DEFER_SEARCH_INDEX);
        for (const pending of batch) {
          await trx.executeQuery(SAVEPOINT);
          try {
            const value = await pending.work(trx);
            await trx.executeQuery(RELEASE);
            committed.push({ pending, value });
          } catch (error) {
            memo.clear();
            try {
              await trx.executeQuery(ROLLBACK_TO);
              await trx.executeQuery(RELEASE);
            } catch {
              // SQLite ended the whole transaction itself (a full disk, an I/O error): every
              // piece's writes are gone, and this piece's error says why.
              throw error;
            }
            pending.reject(error);
          }
          settled++;
        }
        await trx.executeQuery(WRITE_SEARCH_INDEX);
        // FTS5 keeps those index rows in memory until a savepoint or the COMMIT; written at the
        // COMMIT they would move total_changes() after `seen`, and every batch would drop the memo.
        await trx.executeQuery(INDEX_WRITTEN);
        await trx.executeQuery(RELEASE_INDEX_WRITTEN);
        // The next batch compares with this, this batch's writes included (a commit changes neither).
        const seen = await writesSeen(trx);
        memoFor = seen;
      });
    } catch (error) {
      memoFor = undefined;
      memo.clear();
      // Nothing of this batch is on disk: the pieces that had run and those that had not fail alike.
      for (const { pending } of committed) pending.reject(error);
      for (const pending of batch.slice(settled)) pending.reject(error);
      return;
    }
    for (const { pending, value } of committed) pending.resolve(value);
  };

  return {
    run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          // After the other requests this turn brings: they join this commit.
          setImmediate(() => void runBatch());
        }
      });
    },
  };
}

/** Each piece's savepoint, compiled once: they run for every enquiry (decision 065). */
const SAVEPOINT = CompiledQuery.raw("savepoint grouped");
const RELEASE = CompiledQuery.raw("release grouped");
const ROLLBACK_TO = CompiledQuery.raw("rollback to grouped");
/**
 * The search index is written once per batch (migration 024, decision 070):
 * from here the enquiries' insert trigger lists them in search_pending instead
 * of writing an index segment per savepoint…
 */
const DEFER_SEARCH_INDEX = CompiledQuery.raw("insert into search_deferral (id) values (1)");
/** …and this puts them all into the index in one statement, before the commit (a row left in search_deferral cannot be committed). */
const WRITE_SEARCH_INDEX = CompiledQuery.raw("delete from search_deferral");
const INDEX_WRITTEN = CompiledQuery.raw("savepoint index_written");
const RELEASE_INDEX_WRITTEN = CompiledQuery.raw("release index_written");

/** Changes to the database as this connection sees them: others' commits (data_version) and its own writes (total_changes()). */
async function writesSeen(db: Db): Promise<string> {
  const { rows } = await db.executeQuery<{ version: number; changes: number }>(WRITES_SEEN);
  return `${rows[0]?.version} ${rows[0]?.changes}`;
}

/** One statement, compiled once: it runs twice a batch. */
const WRITES_SEEN = CompiledQuery.raw("select data_version as version, total_changes() as changes from pragma_data_version");
