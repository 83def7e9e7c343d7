/**
 * The inbox at 100,000 enquiries (issue 22, decision 058): a server of its own
 * per database (SQLite always; PostgreSQL when DATABASE_URL is set, on a
 * database the case creates and drops), seeded once with --inbox-enquiries
 * enquiries plus one to find (bench/lib/enquiries.ts), then, signed in, each
 * view of GET /api/admin/enquiries asked --inbox-runs times one after the
 * other (after one warm-up): the median and the slowest, from the request's
 * start to the whole answer. Target: each ≤ 50 ms median. Then the CSV of
 * every enquiry (GET /admin/enquiries.csv), 3 times: median ≤ 1 s as the file
 * itself (identity), and the time with a browser's Accept-Encoding beside it.
 */
import { DatabaseSync } from "node:sqlite";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { NEEDLE, seedEnquiries, type SeedTarget } from "../lib/enquiries.ts";
import { mb, readProcStatus, resetPeakRss, round } from "../lib/measure.ts";
import { stopProcess, temporaryDirectory } from "../lib/processes.ts";
import { startAppServer } from "../lib/server.ts";
import { ADMIN, signInAsAdmin } from "./upload.ts";

export const INBOX_TARGETS = { viewMedianMs: 50, csvMs: 1000 } as const;

export type InboxView = { name: string; path: string; medianMs: number; maxMs: number; count: number };
export type InboxResult = {
  backend: "sqlite" | "postgres";
  enquiries: number;
  seedMs: number;
  views: InboxView[];
  /** The file as it is (Accept-Encoding: identity): the server's work. */
  csv: { medianMs: number; bytes: number; rows: number };
  /** The same with a browser's Accept-Encoding: the compression middleware's work on top. */
  csvCompressedMs: number;
  /** The server's RSS before the CSV runs, and its peak during them (VmHWM, reset before), MB: the file must stream, never sit in memory whole. */
  csvRss: { beforeMb: number; peakMb: number };
};

const BROWSER_ENCODING = "gzip, deflate, br";

/** GET /admin/enquiries.csv of All, 3 times, from the request's start to the whole body. */
async function csvTimes(url: string, cookie: string, encoding: string): Promise<{ medianMs: number; bytes: number; rows: number }> {
  const times: number[] = [];
  let bytes = 0;
  let rows = 0;
  for (let run = 0; run < 3; run++) {
    const answer = await timed(`${url}/admin/enquiries.csv?filter=all`, cookie, encoding);
    if (answer.status !== 200) throw new Error(`The CSV answered ${answer.status}`);
    times.push(answer.ms);
    bytes = Buffer.byteLength(answer.body);
    rows = answer.body.split(/\r?\n/).filter(Boolean).length - 1;
  }
  return { medianMs: round(median(times)), bytes, rows };
}

/**
 * The views measured; `{cursor}` is the place after page 899 of All (so the
 * next page is page 900), `{unreadCursor}` and `{unassignedCursor}` after
 * page 19 of theirs; `{member}` the second member's id. The admin signed in
 * is the first member (Mine): bench/lib/enquiries.ts assigns the enquiries.
 */
const VIEWS: Array<{ name: string; path: string }> = [
  { name: "All, first page", path: "/api/admin/enquiries" },
  { name: "All, page 900 (keyset)", path: "/api/admin/enquiries?page=900&after={cursor}" },
  { name: "All, ?page=900 (old offset)", path: "/api/admin/enquiries?page=900" },
  { name: "Unread", path: "/api/admin/enquiries?filter=unread" },
  { name: "Status: Instructed", path: "/api/admin/enquiries?status=instructed" },
  { name: "Unread + Instructed, page 20", path: "/api/admin/enquiries?filter=unread&status=instructed&page=20&after={unreadCursor}" },
  { name: "Assigned to: Mine", path: "/api/admin/enquiries?assignee=mine" },
  { name: "Assigned to: Unassigned", path: "/api/admin/enquiries?assignee=unassigned" },
  { name: "Unassigned, page 20 (keyset)", path: "/api/admin/enquiries?assignee=unassigned&page=20&after={unassignedCursor}" },
  { name: "Assigned to: a member", path: "/api/admin/enquiries?assignee={member}" },
  { name: "Due", path: "/api/admin/enquiries?due=1" },
  { name: "Search: a name", path: `/api/admin/enquiries?q=${encodeURIComponent(NEEDLE.name.split(" ")[1]!)}` },
  { name: "Search: an e-mail", path: `/api/admin/enquiries?q=${encodeURIComponent(NEEDLE.email)}` },
  { name: "Search: a phone", path: `/api/admin/enquiries?q=${encodeURIComponent(NEEDLE.phone.slice(-6))}` },
  { name: "Search: a word of the message", path: "/api/admin/enquiries?q=lighthouse" },
  { name: "Search: a word in most messages", path: "/api/admin/enquiries?q=boiler" },
];

type Backend = {
  name: "sqlite" | "postgres";
  env: NodeJS.ProcessEnv;
  target: SeedTarget;
  /** The first row a statement answers (or runs it, for one that answers none). */
  first: (sql: string) => Promise<Record<string, unknown> | undefined>;
  done: () => Promise<void>;
};

const HELD = "('+' || coalesce(spam_signals, '') || '+') like '%+flood+%'";
/** The place of the n-th card (0-based) of All, and of Unread + Instructed. */
const ALL_AT = (offset: number) =>
  `select created_at, id from contact_submissions where spam_reason is null and not (${HELD}) order by created_at desc, id desc limit 1 offset ${offset}`;
const UNREAD_INSTRUCTED_AT = (offset: number, isRead: string) =>
  `select created_at, id from contact_submissions where spam_reason is null and not (${HELD}) and is_read = ${isRead} and status = 'instructed' order by created_at desc, id desc limit 1 offset ${offset}`;
const UNASSIGNED_AT = (offset: number) =>
  `select created_at, id from contact_submissions where spam_reason is null and not (${HELD}) and assigned_to is null order by created_at desc, id desc limit 1 offset ${offset}`;
/** A second member (Enquiries) to assign enquiries to: a row only, nobody signs in as them. */
const SECOND_MEMBER = {
  id: "00000000-0000-4000-8000-0000000b3c22",
  add: (now: string) =>
    `insert into admin_users (id, email, password_hash, role, name, created_at, updated_at) values ('00000000-0000-4000-8000-0000000b3c22', 'second.member@example.com', 'no password', 'enquiries', 'Second Member', '${now}', '${now}')`,
};

function place(row: Record<string, unknown> | undefined): string {
  if (!row) throw new Error("The seeded inbox is shorter than the pages the case asks for.");
  const at = row.created_at instanceof Date ? row.created_at.toISOString() : String(row.created_at);
  return `${at}_${String(row.id)}`;
}

async function sqliteBackend(): Promise<Backend> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pm-bench-inbox-"));
  temporaryDirectory(dataDir);
  const file = path.join(dataDir, "app.sqlite");
  return {
    name: "sqlite",
    env: { DATA_DIR: dataDir, DATABASE_URL: "" },
    target: { sqliteFile: file },
    first: async (query) => {
      const db = new DatabaseSync(file);
      try {
        return db.prepare(query).get();
      } finally {
        db.close();
      }
    },
    done: async () => {},
  };
}

async function postgresBackend(adminUrl: string): Promise<Backend> {
  const name = `pm_bench_inbox_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pm-bench-inbox-pg-"));
  temporaryDirectory(dataDir);
  return {
    name: "postgres",
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    target: { databaseUrl: url.toString() },
    first: async (query) => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query(query)).rows[0];
      } finally {
        await client.end();
      }
    },
    done: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function timed(url: string, cookie: string, encoding = "identity"): Promise<{ ms: number; body: string; status: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie, "accept-encoding": encoding } });
  const body = await response.text();
  return { ms: performance.now() - started, body, status: response.status };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export type InboxContext = { nodeArgs: string[]; env: NodeJS.ProcessEnv; enquiries: number; runs: number };

/** Every backend in turn: seed once, measure every view, then the CSV. */
export async function inboxCase(context: InboxContext): Promise<InboxResult[]> {
  const results: InboxResult[] = [];
  const databaseUrl = process.env.DATABASE_URL;
  const backends = [() => sqliteBackend(), ...(databaseUrl ? [() => postgresBackend(databaseUrl)] : [])];
  if (!databaseUrl) console.log("Inbox case: SQLite only (set DATABASE_URL to a PostgreSQL role that may CREATE DATABASE for PostgreSQL too).");
  for (const make of backends) {
    const backend = await make();
    const server = await startAppServer(
      context.nodeArgs,
      (port) => ({ ...context.env, ...backend.env, PORT: String(port), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }),
      {
        what: `The inbox case's server (${backend.name})`,
        graceMs: 15_000,
      },
    );
    try {
      await backend.first(SECOND_MEMBER.add(new Date().toISOString()));
      process.stdout.write(`Inbox on ${backend.name}: seeding ${context.enquiries.toLocaleString("en-GB")} + 1 enquiries… `);
      const seedMs = await seedEnquiries(backend.target, context.enquiries);
      console.log(`${(seedMs / 1000).toFixed(1)} s`);
      const cursor = place(await backend.first(ALL_AT(899 * 50 - 1)));
      const unreadCursor = place(await backend.first(UNREAD_INSTRUCTED_AT(19 * 50 - 1, backend.name === "postgres" ? "false" : "0")));
      const unassignedCursor = place(await backend.first(UNASSIGNED_AT(19 * 50 - 1)));
      const cookie = await signInAsAdmin(server.url);
      const views: InboxView[] = [];
      for (const view of VIEWS) {
        const url =
          server.url +
          view.path
            .replace("{cursor}", encodeURIComponent(cursor))
            .replace("{unreadCursor}", encodeURIComponent(unreadCursor))
            .replace("{unassignedCursor}", encodeURIComponent(unassignedCursor))
            .replace("{member}", SECOND_MEMBER.id);
        const times: number[] = [];
        let count = 0;
        for (let run = 0; run <= context.runs; run++) {
          const answer = await timed(url, cookie);
          if (answer.status !== 200) throw new Error(`${view.path} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
          if (run === 0) {
            count = (JSON.parse(answer.body) as { submissions: unknown[] }).submissions.length;
            continue;
          }
          times.push(answer.ms);
        }
        views.push({ name: view.name, path: view.path, medianMs: round(median(times)), maxMs: round(Math.max(...times)), count });
        console.log(
          `  ${view.name.padEnd(34)} ${String(round(median(times))).padStart(7)} ms median, ${String(round(Math.max(...times))).padStart(7)} ms max (${count} cards)`,
        );
      }
      const rssBefore = readProcStatus(server.pid)?.rssKb ?? Number.NaN;
      resetPeakRss(server.pid);
      const csv = await csvTimes(server.url, cookie, "identity");
      const csvCompressed = await csvTimes(server.url, cookie, BROWSER_ENCODING);
      const csvRss = { beforeMb: mb(rssBefore), peakMb: mb(readProcStatus(server.pid)?.hwmKb ?? Number.NaN) };
      console.log(
        `  ${"CSV of All".padEnd(34)} ${String(csv.medianMs).padStart(7)} ms median (${(csv.bytes / 1048576).toFixed(1)} MiB, ${csv.rows.toLocaleString("en-GB")} rows); ` +
          `${csvCompressed.medianMs} ms as a browser asks for it (${BROWSER_ENCODING}: compressed on the fly); ` +
          `server RSS ${csvRss.beforeMb} MB before, ${csvRss.peakMb} MB at its peak during the CSV runs`,
      );
      results.push({
        backend: backend.name,
        enquiries: context.enquiries + 1,
        seedMs: round(seedMs, 0),
        views,
        csv,
        csvCompressedMs: csvCompressed.medianMs,
        csvRss,
      });
    } finally {
      await stopProcess(server.proc, 15_000);
      await backend.done();
    }
  }
  return results;
}
