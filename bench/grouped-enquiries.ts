/**
 * What the search index costs an enquiry
 * stored in a grouped commit on SQLite (decision 070), apart from HTTP. In a
 * fresh database file (synchronous=FULL) it stores batches of enquiries as
 * the grouped commits do (a transaction, each enquiry's limit places, row and
 * e-mails inside a SAVEPOINT of its own, one COMMIT), taking turns between:
 *   per savepoint  the index written by the insert trigger in every savepoint (before 024)
 *   per commit     the index written once per batch (migration 024, group-commit.server.ts)
 *   no index       the search triggers dropped: the floor
 * and prints the median CPU time (user + system) and wall time per enquiry.
 * Run through jiti (it resolves the app's "~/" imports):
 *   JITI_ALIAS='{"~":"./app"}' ./node_modules/.bin/jiti bench/grouped-enquiries.ts [per batch] [batches] [rounds]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { insertEnquiry } from "~/enquiries/enquiries.server";
import { openDatabase, migrateToLatest, type Db } from "~/platform/db/db.server";
import { groupCommits } from "~/platform/db/group-commit.server";
import { takeSlotsIn } from "~/platform/limits/rate-limit.server";

const PER_BATCH = Number(process.argv[2] ?? 20);
const BATCHES = Number(process.argv[3] ?? 100);
const ROUNDS = Number(process.argv[4] ?? 5);
const VARIANTS = ["per savepoint", "per commit", "no index"] as const;
type Variant = (typeof VARIANTS)[number];

async function piece(trx: Db, n: number, now: Date): Promise<void> {
  await takeSlotsIn(
    trx,
    [
      { bucket: "contact-submission", subject: `203.0.113.${n % 250}`, limit: 1_000_000 },
      { bucket: "contact-site", subject: "site", limit: 1_000_000 },
    ],
    { windowMs: 60 * 60 * 1000, now },
  );
  await insertEnquiry(
    trx,
    {
      name: `Grace Hopper ${n}`,
      email: `grace${n}@example.com`,
      phone: "020 7946 0002",
      userType: "landlord",
      message: `Three houses in Leeds need a managing agent (${n}).`,
    },
    { mail: { from: "site@example.com", notifyTo: ["office@example.com"] }, company: PLACEHOLDER_COMPANY, now },
  );
}

async function run(variant: Variant): Promise<{ cpu: number; wall: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), "grouped-enquiries-"));
  const database = openDatabase({ dataDir: dir, databaseUrl: undefined });
  try {
    await migrateToLatest(database);
    const db = database.db;
    if (variant === "per savepoint") {
      // Migration 023's insert trigger: an index row, so a segment, in every piece's savepoint.
      await sql`drop trigger contact_submissions_search_insert_deferred`.execute(db);
      await sql`drop trigger contact_submissions_search_insert`.execute(db);
      await sql`create trigger contact_submissions_search_insert after insert on contact_submissions begin
        insert into contact_submissions_search (rowid, name, email, phone, message, place) values (new.rowid, new.name, new.email, new.phone, new.message, '');
      end`.execute(db);
    }
    if (variant === "no index")
      for (const trigger of ["insert", "insert_deferred", "delete", "update"]) await sql.raw(`drop trigger contact_submissions_search_${trigger}`).execute(db);
    const transactions = groupCommits(db);
    let n = 0;
    const batch = async () => {
      const now = new Date();
      await Promise.all(Array.from({ length: PER_BATCH }, () => transactions.run((trx) => piece(trx, n++, now))));
    };
    for (let i = 0; i < 10; i++) await batch();
    const cpu = process.cpuUsage();
    const wall = performance.now();
    for (let i = 0; i < BATCHES; i++) await batch();
    const used = process.cpuUsage(cpu);
    const enquiries = BATCHES * PER_BATCH;
    return { cpu: (used.user + used.system) / enquiries, wall: ((performance.now() - wall) * 1000) / enquiries };
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results = new Map<Variant, Array<{ cpu: number; wall: number }>>(VARIANTS.map((variant) => [variant, []]));
for (let round = 0; round < ROUNDS; round++) for (const variant of VARIANTS) results.get(variant)!.push(await run(variant));
console.log(`${PER_BATCH} enquiries per commit, ${BATCHES} commits per run, median of ${ROUNDS} runs taking turns (µs per enquiry):`);
for (const [variant, runs] of results)
  console.log(
    `  ${variant.padEnd(14)} CPU ${median(runs.map((r) => r.cpu))
      .toFixed(0)
      .padStart(5)}   wall ${median(runs.map((r) => r.wall))
      .toFixed(0)
      .padStart(5)}`,
  );
