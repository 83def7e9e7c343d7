import { sql, type Kysely } from "kysely";
import type { MigrationDialect } from "./types";

/**
 * Lets the e-mail outbox hold these kinds (migrations 019 and 021): the
 * CHECK on `kind` is dropped and made again on PostgreSQL; SQLite cannot
 * change a CHECK, so there the table is rebuilt from its own stored
 * definition with the wider list, keeping whatever columns and indexes it
 * has, in the migration's transaction (or a restore's: decision 040).
 */
export async function widenOutboxKinds(db: Kysely<unknown>, dialect: MigrationDialect, kinds: readonly string[]): Promise<void> {
  const KIND_CHECK = `kind in (${kinds.map((kind) => `'${kind}'`).join(", ")})`;
  if (dialect === "postgres") {
    await sql`alter table email_outbox drop constraint email_outbox_kind_check`.execute(db);
    await sql`alter table email_outbox add constraint email_outbox_kind_check check (${sql.raw(KIND_CHECK)})`.execute(db);
    return;
  }
  const rebuild = async (trx: Kysely<unknown>) => {
    const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
      select type, name, sql from sqlite_master where tbl_name = 'email_outbox' order by type desc`.execute(trx);
    const table = rows.find((row) => row.type === "table");
    if (!table?.sql) throw new Error("email_outbox has no stored definition");
    const widened = table.sql.replace(/kind in \([^)]*\)/, KIND_CHECK);
    if (widened === table.sql) throw new Error("email_outbox's kind check was not found");
    await sql.raw(widened.replace(/^CREATE TABLE\s+"?email_outbox"?/i, 'CREATE TABLE "email_outbox_new"')).execute(trx);
    await sql`insert into email_outbox_new select * from email_outbox`.execute(trx);
    // Nothing refers to the outbox by foreign key, so dropping it deletes nothing else.
    await sql`drop table email_outbox`.execute(trx);
    await sql`alter table email_outbox_new rename to email_outbox`.execute(trx);
    for (const index of rows.filter((row) => row.type === "index" && row.sql)) await sql.raw(index.sql!).execute(trx);
  };
  if (db.isTransaction) await rebuild(db);
  else await db.transaction().execute(rebuild);
}
