import { sql, type Kysely } from "kysely";
import type { MigrationDialect } from "./types";

/**
 * The search index written once per grouped commit (issue 19, decision 070).
 *
 * SQLite's FTS5 writes what it holds in memory as a new segment of the index
 * (and merges segments) at the end of every statement's savepoint. The
 * grouped commits (decision 039) run each enquiry inside a SAVEPOINT of its
 * own, so an index row written by the insert trigger of 018/023 cost each
 * enquiry a segment of its own: most of an enquiry's time in SQLite.
 *
 * Now the insert trigger looks at `search_deferral`, a table that is empty
 * in every committed state:
 * - empty (every writer but the grouped commits: a plain transaction, a
 *   restore, the seed script, a test's insert, the sqlite3 shell): the new
 *   row goes into the index at once, as before;
 * - holding a row (a grouped commit, from before its first savepoint): the
 *   new row's rowid goes into `search_pending` instead. Deleting the row of
 *   `search_deferral` (the grouped commit does it just before COMMIT) puts
 *   every pending enquiry into the index in one statement, as it is then,
 *   and empties `search_pending`, in the same transaction.
 * A savepoint rolled back takes its pending rows with it; a batch rolled back
 * takes everything. The row of `search_deferral` points at a row that never
 * exists, through a foreign key checked at COMMIT: a transaction that would
 * commit it (so leave later enquiries out of the index) fails instead, on
 * every connection with foreign keys on (the app's).
 * The delete and update triggers leave a pending enquiry to the flush (it
 * reads the row as it is at the end; a deleted one is taken off the list).
 *
 * Derived data like the index: neither table is backed up (DERIVED_TABLES);
 * a restore runs this migration again, which makes them again, empty.
 *
 * PostgreSQL: nothing (its pg_trgm index is kept by PostgreSQL itself).
 */
/** The address and postcode of a valuation request, as migration 023 indexes them (the same expression: a migration stays as it shipped). */
const place = (row: string) =>
  sql.raw(
    `case when json_valid(${row}.details) then coalesce(json_extract(${row}.details, '$.address') || ' ' || json_extract(${row}.details, '$.postcode'), '') else '' end`,
  );

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect === "postgres") return;
  const columns = sql.raw("name, email, phone, message, place");
  const values = (row: string) =>
    sql`${sql.raw(row)}.rowid, ${sql.raw(row)}.name, ${sql.raw(row)}.email, ${sql.raw(row)}.phone, ${sql.raw(row)}.message, ${place(row)}`;
  const pending = (row: string) => sql`exists (select 1 from search_pending where enquiry_rowid = ${sql.raw(row)}.rowid)`;
  for (const trigger of ["insert", "insert_deferred", "delete", "update", "flush"])
    await sql`drop trigger if exists ${sql.raw(`contact_submissions_search_${trigger}`)}`.execute(db);
  await sql`drop table if exists search_deferral`.execute(db);
  await sql`drop table if exists search_pending`.execute(db);
  // `until_flushed` refers to the row 0, which the CHECK keeps out: a row here can never be committed (foreign keys on).
  await sql`create table search_deferral (
    id integer primary key check (id = 1),
    until_flushed integer not null default 0 references search_deferral (id) deferrable initially deferred
  )`.execute(db);
  await sql`create table search_pending (enquiry_rowid integer primary key)`.execute(db);
  await sql`create trigger contact_submissions_search_insert after insert on contact_submissions
    when not exists (select 1 from search_deferral) begin
    insert into contact_submissions_search (rowid, ${columns}) values (${values("new")});
  end`.execute(db);
  await sql`create trigger contact_submissions_search_insert_deferred after insert on contact_submissions
    when exists (select 1 from search_deferral) begin
    insert into search_pending (enquiry_rowid) values (new.rowid) on conflict do nothing;
  end`.execute(db);
  await sql`create trigger contact_submissions_search_delete after delete on contact_submissions begin
    insert into contact_submissions_search (contact_submissions_search, rowid, ${columns})
      select 'delete', ${values("old")} where not ${pending("old")};
    delete from search_pending where enquiry_rowid = old.rowid;
  end`.execute(db);
  await sql`create trigger contact_submissions_search_update after update of name, email, phone, message, details on contact_submissions
    when not ${pending("old")} begin
    insert into contact_submissions_search (contact_submissions_search, rowid, ${columns}) values ('delete', ${values("old")});
    insert into contact_submissions_search (rowid, ${columns}) values (${values("new")});
  end`.execute(db);
  await sql`create trigger contact_submissions_search_flush after delete on search_deferral begin
    insert into contact_submissions_search (rowid, ${columns})
      select ${values("c")} from search_pending p join contact_submissions c on c.rowid = p.enquiry_rowid order by p.enquiry_rowid;
    delete from search_pending;
  end`.execute(db);
}
