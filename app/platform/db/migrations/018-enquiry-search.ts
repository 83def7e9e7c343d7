import { sql, type Kysely } from "kysely";
import type { MigrationDialect } from "./types";

/**
 * The inbox at 100,000 enquiries (issue 22, decision 058): the databases' own
 * text search over the name, e-mail, phone and message, and indexes that let
 * the newest-first pages, the filters and the counts read an index instead of
 * every row. Nothing is rebuilt but indexes, so this runs as it is inside a
 * restore's one transaction (decision 040).
 *
 * SQLite: an FTS5 table with the trigram tokenizer (case-insensitive
 * substrings of three characters or more) over contact_submissions' own
 * columns (external content, keyed by its rowid), kept in step by triggers in
 * the same transaction as every insert, update and delete, with secure-delete
 * on so a deleted enquiry's words leave the index at once. It is derived
 * data: not listed in TABLES, never backed up; a restore drops the table and
 * its triggers and this migration makes and fills the index again.
 *
 * PostgreSQL: a pg_trgm GIN index on the one lower-cased text the search
 * reads (inbox.server.ts SEARCH_TEXT, the same expression), kept in step by
 * PostgreSQL itself. pg_trgm is a trusted extension: the database's owner (or
 * anyone with CREATE on it) may add it. Without it the search is the same
 * query without the index (slower, same answers).
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  // Newest first with the id as the tie-break: the keyset pages' order, read straight from an index.
  await db.schema.createIndex("contact_submissions_created_id_idx").on("contact_submissions").columns(["created_at", "id"]).execute();
  // The filter tabs' and statuses' counts read this (every column they test) instead of the rows.
  await db.schema
    .createIndex("contact_submissions_counts_idx")
    .on("contact_submissions")
    .columns(["spam_reason", "is_read", "status", "spam_signals"])
    .execute();
  if (dialect === "postgres") return postgresSearch(db);
  await sql`drop table if exists contact_submissions_search`.execute(db);
  await sql`create virtual table contact_submissions_search using fts5(
    name, email, phone, message,
    content = 'contact_submissions', content_rowid = 'rowid', tokenize = 'trigram'
  )`.execute(db);
  await sql`insert into contact_submissions_search (contact_submissions_search, rank) values ('secure-delete', 1)`.execute(db);
  await sql`create trigger contact_submissions_search_insert after insert on contact_submissions begin
    insert into contact_submissions_search (rowid, name, email, phone, message) values (new.rowid, new.name, new.email, new.phone, new.message);
  end`.execute(db);
  await sql`create trigger contact_submissions_search_delete after delete on contact_submissions begin
    insert into contact_submissions_search (contact_submissions_search, rowid, name, email, phone, message)
      values ('delete', old.rowid, old.name, old.email, old.phone, old.message);
  end`.execute(db);
  await sql`create trigger contact_submissions_search_update after update of name, email, phone, message on contact_submissions begin
    insert into contact_submissions_search (contact_submissions_search, rowid, name, email, phone, message)
      values ('delete', old.rowid, old.name, old.email, old.phone, old.message);
    insert into contact_submissions_search (rowid, name, email, phone, message) values (new.rowid, new.name, new.email, new.phone, new.message);
  end`.execute(db);
  await sql`insert into contact_submissions_search (contact_submissions_search) values ('rebuild')`.execute(db);
}

async function postgresSearch(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ usable: boolean }>`
    select exists (select 1 from pg_extension where extname = 'pg_trgm')
      or (exists (select 1 from pg_available_extensions where name = 'pg_trgm') and has_database_privilege(current_database(), 'CREATE')) as usable`.execute(
    db,
  );
  if (!rows[0]?.usable) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index contact_submissions_search_idx on contact_submissions using gin (
    lower(name || E'\\x01' || email || E'\\x01' || coalesce(phone, '') || E'\\x01' || message) gin_trgm_ops
  )`.execute(db);
}
