/**
 * Many enquiries, fast, straight into a database the server has migrated: the
 * inbox case of the bench (bench/cases/inbox.ts) and `npm run seed:enquiries`
 * (scripts/seed-enquiries.ts). Batched multi-row inserts, many batches to a
 * transaction, on SQLite (node:sqlite) or PostgreSQL (pg). The rows look like
 * the contact form's: mostly real enquiries, some read, some marked, held in a
 * flood or under Spam, every status of the pipeline, and timestamps that tie
 * (several enquiries in the same millisecond), so keyset pages meet ties.
 * When the database has members who may be assigned enquiries (Owner or
 * Enquiries), about three in ten are assigned to one of them (the first
 * member, the oldest, has half of those) and the rest are nobody's; about
 * one in fifty has a day to follow it up, from a month before the newest to
 * a month after (decision 063).
 *
 * Runs directly on Node 24 (type stripping): nothing imported from app/.
 */
import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";

const FIRST = ["Alice", "Ben", "Chloé", "David", "Emma", "Farah", "George", "Hannah", "Imran", "Jo", "Kate", "Liam", "Maya", "Noah", "Olivia", "Priya"];
const LAST = ["Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Patel", "Wright", "Walker", "O'Neill", "Evans", "Khan"];
const DOMAINS = ["example.com", "example.co.uk", "mail.example.org", "lettings.example.net"];
/** About 160 characters a message, as the contact form's usually are (issue 22's 100,001 made a CSV of 21.6 MB). */
const WORDS = (
  "property flat house garden kitchen bathroom tenancy deposit rent landlord tenant viewing repair boiler heating damp window roof survey valuation " +
  "portfolio let management inventory licence council tax furnished parking mortgage agent student family pets garage terrace bungalow maisonette " +
  "studio lease notice eviction arrears insurance gas electrics certificate safety leak mould cleaning keys move available weekend evening morning"
).split(" ");
const USER_TYPES = ["landlord", "tenant", "investor", "other"] as const;
const STATUSES = ["new", "new", "new", "contacted", "valuation-booked", "instructed", "not-proceeding"] as const;

/** The extra enquiry the bench searches for: its own words, found among the many. */
export const NEEDLE = {
  name: "Zebedee Quartermaine",
  email: "zebedee.q@needle.example",
  phone: "07700 900461",
  message: "I own a converted lighthouse near Whitby and would like it managed.",
} as const;

type Row = [
  id: string,
  name: string,
  email: string,
  email_folded: string,
  phone: string | null,
  user_type: string,
  message: string,
  is_read: number,
  created_at: string,
  spam_reason: string | null,
  spam_signals: string | null,
  status: string,
  assigned_to: string | null,
  follow_up_on: string | null,
];
const COLUMNS = "id, name, email, email_folded, phone, user_type, message, is_read, created_at, spam_reason, spam_signals, status, assigned_to, follow_up_on";
const WIDTH = 14;

/** A deterministic pseudo-random stream (mulberry32): the same rows on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` enquiries, oldest first, the newest at `newest`; about one in five shares its millisecond with the one before. */
export function* enquiryRows(count: number, newest = Date.now(), members: readonly string[] = []): Generator<Row> {
  const next = random(22);
  // A stream of its own, so the other columns are the same rows with or without members.
  const pipeline = random(61);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  let at = newest - count * 60_000;
  for (let index = 0; index < count; index++) {
    if (next() > 0.2) at += 1 + Math.floor(next() * 110_000);
    const first = pick(FIRST);
    const last = pick(LAST);
    const email = `${first}.${last}${index}@${pick(DOMAINS)}`.toLowerCase().replace(/[^a-z0-9.@]/g, "");
    const words = Array.from({ length: 8 + Math.floor(next() * 24) }, () => pick(WORDS));
    const roll = next();
    // 2% under Spam, 1% held in a flood, 3% marked as possible spam; the rest clean.
    const spamReason = roll < 0.02 ? "honeypot" : null;
    const spamSignals = roll >= 0.02 && roll < 0.03 ? "flood" : roll >= 0.03 && roll < 0.06 ? "too-fast" : null;
    yield [
      randomUUID(),
      `${first} ${last}`,
      email,
      email,
      next() < 0.8 ? `07${String(Math.floor(next() * 1e9)).padStart(9, "0")}` : null,
      pick(USER_TYPES),
      `Hello, ${words.join(" ")}. Please call me back.`,
      next() < 0.7 ? 1 : 0,
      new Date(Math.min(at, newest - 1)).toISOString(),
      spamReason,
      spamSignals,
      pick(STATUSES),
      assigneeOf(pipeline(), members),
      pipeline() < 0.02 ? new Date(newest + Math.floor((pipeline() - 0.5) * 60) * 86_400_000).toISOString().slice(0, 10) : null,
    ];
  }
}

/** Nobody (seven in ten), else the first member (half of the rest), else any member. */
function assigneeOf(roll: number, members: readonly string[]): string | null {
  if (members.length === 0 || roll < 0.7) return null;
  if (roll < 0.85) return members[0]!;
  return members[Math.floor(((roll - 0.85) / 0.15) * members.length)]!;
}

/** The needle: the newest enquiry, unread, New. */
function needleRow(newest: number): Row {
  return [
    randomUUID(),
    NEEDLE.name,
    NEEDLE.email,
    NEEDLE.email,
    NEEDLE.phone,
    "landlord",
    NEEDLE.message,
    0,
    new Date(newest).toISOString(),
    null,
    null,
    "new",
    null,
    null,
  ];
}

export type SeedTarget = { sqliteFile: string } | { databaseUrl: string };

const BATCH = 500;
const PER_TRANSACTION = 20_000;

/** Writes `count` enquiries plus the needle; answers how long it took (ms). */
export async function seedEnquiries(target: SeedTarget, count: number, newest = Date.now()): Promise<number> {
  const started = performance.now();
  if ("sqliteFile" in target) seedSqlite(target.sqliteFile, count, newest);
  else await seedPostgres(target.databaseUrl, count, newest);
  return performance.now() - started;
}

/** Who may be assigned an enquiry (decision 061), the oldest member first. */
const MEMBERS = "select id from admin_users where role in ('owner', 'enquiries') order by created_at, id";

function* batches(rows: Iterable<Row>, last: Row): Generator<Row[]> {
  let batch: Row[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  batch.push(last);
  yield batch;
}

function seedSqlite(file: string, count: number, newest: number): void {
  const db = new DatabaseSync(file);
  try {
    db.exec("PRAGMA busy_timeout = 10000");
    const members = db
      .prepare(MEMBERS)
      .all()
      .map((row) => String(row.id));
    const rows = enquiryRows(count, newest - 1, members);
    const last = needleRow(newest);
    const statements = new Map<number, ReturnType<DatabaseSync["prepare"]>>();
    const insert = (size: number) => {
      let statement = statements.get(size);
      if (!statement) {
        const tuple = `(${Array.from({ length: WIDTH }, () => "?").join(", ")})`;
        statement = db.prepare(`insert into contact_submissions (${COLUMNS}) values ${Array.from({ length: size }, () => tuple).join(", ")}`);
        statements.set(size, statement);
      }
      return statement;
    };
    let inTransaction = 0;
    db.exec("BEGIN IMMEDIATE");
    for (const batch of batches(rows, last)) {
      insert(batch.length).run(...batch.flat());
      inTransaction += batch.length;
      if (inTransaction >= PER_TRANSACTION) {
        db.exec("COMMIT; BEGIN IMMEDIATE");
        inTransaction = 0;
      }
    }
    db.exec("COMMIT");
    db.exec("ANALYZE");
  } finally {
    db.close();
  }
}

async function seedPostgres(url: string, count: number, newest: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const members = (await client.query<{ id: string }>(MEMBERS)).rows.map((row) => row.id);
    const rows = enquiryRows(count, newest - 1, members);
    const last = needleRow(newest);
    let inTransaction = 0;
    await client.query("begin");
    for (const batch of batches(rows, last)) {
      const values = batch.map((_, row) => `(${Array.from({ length: WIDTH }, (_, column) => `$${row * WIDTH + column + 1}`).join(", ")})`);
      // is_read is a boolean on PostgreSQL.
      const params = batch.flatMap((row) => row.map((value, column) => (column === 7 ? value === 1 : value)));
      await client.query(`insert into contact_submissions (${COLUMNS}) values ${values.join(", ")}`, params);
      inTransaction += batch.length;
      if (inTransaction >= PER_TRANSACTION) {
        await client.query("commit");
        await client.query("begin");
        inTransaction = 0;
      }
    }
    await client.query("commit");
    // Fresh statistics and visibility map: the planner and index-only scans see the rows as a settled site's would.
    await client.query("vacuum analyze contact_submissions");
  } finally {
    await client.end();
  }
}
