import { randomUUID } from "node:crypto";
import { isIP } from "node:net";
import { sql } from "kysely";
import { dialectOf, type Db } from "../db/db.server";
import { batchMemo } from "../db/group-commit.server";
import { preparedInsert, preparedQuery } from "../db/prepared.server";
import { startFleetJob } from "../fleet/job-runs.server";
import type { Repeating } from "../fleet/schedule.server";
import type { Log } from "../observe/log.server";
import { pruneTally } from "./tally.server";

/**
 * Rate limits counted in the database, so that several instances of the
 * server agree on them. An event is one thing that counts against a limit (a
 * failed sign-in, a lockout); a limit is "at most N events of a bucket for a
 * subject within a window".
 */
export type RateLimitBucket =
  | "login-failure"
  | "login-account-failure"
  | "login-address"
  | "login-device-failure"
  | "login-lockout"
  /** An invitation link that names no invitation, per client address (auth/join.server.ts). */
  | "join-link"
  | "contact-submission"
  | "contact-site"
  | "password-reset-address"
  | "password-reset-client"
  /** An acknowledgement e-mail, per visitor address (its folded form's SHA-256): one a day (enquiries/acknowledgement.server.ts). */
  | "acknowledgement";

/** Events older than this are deleted: no window is longer. */
const KEEP_EVENTS_MS = 24 * 60 * 60 * 1000;

const iso = (date: Date) => date.toISOString();

export async function recordEvent(db: Db, bucket: RateLimitBucket, subject: string, now = new Date()): Promise<void> {
  // A count this batch remembers for the subject no longer holds.
  batchMemo(db)?.delete(memoKey(bucket, subject));
  await db
    .insertInto("rate_limit_events")
    .values({ id: randomUUID(), bucket, subject, created_at: iso(now) })
    .execute();
}

/** How many events of the bucket the subject has had in the window ending now. */
export async function countEvents(db: Db, bucket: RateLimitBucket, subject: string, windowMs: number, now = new Date()): Promise<number> {
  const row = await db
    .selectFrom("rate_limit_events")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("bucket", "=", bucket)
    .where("subject", "=", subject)
    .where("created_at", ">", iso(new Date(now.getTime() - windowMs)))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The newest event of the bucket for the subject, if any. */
export async function latestEvent(db: Db, bucket: RateLimitBucket, subject: string): Promise<Date | undefined> {
  const row = await db
    .selectFrom("rate_limit_events")
    .select("created_at")
    .where("bucket", "=", bucket)
    .where("subject", "=", subject)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.created_at) : undefined;
}

export async function clearEvents(db: Db, bucket: RateLimitBucket, subject: string): Promise<void> {
  await db.deleteFrom("rate_limit_events").where("bucket", "=", bucket).where("subject", "=", subject).execute();
}

/**
 * Deletes old events every ten minutes in the background, rather than at
 * requests (each delete is one more write: an fsync on SQLite). Every instance
 * runs one; the deletes are idempotent.
 */
export function startPruningEvents(db: Db, log: Pick<Log, "error">, now: () => Date = () => new Date()): Repeating {
  // Every 10 minutes across the fleet, by one instance (platform/fleet/job-runs.server.ts).
  return startFleetJob(
    { db, name: "rate-limit-pruning", everyMs: 10 * 60_000, firstAfterMs: 60_000, now },
    () => pruneEvents(db, now()),
    (error) => log.error({ err: error }, "Could not prune rate-limit events"),
  );
}

/** Deletes events no window looks at any more, and the counts of what limits refused that no dashboard shows. */
export async function pruneEvents(db: Db, now = new Date()): Promise<void> {
  await db
    .deleteFrom("rate_limit_events")
    .where("created_at", "<", iso(new Date(now.getTime() - KEEP_EVENTS_MS)))
    .execute();
  await pruneTally(db, now);
}

export type Slot =
  | {
      ok: true;
      /** Places taken in the window, this one included. */
      used: number;
      /** Gives the place back, for an attempt that did not count after all. */
      release(): Promise<void>;
    }
  | { ok: false; retryAfterSeconds: number };

/**
 * Takes one of `limit` places the subject has in the window, or says how long
 * until the oldest one frees up. Counting and taking are one step per subject,
 * on every instance: a transaction that holds the subject's lock (an advisory
 * lock on PostgreSQL; SQLite lets one writer in at a time). So a burst gets
 * exactly the places that are left, never more, and none is refused that
 * would have fitted (recording first and counting after, as before, could
 * refuse every request of a burst larger than the limit).
 */
export async function takeSlot(
  db: Db,
  bucket: RateLimitBucket,
  subject: string,
  { limit, windowMs, now = new Date() }: { limit: number; windowMs: number; now?: Date },
): Promise<Slot> {
  const taken = await takeSlots(db, [{ bucket, subject, limit }], { windowMs, now });
  return taken.ok ? { ok: true, used: taken.used[0]!, release: taken.release } : { ok: false, retryAfterSeconds: taken.retryAfterSeconds };
}

export type SlotRequest = { bucket: RateLimitBucket; subject: string; limit: number };

export type Slots =
  | { ok: true /** Per request, places taken in the window, this one included. */; used: number[]; release(): Promise<void> }
  | { ok: false /** The first request that had no place left. */; refused: number; retryAfterSeconds: number };

/**
 * Takes a place under each of several limits at once (an enquiry's per-IP and
 * site-wide limits), all or none, in one transaction: one commit (one fsync
 * on SQLite) however many limits there are; in the caller's transaction when
 * `db` is one (then a refusal or a failure later in it gives the places back
 * with its rollback, and `release` is not needed). Each count stops at its
 * limit, and a grouped commit's pieces count a subject once between them
 * (group-commit.server.ts), so its cost does not grow with the events in
 * the window.
 */
export async function takeSlots(db: Db, requests: readonly SlotRequest[], { windowMs, now = new Date() }: { windowMs: number; now?: Date }): Promise<Slots> {
  const taken = await db.transaction().execute((trx) => takeSlotsIn(trx, requests, { windowMs, now }));
  if (!taken.ok) return { ok: false, refused: taken.refused, retryAfterSeconds: taken.retryAfterSeconds };
  return {
    ok: true,
    used: taken.used,
    release: async () => {
      // By the table's key (migration 025): each place is found, none is scanned for.
      await db
        .deleteFrom("rate_limit_events")
        .where((eb) =>
          eb.or(
            taken.places.map((place) =>
              eb.and([eb("bucket", "=", place.bucket), eb("subject", "=", place.subject), eb("created_at", "=", place.created_at), eb("id", "=", place.id)]),
            ),
          ),
        )
        .execute();
    },
  };
}

/** A place taken, by the table's key (migration 025). */
type Place = { bucket: RateLimitBucket; subject: string; created_at: string; id: string };

export type SlotsIn =
  | { ok: true /** Per request, places taken in the window, this one included. */; used: number[]; places: Place[] }
  | { ok: false /** The first request that had no place left. */; refused: number; retryAfterSeconds: number; freesAt: Date };

/**
 * takeSlots inside a transaction the caller holds (`trx`): the places are
 * taken with whatever else it writes, and given back by its rollback. On
 * PostgreSQL the subjects stay locked until it ends, so a caller may write
 * what depends on the counts (an enquiry held over the site-wide limit) in
 * the same step. A refusal writes nothing.
 */
export async function takeSlotsIn(trx: Db, requests: readonly SlotRequest[], { windowMs, now }: { windowMs: number; now: Date }): Promise<SlotsIn> {
  if (dialectOf(trx) === "postgres") {
    // Locks in one order, so two transactions taking the same places cannot deadlock.
    for (const key of [...new Set(requests.map(({ bucket, subject }) => `${bucket} ${subject}`))].sort()) {
      await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    }
  }
  const used: number[] = [];
  for (const [index, { bucket, subject, limit }] of requests.entries()) {
    const count = await countInWindow(trx, bucket, subject, windowMs, now, limit);
    if (count >= limit) return { ok: false, refused: index, ...(await retryAfter(trx, bucket, subject, windowMs, now)) };
    used.push(count + 1);
  }
  const at = iso(now);
  const rows: Place[] = requests.map(({ bucket, subject }) => ({ id: randomUUID(), bucket, subject, created_at: at }));
  await insertEvents(trx, rows);
  const memo = batchMemo(trx);
  for (const { bucket, subject } of requests) {
    const kept = memo?.get(memoKey(bucket, subject)) as WindowCount | undefined;
    if (!kept) continue;
    kept.count++;
    if (kept.oldest === undefined || at < kept.oldest) kept.oldest = at;
  }
  return { ok: true, used, places: rows };
}

/**
 * The events of a subject that grouped commits' pieces have counted: those
 * after `since` (an ISO time), and the time of the oldest of them (none when
 * the count is 0). Until `since` passes that time, no event can have left the
 * window: the next piece counts with no query at all.
 */
type WindowCount = { since: string; count: number; oldest: string | undefined };

const memoKey = (bucket: RateLimitBucket, subject: string) => `rate-limit\u0000${bucket}\u0000${subject}`;

/**
 * The count of a subject's events in the window (stopping at `atMost`),
 * remembered by grouped commits (group-commit.server.ts): the next piece, in
 * this batch or a later one, adds the places the pieces took and counts only
 * the events that left the window meanwhile, and only when the oldest one
 * it knows of may have left; so an enquiry's cost does not grow with the
 * events in the window, and mostly runs no query. Exact: the memo is dropped
 * whenever the data may have changed another way.
 */
async function countInWindow(db: Db, bucket: RateLimitBucket, subject: string, windowMs: number, now: Date, atMost: number): Promise<number> {
  const memo = batchMemo(db);
  const since = iso(new Date(now.getTime() - windowMs));
  const key = memoKey(bucket, subject);
  const kept = memo?.get(key) as WindowCount | undefined;
  if (kept && kept.since <= since) {
    if (kept.since < since && kept.oldest !== undefined && kept.oldest <= since) {
      const { rows } = await countLeft(db, { bucket, subject, after: kept.since, upTo: since });
      kept.count -= Number(rows[0]!.count);
      kept.oldest = rows[0]!.oldest ?? undefined;
    }
    kept.since = since;
    return Math.min(kept.count, atMost);
  }
  const { rows } = await countRecent(db, { bucket, subject, after: since, atMost });
  const count = Number(rows[0]!.count);
  // A count that stopped at its limit is not the whole count: not kept.
  if (memo && count < atMost) memo.set(key, { since, count, oldest: rows[0]!.oldest ?? undefined } satisfies WindowCount);
  else memo?.delete(key);
  return count;
}

/*
 * The queries every enquiry runs, compiled once (platform/db/prepared.server.ts, decision 065).
 */
const insertEvents = preparedInsert("rate_limit_events");

/** The events of a subject between two times (those that left the window since a count), and the oldest of those after. */
const countLeft = preparedQuery(["bucket", "subject", "after", "upTo"], (db, p: { bucket: string; subject: string; after: string; upTo: string }) =>
  db.selectNoFrom((eb) => [
    eb
      .selectFrom("rate_limit_events")
      .select((inner) => inner.fn.countAll<number | string>().as("count"))
      .where("bucket", "=", p.bucket as RateLimitBucket)
      .where("subject", "=", p.subject)
      .where("created_at", ">", p.after)
      .where("created_at", "<=", p.upTo)
      .as("count"),
    eb
      .selectFrom("rate_limit_events")
      .select((inner) => inner.fn.min<string | null>("created_at").as("oldest"))
      .where("bucket", "=", p.bucket as RateLimitBucket)
      .where("subject", "=", p.subject)
      .where("created_at", ">", p.upTo)
      .as("oldest"),
  ]),
);

/** The events of a subject after a time, counted up to `atMost`, and the oldest of those counted. */
const countRecent = preparedQuery(["bucket", "subject", "after", "atMost"], (db, p: { bucket: string; subject: string; after: string; atMost: number }) =>
  db
    .selectFrom((eb) =>
      eb
        .selectFrom("rate_limit_events")
        .select("created_at")
        .where("bucket", "=", p.bucket as RateLimitBucket)
        .where("subject", "=", p.subject)
        .where("created_at", ">", p.after)
        .limit(p.atMost)
        .as("recent"),
    )
    .select((eb) => [eb.fn.countAll<number | string>().as("count"), eb.fn.min<string | null>("created_at").as("oldest")]),
);

/** When the oldest event in the window leaves it, and how many seconds that is from now (at least 1). */
async function retryAfter(
  db: Db,
  bucket: RateLimitBucket,
  subject: string,
  windowMs: number,
  now: Date,
): Promise<{ retryAfterSeconds: number; freesAt: Date }> {
  const oldest = await db
    .selectFrom("rate_limit_events")
    .select("created_at")
    .where("bucket", "=", bucket)
    .where("subject", "=", subject)
    .where("created_at", ">", iso(new Date(now.getTime() - windowMs)))
    .orderBy("created_at", "asc")
    .limit(1)
    .executeTakeFirst();
  const freesAt = oldest ? new Date(oldest.created_at).getTime() + windowMs : now.getTime();
  return { retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000)), freesAt: new Date(freesAt) };
}

/**
 * Limits that refused lately, remembered in this process: until the oldest
 * place in the window frees up, the same subject is refused again without a
 * query (decision 037). What it remembers stays true on every instance of a
 * fleet, since a full window only empties as its events age (an enquiry's
 * places go with its transaction, never released later); at worst another
 * instance's memory refuses for as long as its own last look said.
 */
export type RefusalMemory = {
  /** Seconds left of a refusal remembered for `key`; undefined when none is. */
  refusedFor(key: string, now: Date): number | undefined;
  remember(key: string, until: Date): void;
};

/** Remembers at most `maxKeys` refusals (one per address in a flood from many): the oldest go first. */
export function createRefusalMemory(maxKeys = 10_000): RefusalMemory {
  const until = new Map<string, number>();
  return {
    refusedFor(key, now) {
      const ends = until.get(key);
      if (ends === undefined) return undefined;
      if (ends <= now.getTime()) {
        until.delete(key);
        return undefined;
      }
      return Math.max(1, Math.ceil((ends - now.getTime()) / 1000));
    },
    remember(key, ends) {
      until.delete(key);
      if (until.size >= maxKeys) until.delete(until.keys().next().value!);
      until.set(key, ends.getTime());
    },
  };
}

/**
 * Who a per-IP limit counts: an IPv4 address as it is, an IPv6 address by its
 * /64 network. One home or office line gets a whole /64, so counting single
 * IPv6 addresses would let one sender rotate through 2^64 of them.
 */
export function ipLimitSubject(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const [head = "", tail] = ip.toLowerCase().split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  // An address ending in dotted IPv4 (::ffff:192.0.2.1 and kin) is rare here: count it whole.
  if ([...left, ...right].some((group) => group.includes("."))) return ip;
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
