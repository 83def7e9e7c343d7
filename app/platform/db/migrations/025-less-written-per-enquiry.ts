import { sql, type Kysely } from "kysely";
import type { MigrationDialect } from "./types";

/**
 * Less written per enquiry (issue 19, point 5; decision 086). Every enquiry
 * writes its row and two limit places; each index on those tables is one more
 * B-tree written in the same commit, read by no query:
 *
 * - contact_submissions_created_idx (created_at): 018's (created_at, id)
 *   serves every query it served (the retention rule, the figures), as well.
 * - contact_submissions_email_idx (lower(email)): nothing compares lower(email)
 *   since 008 (UK GDPR requests compare email_folded, which has its own index).
 * - contact_submissions_read_created_idx (is_read, created_at): the inbox
 *   tests is_read only beside spam_reason, which 004's (spam_reason, is_read,
 *   created_at) serves.
 * - rate_limit_events: a place is looked up by (bucket, subject, created_at)
 *   and given back by the same and its id; never by the id alone. The table
 *   is now keyed by (bucket, subject, created_at, id), so the key is the index
 *   the counts read (SQLite: WITHOUT ROWID, one B-tree where there were three;
 *   PostgreSQL: the primary key replaces the id's and the lookup index). The
 *   index on created_at stays for the pruning.
 *
 * Nothing else changes: the same columns, the same rows (copied on SQLite).
 * Run again, it does the same (the test of the last migration does).
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  for (const index of ["contact_submissions_created_idx", "contact_submissions_email_idx", "contact_submissions_read_created_idx"]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  if (dialect === "postgres") {
    await sql`alter table rate_limit_events drop constraint rate_limit_events_pkey`.execute(db);
    await sql`alter table rate_limit_events add constraint rate_limit_events_pkey primary key (bucket, subject, created_at, id)`.execute(db);
    await db.schema.dropIndex("rate_limit_events_lookup_idx").ifExists().execute();
    return;
  }
  await sql`drop table if exists rate_limit_events_keyed`.execute(db);
  await sql`create table rate_limit_events_keyed (
    id text not null, bucket text not null, subject text not null, created_at text not null,
    primary key (bucket, subject, created_at, id)
  ) without rowid`.execute(db);
  await sql`insert into rate_limit_events_keyed (id, bucket, subject, created_at) select id, bucket, subject, created_at from rate_limit_events`.execute(db);
  await sql`drop table rate_limit_events`.execute(db);
  await sql`alter table rate_limit_events_keyed rename to rate_limit_events`.execute(db);
  await db.schema.createIndex("rate_limit_events_created_idx").on("rate_limit_events").column("created_at").execute();
}
