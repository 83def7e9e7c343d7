import { sql, type Kysely } from "kysely";
import type { MigrationDialect } from "./types";

/**
 * The inbox's counts kept as they change (issue 22, decision 063): how many
 * enquiries each (tab, status, assignee) holds, where the tab is what the
 * inbox files an enquiry under (spam, held in a flood, read, unread; the same
 * test as inbox.server.ts and spam.ts's isHeldInFlood) and the assignee the
 * member's id, or '' for nobody. Triggers on contact_submissions keep it in
 * the same transaction as every insert, update and delete, whoever makes it
 * (the app, the seed script, a restore, a member leaving the team), so the
 * views without a search read a few dozen numbers instead of counting 100,000
 * rows.
 *
 * SQLite (one writer at a time): one row per group, moved by an upsert in row
 * triggers. PostgreSQL (transactions write side by side): statement triggers
 * only ever insert what a statement changed, added up per group (never an
 * update of a shared row, so no row lock is waited for and no deadlock is
 * possible); the reader adds the rows up and folds them into one per group
 * now and then (inbox-counts.server.ts).
 *
 * The indexes of a status's and an assignee's pages take the id as the last
 * column, as the keyset pages' order does (created_at, id; decision 058): a
 * page reads its rows in order, with no sort of the ties. The follow-up
 * index holds only the enquiries that have a day (a few): so small, the
 * planners read Due's rows (its page, its counts, and how many are due
 * beside every view) from it rather than a status's or everyone's.
 *
 * Derived data, like the search index (018): not in TABLES, never backed up.
 * A restore drops contact_submissions and its triggers; this migration drops
 * what is left and builds the table again from the rows, as it is run in the
 * restore's transaction (decision 040).
 */
const FLOOD_MARK = "%+flood+%";

/** The tab an enquiry is counted under, of the row `row` ("new", "old", or a transition table's alias). */
function tab(row: string, dialect: MigrationDialect) {
  const r = sql.raw(row);
  const read = dialect === "postgres" ? sql`${r}.is_read` : sql`${r}.is_read = 1`;
  return sql`case when ${r}.spam_reason is not null then 'spam'
    when ('+' || coalesce(${r}.spam_signals, '') || '+') like ${sql.lit(FLOOD_MARK)} then 'held'
    when ${read} then 'read' else 'unread' end`;
}

const assignee = (row: string) => sql`coalesce(${sql.raw(row)}.assigned_to, '')`;

export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  for (const [old, index, column] of [
    ["contact_submissions_status_created_idx", "contact_submissions_status_page_idx", "status"],
    ["contact_submissions_assignee_created_idx", "contact_submissions_assignee_page_idx", "assigned_to"],
  ] as const) {
    await db.schema.dropIndex(old).execute();
    await db.schema.createIndex(index).on("contact_submissions").columns([column, "created_at", "id"]).execute();
  }
  await db.schema.dropIndex("contact_submissions_follow_up_idx").execute();
  await db.schema
    .createIndex("contact_submissions_follow_up_idx")
    .on("contact_submissions")
    .columns(["follow_up_on", "created_at"])
    .where(sql.ref("follow_up_on"), "is not", null)
    .execute();
  await sql`drop table if exists enquiry_counts`.execute(db);
  if (dialect === "postgres") return postgres(db);
  await sql`create table enquiry_counts (
    tab text not null, status text not null, assignee text not null, n integer not null,
    primary key (tab, status, assignee)
  ) without rowid`.execute(db);
  const move = (row: string, by: number) =>
    sql`insert into enquiry_counts (tab, status, assignee, n) values (${tab(row, dialect)}, ${sql.raw(row)}.status, ${assignee(row)}, ${sql.lit(by)})
      on conflict (tab, status, assignee) do update set n = n + excluded.n;`;
  await sql`create trigger enquiry_counts_insert after insert on contact_submissions begin ${move("new", 1)} end`.execute(db);
  await sql`create trigger enquiry_counts_delete after delete on contact_submissions begin ${move("old", -1)} end`.execute(db);
  await sql`create trigger enquiry_counts_update after update of spam_reason, spam_signals, is_read, status, assigned_to on contact_submissions
    when ${tab("old", dialect)} is not ${tab("new", dialect)} or old.status is not new.status or ${assignee("old")} is not ${assignee("new")}
    begin ${move("old", -1)} ${move("new", 1)} end`.execute(db);
  await sql`insert into enquiry_counts (tab, status, assignee, n)
    select ${tab("c", dialect)}, c.status, ${assignee("c")}, count(*) from contact_submissions c group by 1, 2, 3`.execute(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`create table enquiry_counts (tab text not null, status text not null, assignee text not null, n integer not null)`.execute(db);
  const added = (table: string, sign: "1" | "-1") =>
    sql`select ${tab(table, "postgres")} as tab, ${sql.raw(table)}.status, ${assignee(table)} as assignee, ${sql.raw(sign)} as n from ${sql.raw(table)}`;
  const record = (rows: ReturnType<typeof sql>) =>
    sql`insert into enquiry_counts (tab, status, assignee, n)
      select tab, status, assignee, sum(n) from (${rows}) as changed group by tab, status, assignee having sum(n) <> 0;`;
  await sql`create or replace function enquiry_counts_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${record(added("new_rows", "1"))}
      elsif tg_op = 'DELETE' then
        ${record(added("old_rows", "-1"))}
      else
        ${record(sql`${added("old_rows", "-1")} union all ${added("new_rows", "1")}`)}
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger enquiry_counts_insert after insert on contact_submissions
    referencing new table as new_rows for each statement execute function enquiry_counts_change()`.execute(db);
  await sql`create trigger enquiry_counts_update after update on contact_submissions
    referencing old table as old_rows new table as new_rows for each statement execute function enquiry_counts_change()`.execute(db);
  await sql`create trigger enquiry_counts_delete after delete on contact_submissions
    referencing old table as old_rows for each statement execute function enquiry_counts_change()`.execute(db);
  await sql`insert into enquiry_counts (tab, status, assignee, n)
    select ${tab("c", "postgres")}, c.status, ${assignee("c")}, count(*) from contact_submissions c group by 1, 2, 3`.execute(db);
}
