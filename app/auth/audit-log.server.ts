import type { ExpressionBuilder, Selectable } from "kysely";
import { csvRecord, CSV_BOM } from "~/enquiries/csv";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { startFleetJob } from "~/platform/fleet/job-runs.server";
import type { Log } from "~/platform/observe/log.server";
import type { Repeating } from "~/platform/fleet/schedule.server";
import type { AuditLogTable, DatabaseSchema } from "~/platform/db/schema";
import { AUDIT_KINDS, isAuditKind, type AuditDetails, type SignInFailure } from "~/audit/kinds";
import type { AuditQuery } from "./audit-query";
import { ROLE_LABELS } from "./roles";

/**
 * Reading the audit log (docs/decisions/042; written by app/audit/): the owner's view, newest first,
 * a page at a time by keyset (so a page never repeats or skips an entry as
 * new ones arrive); the same entries as a CSV file; and retention, the one
 * way an entry is ever deleted.
 */

export type AuditRecord = {
  id: number;
  /** ISO 8601, UTC. */
  at: string;
  actor: {
    type: "member" | "cli" | "system" | "visitor";
    /** The member's id; null for the CLI, the server and visitors. */
    id: string | null;
    /** The member's e-mail when they did it; the command; the job; "not signed in". */
    label: string;
  };
  /** The client address, for a member's or a visitor's request. */
  ip: string | null;
  /** The kind (app/audit/kinds.ts). */
  action: string;
  /** The kind in words: "Deleted an enquiry". */
  actionLabel: string;
  targetType: string;
  target: string | null;
  details: AuditDetails | undefined;
  /** The details in words: "role Editor (was Owner)". */
  detailsText: string;
};

const FAILURE_TEXT: Record<SignInFailure, string> = {
  "wrong-password": "wrong password",
  "no-such-member": "not a member's address or passkey",
  "wrong-code": "wrong two-step or recovery code",
  "wrong-passkey": "a passkey that did not verify",
};

/** The details in words, for the view and the CSV file: "role Editor (was Owner)", "3 records". */
export function describeDetails(details: AuditDetails | undefined): string {
  if (!details) return "";
  const parts: string[] = [];
  if (details.role) parts.push(`role ${ROLE_LABELS[details.role]}${details.previousRole ? ` (was ${ROLE_LABELS[details.previousRole]})` : ""}`);
  if (details.version !== undefined) parts.push(`version ${details.version}`);
  if (details.fromVersion !== undefined) parts.push(`from version ${details.fromVersion}`);
  if (details.at) parts.push(`due ${details.at}`);
  if (details.searched) parts.push("of a search");
  if (details.count !== undefined) parts.push(`${details.count} ${details.count === 1 ? "record" : "records"}`);
  if (details.failure) parts.push(FAILURE_TEXT[details.failure]);
  return parts.join("; ");
}

export const AUDIT_PAGE_SIZE = 50;

type Row = Selectable<AuditLogTable>;
type Where = ExpressionBuilder<DatabaseSchema, "audit_log">;

function toRecord(row: Row): AuditRecord {
  const details = row.details === null ? undefined : (JSON.parse(row.details) as AuditDetails);
  return {
    id: Number(row.id),
    at: toIsoString(row.at),
    actor: { type: row.actor_type, id: row.actor_id, label: row.actor_label },
    ip: row.ip,
    action: row.action,
    // A kind this code no longer knows (an older backup) still reads as itself.
    actionLabel: isAuditKind(row.action) ? AUDIT_KINDS[row.action].label : row.action,
    targetType: row.target_type,
    target: row.target_id,
    details,
    detailsText: describeDetails(details),
  };
}

function matches(eb: Where, query: AuditQuery) {
  const conditions = [];
  if (query.personId) {
    conditions.push(eb.or([eb("actor_id", "=", query.personId), eb.and([eb("target_type", "=", "member"), eb("target_id", "=", query.personId)])]));
  }
  if (query.kinds && query.kinds.length > 0) conditions.push(eb("action", "in", query.kinds));
  if (query.from) conditions.push(eb("at", ">=", query.from.toISOString()));
  if (query.until) conditions.push(eb("at", "<", query.until.toISOString()));
  return eb.and(conditions);
}

/** Where the next page starts: the last entry shown, as an opaque string for the URL. */
function cursorOf(record: AuditRecord): string {
  return Buffer.from(`${record.at}|${record.id}`).toString("base64url");
}

function parseCursor(cursor: string | undefined): { at: string; id: number } | undefined {
  if (!cursor || cursor.length > 100) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString());
  return match ? { at: match[1]!, id: Number(match[2]) } : undefined;
}

function entriesQuery(db: Db, query: AuditQuery, after?: { at: string; id: number }) {
  return db
    .selectFrom("audit_log")
    .selectAll()
    .where((eb) => {
      const filtered = matches(eb, query);
      if (!after) return filtered;
      return eb.and([filtered, eb.or([eb("at", "<", after.at), eb.and([eb("at", "=", after.at), eb("id", "<", after.id)])])]);
    })
    .orderBy("at", "desc")
    .orderBy("id", "desc");
}

export type AuditPage = {
  entries: AuditRecord[];
  /** Give it back as `cursor` for the next (older) page; undefined on the last page. */
  nextCursor: string | undefined;
};

/**
 * A page of the entries the query selects, newest first, after `cursor` (a
 * page's nextCursor; a cursor that is not one starts from the newest).
 */
export async function listAuditEntries(
  db: Db,
  query: AuditQuery,
  { cursor, limit = AUDIT_PAGE_SIZE }: { cursor?: string | undefined; limit?: number } = {},
): Promise<AuditPage> {
  const rows = await entriesQuery(db, query, parseCursor(cursor))
    .limit(limit + 1)
    .execute();
  const entries = rows.slice(0, limit).map(toRecord);
  return { entries, nextCursor: rows.length > limit ? cursorOf(entries.at(-1)!) : undefined };
}

/** Everyone who appears in the log as a member, with the e-mail of their latest entry: the view's "person" choices. */
export async function listAuditPeople(db: Db): Promise<Array<{ id: string; email: string }>> {
  const rows = await db
    .selectFrom("audit_log as a")
    .select(["a.actor_id", "a.actor_label"])
    .where("a.actor_type", "=", "member")
    .where("a.id", "in", (eb) =>
      eb
        .selectFrom("audit_log")
        .select((inner) => inner.fn.max("id").as("id"))
        .where("actor_type", "=", "member")
        .groupBy("actor_id"),
    )
    .orderBy("a.actor_label")
    .execute();
  return rows.flatMap((row) => (row.actor_id === null ? [] : [{ id: row.actor_id, email: row.actor_label }]));
}

const CSV_COLUMNS = ["When (UTC)", "Who", "Member id", "Client address", "Kind", "What", "Record type", "Record", "Details"];

function csvValues(record: AuditRecord): string[] {
  return [
    record.at,
    record.actor.label,
    record.actor.id ?? "",
    record.ip ?? "",
    record.action,
    record.actionLabel,
    record.targetType,
    record.target ?? "",
    record.detailsText,
  ];
}

/** Entries read per query while the file streams out. */
const CSV_BATCH = 500;

/**
 * The entries the query selects, newest first, as a CSV file (the enquiries'
 * encoding: quoted, formulas neutralised, UTF-8 with a byte-order mark),
 * read CSV_BATCH at a time by keyset, so a long log never sits in memory.
 * A failure mid-way ends the stream with an error and tells `onError`.
 */
export function auditCsvStream(db: Db, query: AuditQuery, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { at: string; id: number } | undefined;
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRecord(CSV_COLUMNS)));
    },
    async pull(controller) {
      if (done) return controller.close();
      try {
        const rows = await entriesQuery(db, query, after).limit(CSV_BATCH).execute();
        const records = rows.map(toRecord);
        if (records.length > 0) controller.enqueue(encoder.encode(records.map((record) => csvRecord(csvValues(record))).join("")));
        const last = records.at(-1);
        if (!last || records.length < CSV_BATCH) done = true;
        else after = { at: last.at, id: last.id };
      } catch (error) {
        onError(error);
        controller.error(error);
      }
    },
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Deletes the entries older than `retentionDays` before `now`; answers how many went. The one deletion of entries. */
export async function deleteExpiredAuditEntries(db: Db, retentionDays: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  const result = await db.deleteFrom("audit_log").where("at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * AUDIT_RETENTION_DAYS: once a day for the whole fleet (platform/fleet/job-runs.server.ts),
 * first shortly after start. A failed run is logged and tried again at the next check.
 */
export function startAuditRetention({
  db,
  retentionDays,
  log,
  now,
  firstRunAfterMs = 90_000,
  everyMs = DAY_MS,
}: {
  db: Db;
  retentionDays: number;
  log: Pick<Log, "info" | "error">;
  now: () => Date;
  firstRunAfterMs?: number;
  everyMs?: number;
}): Repeating {
  return startFleetJob(
    { db, name: "audit-retention", everyMs, firstAfterMs: firstRunAfterMs, now },
    async () => {
      const deleted = await deleteExpiredAuditEntries(db, retentionDays, now());
      if (deleted > 0) log.info(`Audit log: deleted ${deleted} ${deleted === 1 ? "entry" : "entries"} older than ${retentionDays} days (AUDIT_RETENTION_DAYS)`);
    },
    (error) => log.error({ err: error }, "Audit log: could not delete old entries"),
  );
}
