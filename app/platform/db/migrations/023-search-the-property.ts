import { sql, type Kysely } from "kysely";
import type { MigrationDialect } from "./types";

/**
 * The inbox's search finds a valuation request by its property's address and
 * postcode too (decision 068), beside the name, e-mail, phone and message of
 * migration 018. Only the two texts a landlord typed are indexed, not the
 * rest of `details` (its keys and choices would match every request).
 *
 * SQLite: the FTS5 index is made again with a fifth column, `place`, which
 * is no column of contact_submissions: the triggers put in the address and
 * postcode taken from `details` (PLACE below), and give the same text back
 * when a row leaves the index, as an external-content table needs. So the
 * index must never be filled with FTS5's 'rebuild' (it would look for a
 * `place` column and fail): it is filled here by an insert of the same
 * expression. Derived data as before: never backed up, made again by the
 * migrations on a restore.
 *
 * PostgreSQL: the pg_trgm index is made again on the search text with the
 * address and postcode after the message (inbox.server.ts SEARCH_TEXT, the
 * very same expression), when pg_trgm can be used.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect === "postgres") return postgresSearch(db);
  const place = (row: "new" | "old") =>
    sql.raw(
      `case when json_valid(${row}.details) then coalesce(json_extract(${row}.details, '$.address') || ' ' || json_extract(${row}.details, '$.postcode'), '') else '' end`,
    );
  const columns = sql.raw("name, email, phone, message, place");
  const values = (row: "new" | "old") =>
    sql`${sql.raw(row)}.rowid, ${sql.raw(row)}.name, ${sql.raw(row)}.email, ${sql.raw(row)}.phone, ${sql.raw(row)}.message, ${place(row)}`;
  for (const trigger of ["insert", "delete", "update"]) await sql`drop trigger if exists ${sql.raw(`contact_submissions_search_${trigger}`)}`.execute(db);
  await sql`drop table if exists contact_submissions_search`.execute(db);
  await sql`create virtual table contact_submissions_search using fts5(
    name, email, phone, message, place,
    content = 'contact_submissions', content_rowid = 'rowid', tokenize = 'trigram'
  )`.execute(db);
  await sql`insert into contact_submissions_search (contact_submissions_search, rank) values ('secure-delete', 1)`.execute(db);
  await sql`create trigger contact_submissions_search_insert after insert on contact_submissions begin
    insert into contact_submissions_search (rowid, ${columns}) values (${values("new")});
  end`.execute(db);
  await sql`create trigger contact_submissions_search_delete after delete on contact_submissions begin
    insert into contact_submissions_search (contact_submissions_search, rowid, ${columns}) values ('delete', ${values("old")});
  end`.execute(db);
  await sql`create trigger contact_submissions_search_update after update of name, email, phone, message, details on contact_submissions begin
    insert into contact_submissions_search (contact_submissions_search, rowid, ${columns}) values ('delete', ${values("old")});
    insert into contact_submissions_search (rowid, ${columns}) values (${values("new")});
  end`.execute(db);
  await sql`insert into contact_submissions_search (rowid, ${columns})
    select ${values("new")} from contact_submissions as new`.execute(db);
}

async function postgresSearch(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ usable: boolean }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as usable`.execute(db);
  // Migration 018 added pg_trgm where it could; where it could not, the search reads the rows as before.
  if (!rows[0]?.usable) return;
  await sql`drop index if exists contact_submissions_search_idx`.execute(db);
  await sql`create index contact_submissions_search_idx on contact_submissions using gin (
    lower(name || E'\\x01' || email || E'\\x01' || coalesce(phone, '') || E'\\x01' || message || E'\\x01' ||
      coalesce((details::jsonb ->> 'address') || ' ' || (details::jsonb ->> 'postcode'), '')) gin_trgm_ops
  )`.execute(db);
}
