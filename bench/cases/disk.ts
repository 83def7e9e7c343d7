/**
 * The disk's own rate of synced SQLite commits (issue 19, point 5): one small row per
 * transaction, as the server opens SQLite (WAL, synchronous=FULL), in a database beside the
 * server's data, for a few seconds. One commit per enquiry could go no faster than this; the
 * contact case's figure beside it shows what grouping commits makes of it.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { round } from "../lib/measure.ts";

export type SyncedCommits = { perSecond: number; commits: number; seconds: number };

export function syncedCommitRate(dir: string, seconds = 3): SyncedCommits {
  const file = path.join(dir, "synced-commits.sqlite");
  const db = new DatabaseSync(file);
  try {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    db.exec("create table commits (id integer primary key, at text not null)");
    const insert = db.prepare("insert into commits (at) values (?)");
    const started = performance.now();
    let commits = 0;
    while (performance.now() - started < seconds * 1000) {
      // One implicit transaction per statement: one commit, one fsync of the WAL.
      insert.run(new Date().toISOString());
      commits++;
    }
    const elapsed = (performance.now() - started) / 1000;
    return { perSecond: round(commits / elapsed), commits, seconds: round(elapsed, 2) };
  } finally {
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
  }
}
