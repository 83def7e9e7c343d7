import type { Db } from "~/platform/db/db.server";
import { inTransaction, type Trx } from "~/platform/db/transactions.server";
import { actorIp, actorLabel, type Actor } from "./actor";
import { AUDIT_KINDS, checkDetails, type AuditDetails, type AuditKind } from "./kinds";

/**
 * The audit log's one writer (docs/decisions/042). It takes the change's
 * transaction, never the database: an entry is written with its change or
 * not at all, so a change that fails leaves none, and an entry whose insert
 * fails takes its change down with it. There is no function to update or
 * delete an entry; retention (audit-log.server.ts) is the one deletion.
 */
export type AuditEntry = {
  actor: Actor;
  action: AuditKind;
  /** The record it is about: a member's, project's or enquiry's id, a file's name, a version number. */
  target?: string | undefined;
  details?: AuditDetails | undefined;
  /** When; now by default. */
  at?: Date | undefined;
};

/** Ids, file names and numbers only: "3f2a…-…", "1767225600000-abc123def456.jpg", "12". */
const TARGET_ID = /^[\w.:@-]{1,120}$/;

function row(entry: AuditEntry, target: string | undefined) {
  if (target !== undefined && !TARGET_ID.test(target)) throw new Error(`An audit entry's record must be an id, not "${target.slice(0, 20)}…".`);
  const details = checkDetails(entry.details);
  return {
    at: (entry.at ?? new Date()).toISOString(),
    actor_type: entry.actor.kind,
    actor_id: entry.actor.kind === "member" ? entry.actor.id : null,
    actor_label: actorLabel(entry.actor),
    ip: actorIp(entry.actor),
    action: entry.action,
    target_type: AUDIT_KINDS[entry.action].target,
    target_id: target ?? null,
    details: details === undefined ? null : JSON.stringify(details),
  };
}

function assertTransaction(trx: Trx): void {
  // The type says so; a cast must not get round it either.
  if (!trx.isTransaction) throw new Error("An audit entry is written in its change's transaction.");
}

export async function audit(trx: Trx, entry: AuditEntry): Promise<void> {
  assertTransaction(trx);
  await trx.insertInto("audit_log").values(row(entry, entry.target)).execute();
}

/**
 * The entry of work done outside the database (files copied to other
 * storage, a backup written, a backup restored), in a transaction of its own
 * once the work has succeeded: there is no change of ours to share one with.
 * Everything that changes the database writes its entry with `audit` instead.
 */
export async function auditWorkDone(db: Db, entry: AuditEntry): Promise<void> {
  await inTransaction(db, (trx) => audit(trx, entry));
}

/** Rows per statement: well under SQLite's and PostgreSQL's limits on bound parameters (10 per row). */
const BATCH = 200;

/** One entry per record a change touched (a bulk action): the same kind, actor and time for each. */
export async function auditEach(trx: Trx, entry: Omit<AuditEntry, "target">, targets: readonly string[]): Promise<void> {
  assertTransaction(trx);
  const at = entry.at ?? new Date();
  const rows = targets.map((target) => row({ ...entry, at }, target));
  for (let start = 0; start < rows.length; start += BATCH) {
    await trx
      .insertInto("audit_log")
      .values(rows.slice(start, start + BATCH))
      .execute();
  }
}
