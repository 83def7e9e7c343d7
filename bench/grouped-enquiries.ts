/**
 * What the search index costs an enquiry stored in a grouped commit on SQLite
 * (decision 070), apart from HTTP and Kysely. A database file is migrated
 * with the app's migrations once; each run takes a copy and stores batches of
 * enquiries as the grouped commits do (a transaction; each enquiry's two
 * limit places, its row and its e-mail inside a SAVEPOINT of its own; one
 * COMMIT, synchronous=FULL unless SYNC=off), taking turns between:
 *   per savepoint  migration 023's insert trigger: an index segment in every savepoint
 *   per commit     migration 024: the index written once per batch (group-commit.server.ts)
 *   no index       the search's insert triggers dropped: the floor
 * and prints the median CPU time (user + system) and wall time per enquiry.
 * Run through jiti (it resolves the app's "~/" imports):
 *   JITI_ALIAS="{\"~\":\"$PWD/app\"}" ./node_modules/.bin/node node_modules/jiti/lib/jiti-cli.mjs \
 *     bench/grouped-enquiries.ts [commits per run, 300] [runs of each, 5] [enquiries per commit, 20]
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openDatabase, migrateToLatest } from "~/platform/db/db.server";

const BATCHES = Number(process.argv[2] ?? 300);
const ROUNDS = Number(process.argv[3] ?? 5);
const PER_BATCH = Number(process.argv[4] ?? 20);
const VARIANTS = ["per savepoint", "per commit", "no index"] as const;
type Variant = (typeof VARIANTS)[number];

const PLACE = `case when json_valid(new.details) then coalesce(json_extract(new.details, '$.address') || ' ' || json_extract(new.details, '$.postcode'), '') else '' end`;
const BEFORE_024 = `drop trigger contact_submissions_search_insert_deferred; drop trigger contact_submissions_search_insert;
  create trigger contact_submissions_search_insert after insert on contact_submissions begin
    insert into contact_submissions_search (rowid, name, email, phone, message, place) values (new.rowid, new.name, new.email, new.phone, new.message, ${PLACE});
  end`;

function run(template: string, dir: string, variant: Variant): { cpu: number; wall: number } {
  const file = path.join(dir, `${variant.replace(" ", "-")}.sqlite`);
  copyFileSync(template, file);
  const db = new DatabaseSync(file);
  try {
    db.exec(`pragma journal_mode = wal; pragma synchronous = ${process.env.SYNC === "off" ? "off" : "full"}; pragma foreign_keys = on`);
    if (variant === "per savepoint") db.exec(BEFORE_024);
    if (variant === "no index") db.exec("drop trigger contact_submissions_search_insert_deferred; drop trigger contact_submissions_search_insert");
    const place = db.prepare("insert into rate_limit_events (id, bucket, subject, created_at) values (?, ?, ?, ?)");
    const enquiry = db.prepare(
      "insert into contact_submissions (id, name, email, email_folded, phone, user_type, message, is_read, created_at, status) values (?, ?, ?, ?, ?, 'landlord', ?, 0, ?, 'new')",
    );
    const email = db.prepare(
      "insert into email_outbox (id, kind, message, status, next_attempt_at, created_at, submission_id) values (?, 'notification', ?, 'queued', ?, ?, ?)",
    );
    let n = 0;
    const batch = () => {
      db.exec("begin immediate; insert into search_deferral (id) values (1)");
      for (let i = 0; i < PER_BATCH; i++) {
        db.exec("savepoint grouped");
        const now = new Date().toISOString();
        const id = randomUUID();
        n++;
        place.run(randomUUID(), "contact-submission", `203.0.113.${n % 250}`, now);
        place.run(randomUUID(), "contact-site", "site", now);
        enquiry.run(
          id,
          `Grace Hopper ${n}`,
          `grace${n}@example.com`,
          `grace${n}@example.com`,
          "020 7946 0002",
          `Three houses in Leeds need an agent (${n}).`,
          now,
        );
        email.run(randomUUID(), `{"to":"office@example.com","subject":"New enquiry from Grace Hopper ${n}"}`, now, now, id);
        db.exec("release grouped");
      }
      db.exec("delete from search_deferral; commit");
    };
    for (let i = 0; i < 10; i++) batch();
    const cpu = process.cpuUsage();
    const wall = performance.now();
    for (let i = 0; i < BATCHES; i++) batch();
    const used = process.cpuUsage(cpu);
    const enquiries = BATCHES * PER_BATCH;
    return { cpu: (used.user + used.system) / enquiries, wall: ((performance.now() - wall) * 1000) / enquiries };
  } finally {
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  }
}

const dir = mkdtempSync(path.join(tmpdir(), "grouped-enquiries-"));
try {
  const database = openDatabase({ dataDir: dir, databaseUrl: undefined });
  await migrateToLatest(database);
  await database.close();
  const template = path.join(dir, "app.sqlite");
  const results = new Map<Variant, Array<{ cpu: number; wall: number }>>(VARIANTS.map((variant) => [variant, []]));
  for (let round = 0; round < ROUNDS; round++) for (const variant of VARIANTS) results.get(variant)!.push(run(template, dir, variant));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`${PER_BATCH} enquiries per commit, ${BATCHES} commits per run, median of ${ROUNDS} runs taking turns (µs per enquiry):`);
  for (const [variant, runs] of results)
    console.log(
      `  ${variant.padEnd(14)} CPU ${median(runs.map((r) => r.cpu))
        .toFixed(0)
        .padStart(5)}   wall ${median(runs.map((r) => r.wall))
        .toFixed(0)
        .padStart(5)}`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
