/**
 * Benchmark of the public site (issue 2, point 8; issue 6, points 6 and 7).
 *
 *   npm run bench                       build, then measure every case: the three load cases and
 *                                       static / (10 s each), the upload case, the footprint
 *   npm run bench -- --duration=5       seconds per measured load run (default 10)
 *   npm run bench -- --only=contact     some cases, comma-separated: home | proxied | static |
 *                                       projects | contact | upload | footprint; `static` and
 *                                       `proxied` run with GET /, `footprint` the cold starts and idle RSS
 *                                       (e.g. --only=home,projects,contact,footprint for the idle
 *                                       RSS after load without the upload case)
 *   npm run bench -- --warmup=2         seconds of warm-up before each load case (default 2)
 *   npm run bench -- --uploads=5        timed uploads in the upload case (default 5, after 1 warm-up)
 *   npm run bench -- --starts=5         fresh cold starts in the footprint case (default 5)
 *   npm run bench -- --encoding=identity  Accept-Encoding for the GET cases
 *                                       (default "gzip, deflate, br", as a browser sends)
 *   npm run bench -- --cpu-prof         also write a V8 CPU profile of the server to
 *                                       bench/results/cpu-prof/ (open in Chrome DevTools)
 *   npm run bench -- --node-args="--trace-gc --max-semi-space-size=8"
 *                                       extra Node options for the server (experiments);
 *                                       its output is saved in bench/results/server.log
 *
 * What it does: starts the production build (`server.js`, NODE_ENV=production) as a
 * child on a free port with a temporary DATA_DIR (SQLite), seeds three active
 * renovation projects straight into the database file (WAL lets a second
 * connection write), then drives it with autocannon:
 *   GET /              50 connections   target ≥ 500 req/s
 *   GET /api/projects  50 connections   target ≥ 3,000 req/s
 *   POST /api/contact  20 connections   target ≥ 500 durable enquiries/s
 * and for every case p99 ≤ 100 ms (GET /: ≤ 50 ms); for the server peak RSS over these
 * cases ≤ 250 MB.
 *
 * GET / is answered from the page cache (docs/decisions/016): the bench seeds the projects
 * behind the server's back, and after the load cases checks that a project another
 * connection adds, then hides, shows and goes on the very next GET /.
 *
 * GET / via proxy (issue 13, point 6): a second server on the same data directory with
 * TRUST_PROXY=loopback and no PUBLIC_URL, as behind nginx, driven like GET / with the headers
 * nginx adds (Host, X-Forwarded-For, X-Forwarded-Proto), right after it. Target: its 2xx/s at
 * least 0.9 × GET /'s (the page cache serves it too).
 *
 * static / (issue 6, point 6): the bench fetches `GET /` once from the running app
 * with the home case's headers (so the gzip-encoded bytes a browser gets), raw, and
 * serves those exact bytes with the app's response headers (Content-Type,
 * Content-Encoding, the security headers…, plus a Content-Length) from
 * bench/static-server.ts: a minimal node:http server, no Express, in its own
 * process on this machine. It is driven like GET / (50 connections, same warm-up
 * and duration), right after it. Targets: GET / 2xx/s ≥ 1/3 of static /'s, and
 * GET / p99 ≤ 50 ms.
 *
 * footprint (issue 6, point 7): before the main server starts, --starts fresh
 * servers one after the other, each as npm start runs it (same flags and
 * environment; ADMIN_EMAIL/ADMIN_PASSWORD set, so each start also creates the
 * admin) on a fresh empty DATA_DIR (so each start runs the migrations): cold
 * start = spawn to the first 200 from /healthz (polled every 10 ms), target
 * ≤ 1.5 s, reported as median and max. Idle RSS = the main server's VmRSS right
 * after its start and, after the load cases that ran, once idle: the upload
 * case's wait (RSS has stopped falling for 10 s), but at least 60 s and at most
 * 120 s, since RSS stays flat for the first seconds after a burst before V8's
 * memory reducer gives the heap back; the upload case then reuses that wait.
 * Target ≤ 150 MB.
 *
 * Only 2xx responses count as successes. After the contact run every enquiry
 * that was acknowledged (2xx with its id) is looked up in contact_submissions:
 * a missing one, or a 2xx count that differs from the acknowledged ids, fails
 * the run. Rows stored but never acknowledged are expected only for requests in
 * flight when the load generator stopped (at most one per connection).
 *
 * The child gets CONTACT_RATE_LIMIT = 1000000 (the most it takes): every request comes from
 * 127.0.0.1, and a per-IP limit would turn the contact case into a
 * measurement of 429s. (Only the upload case signs in, once, so LOGIN_RATE_LIMIT
 * stays as it is.) (If the env schema ever caps them lower, the server refuses
 * to start and the bench says so.)
 *
 * Then the upload case (issue: "a 10 MB, 24-megapixel JPEG through the server's
 * processing … beside `sharp` doing the same work alone"): a 6000×4000 JPEG of
 * 9–10 MiB (under the 10,485,760-byte cap) with EXIF orientation 6 and GPS, made
 * by bench/upload-image.ts and cached in bench/results/. The bench signs in
 * (the child gets ADMIN_EMAIL/ADMIN_PASSWORD, only when this case runs) and
 * POSTs it to /api/admin/images, one at a time: 1 warm-up, then --uploads timed,
 * each from the request's start to its 201 answer. Every answer must be the
 * upright 1280×1920 (height > width), else the case fails. Beside it,
 * bench/sharp-alone.ts, in its own process with the server's Node flags and
 * GLIBC_TUNABLES, runs the same processImage (imported from the build) the
 * same number of times, taking turns with the server (upload, processImage,
 * upload, …: the two never overlap, and background load on the machine weighs
 * on both alike). Targets:
 *   upload median ≤ 1.3 × processImage-alone median
 *   server peak RSS during the upload case ≤ 350 MB
 * The server's VmHWM is reset (/proc/<pid>/clear_refs) when the case starts, so
 * its peak is the case's own, not the load cases'; the sampled VmRSS maximum is
 * reported beside it. Right after the load cases V8 still holds the heap they
 * grew (about 250 MB of RSS, falling to about 130 MB once the server has been
 * idle for a while): the case first waits, at most 90 s, until RSS has stopped
 * falling for 10 s, as a server is between visitors' bursts when an admin
 * uploads, and reports RSS before and after that wait. The rise over the
 * case's starting RSS is reported too. Afterwards a 10 MB file of random bytes is posted 3 times
 * (415 once the multipart body is read in full): the cost of transfer +
 * multipart + session check, without the image work.
 *
 * RSS: /proc/<pid>/status VmRSS every 100 ms, and VmHWM at the end of the load
 * cases (and of the upload case, after its reset).
 * Results: a table on stdout, JSON in bench/results/latest.json (git-ignored).
 * Exit code 0 even when a target is missed (a measurement, not a test);
 * non-zero when the server does not start or crashes, enquiries do not add up,
 * GET / after the load does not show (then stop showing) a project another
 * connection adds (then hides), or an upload is refused or comes back the
 * wrong size or not upright.
 *
 * Caveat: autocannon runs in this process, on the same 2 cores as the server, so
 * the load generator takes CPU from the server. That is typical for a one-machine
 * benchmark; read the numbers as a lower bound for the server alone.
 *
 * Runs directly on Node 24 (type stripping): only erasable TypeScript syntax, and
 * nothing imported from app/ (no ~/ aliases at run time).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import autocannon, { type Instance, type RequestSpec, type Result } from "autocannon";
import sharp from "sharp";
import { ensureUploadImage, type UploadImage } from "./upload-image.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULTS_DIR = path.join(ROOT, "bench", "results");
const CASE_NAMES = ["home", "proxied", "static", "projects", "contact", "upload", "footprint"] as const;
type CaseName = (typeof CASE_NAMES)[number];
/** The cases autocannon drives (all but upload and footprint). */
type LoadCaseName = Exclude<CaseName, "upload" | "footprint">;

const TARGETS = {
  homeRps: 500,
  projectsRps: 3000,
  contactDurablePerSecond: 500,
  p99Ms: 100,
  homeP99Ms: 50,
  /** GET / 2xx/s ÷ static / 2xx/s. */
  homeVsStatic: 1 / 3,
  /** GET / behind a proxy (TRUST_PROXY=loopback) 2xx/s ÷ GET / direct 2xx/s. */
  proxiedVsHome: 0.9,
  coldStartMs: 1500,
  idleRssMb: 150,
  peakRssMb: 250,
  /** Upload median / processImage-alone median. */
  uploadRatio: 1.3,
  uploadPeakRssMb: 350,
} as const;

// ---------------------------------------------------------------- options

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    only: { type: "string" },
    encoding: { type: "string", default: "gzip, deflate, br" },
    uploads: { type: "string", default: "5" },
    starts: { type: "string", default: "5" },
    "cpu-prof": { type: "boolean", default: false },
    "node-args": { type: "string", default: "" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});

if (flags.help) {
  const header = readFileSync(new URL(import.meta.url), "utf8").split("*/")[0] ?? "";
  console.log(header.replace(/^\/\*\*?|^ \* ?/gm, ""));
  process.exit(0);
}

function positiveNumber(name: string, raw: string, allowZero: boolean): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    console.error(`--${name} must be a ${allowZero ? "non-negative" : "positive"} number of seconds (got ${JSON.stringify(raw)})`);
    process.exit(2);
  }
  return value;
}
const DURATION = positiveNumber("duration", flags.duration, false);
const WARMUP = positiveNumber("warmup", flags.warmup, true);
let cases: CaseName[] = [...CASE_NAMES];
if (flags.only !== undefined) {
  const asked = flags.only.split(",").map((name) => name.trim());
  const unknown = asked.filter((name) => !(CASE_NAMES as readonly string[]).includes(name));
  if (unknown.length || asked.length === 0) {
    console.error(`--only takes one or more of ${CASE_NAMES.join(", ")}, comma-separated (got ${JSON.stringify(flags.only)})`);
    process.exit(2);
  }
  // static / and GET / behind a proxy are only meaningful beside GET /, measured just before them.
  if (asked.includes("static") || asked.includes("proxied")) asked.push("home");
  cases = CASE_NAMES.filter((name) => asked.includes(name));
}
const ACCEPT_ENCODING = flags.encoding;
const UPLOADS = Number(flags.uploads);
if (!Number.isInteger(UPLOADS) || UPLOADS < 1) {
  console.error(`--uploads must be a positive whole number (got ${JSON.stringify(flags.uploads)})`);
  process.exit(2);
}
const STARTS = Number(flags.starts);
if (!Number.isInteger(STARTS) || STARTS < 1) {
  console.error(`--starts must be a positive whole number (got ${JSON.stringify(flags.starts)})`);
  process.exit(2);
}
const loadCases = cases.filter((name): name is LoadCaseName => name !== "upload" && name !== "footprint");
const runUpload = cases.includes("upload");
const runFootprint = cases.includes("footprint");

// ---------------------------------------------------------------- clean-up, always

let child: ChildProcess | undefined;
/** bench/sharp-alone.ts while it runs. */
let helper: ChildProcess | undefined;
/** bench/static-server.ts or the app behind a proxy (a case's own process), while it runs. */
let sideServer: ChildProcess | undefined;
let coldChild: ChildProcess | undefined;
let coldDataDir: string | undefined;
let childExited: Promise<void> = Promise.resolve();
let dataDir: string | undefined;
let current: Instance | undefined;
let interrupted = false;
let serverLog = "";

async function stopServer(): Promise<void> {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    const killer = setTimeout(() => child?.kill("SIGKILL"), 15_000);
    await childExited;
    clearTimeout(killer);
  }
}

function removeDataDir(): void {
  if (dataDir) {
    rmSync(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the load and the server…`);
    current?.stop();
    helper?.kill("SIGKILL");
    sideServer?.kill("SIGKILL");
    coldChild?.kill("SIGKILL");
    void stopServer().finally(() => {
      removeDataDir();
      process.exit(130);
    });
  });
}
// Last resort if something throws past the finally below: never leave the server running.
process.on("exit", () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const other of [helper, sideServer, coldChild]) {
    if (other && other.exitCode === null && other.signalCode === null) other.kill("SIGKILL");
  }
  if (coldDataDir) rmSync(coldDataDir, { recursive: true, force: true });
  removeDataDir();
});

// ---------------------------------------------------------------- helpers

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

type ProcStatus = { rssKb: number; hwmKb: number };
function readProcStatus(pid: number): ProcStatus | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
    return { rssKb: field("VmRSS"), hwmKb: field("VmHWM") };
  } catch {
    return undefined;
  }
}

/** utime + stime of a process in seconds (from /proc/<pid>/stat; clock ticks are 100 Hz on Linux). */
function readCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function git(...args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

function filesystemOf(dir: string): string {
  try {
    const type = statfsSync(dir).type;
    const known: Record<number, string> = { 0x01021994: "tmpfs", 0xef53: "ext4", 0x58465342: "xfs", 0x9123683e: "btrfs", 0x794c7630: "overlayfs" };
    return known[type] ?? `0x${type.toString(16)}`;
  } catch {
    return "unknown";
  }
}

// ---------------------------------------------------------------- RSS sampler

class RssSampler {
  peakKb = 0;
  casePeakKb = 0;
  samples = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly pid: number;
  constructor(pid: number) {
    this.pid = pid;
  }
  start(): void {
    this.timer = setInterval(() => this.sample(), 100);
    this.sample();
  }
  sample(): void {
    const status = readProcStatus(this.pid);
    if (!status || !Number.isFinite(status.rssKb)) return;
    this.samples++;
    this.peakKb = Math.max(this.peakKb, status.rssKb);
    this.casePeakKb = Math.max(this.casePeakKb, status.rssKb);
  }
  resetCase(): void {
    this.casePeakKb = 0;
    this.sample();
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

// ---------------------------------------------------------------- the cases

type Acknowledged = { ids: Set<string>; badBodies: number };

function contactRequest(counter: { next: number }, acknowledged: Acknowledged): RequestSpec {
  const userTypes = ["landlord", "tenant", "investor", "other"];
  return {
    method: "POST",
    path: "/api/contact",
    headers: { "content-type": "application/json", accept: "application/json" },
    setupRequest(request) {
      const n = counter.next++;
      request.body = JSON.stringify({
        name: `Bench Visitor ${n}`,
        email: `visitor${n}@example.com`,
        ...(n % 2 === 0 ? { phone: `07700 9${String(n % 100000).padStart(5, "0")}` } : {}),
        userType: userTypes[n % userTypes.length],
        message: `Benchmark enquiry number ${n}. I own a two-bedroom flat and would like to know more about your full management service and fees.`,
      });
      return request;
    },
    onResponse(status, body) {
      if (status < 200 || status >= 300) return;
      try {
        const parsed = JSON.parse(body) as { id?: unknown };
        if (typeof parsed.id === "string") acknowledged.ids.add(parsed.id);
        else acknowledged.badBodies++;
      } catch {
        acknowledged.badBodies++;
      }
    },
  };
}

type CaseSpec = {
  name: LoadCaseName;
  label: string;
  connections: number;
  targetRps: number;
  targetLabel: string;
  p99TargetMs: number;
  requests: () => RequestSpec[];
};

/** What a browser's GET / sends; static / is requested with the same headers. */
const HOME_HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": ACCEPT_ENCODING,
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) bench",
};

const contactCounter = { next: 1 };
const acknowledged: Acknowledged = { ids: new Set(), badBodies: 0 };

const SPECS: Record<LoadCaseName, CaseSpec> = {
  home: {
    name: "home",
    label: "GET /",
    connections: 50,
    targetRps: TARGETS.homeRps,
    targetLabel: `≥ ${TARGETS.homeRps} req/s`,
    p99TargetMs: TARGETS.homeP99Ms,
    requests: () => [{ method: "GET", path: "/", headers: HOME_HEADERS }],
  },
  proxied: {
    name: "proxied",
    label: "GET / via proxy",
    connections: 50,
    targetRps: 0,
    targetLabel: `≥ ${TARGETS.proxiedVsHome} × GET /`,
    p99TargetMs: TARGETS.homeP99Ms,
    // What nginx in front sends (proxy_set_header Host $host, X-Forwarded-For, X-Forwarded-Proto).
    requests: () => [
      {
        method: "GET",
        path: "/",
        headers: { ...HOME_HEADERS, host: "www.example-lettings.co.uk", "x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https" },
      },
    ],
  },
  static: {
    name: "static",
    label: "static / (node:http)",
    connections: 50,
    targetRps: 0,
    targetLabel: "reference",
    p99TargetMs: Infinity,
    requests: () => [{ method: "GET", path: "/", headers: HOME_HEADERS }],
  },
  projects: {
    name: "projects",
    label: "GET /api/projects",
    connections: 50,
    targetRps: TARGETS.projectsRps,
    targetLabel: `≥ ${TARGETS.projectsRps.toLocaleString("en-GB")} req/s`,
    p99TargetMs: TARGETS.p99Ms,
    requests: () => [
      { method: "GET", path: "/api/projects", headers: { accept: "application/json", "accept-encoding": ACCEPT_ENCODING } },
    ],
  },
  contact: {
    name: "contact",
    label: "POST /api/contact",
    connections: 20,
    targetRps: TARGETS.contactDurablePerSecond,
    targetLabel: `≥ ${TARGETS.contactDurablePerSecond} durable/s`,
    p99TargetMs: TARGETS.p99Ms,
    requests: () => [contactRequest(contactCounter, acknowledged)],
  },
};

async function load(url: string, spec: CaseSpec, seconds: number): Promise<Result> {
  const instance = autocannon({
    url,
    connections: spec.connections,
    duration: seconds,
    timeout: 10,
    requests: spec.requests(),
  });
  current = instance;
  try {
    return await instance;
  } finally {
    current = undefined;
  }
}

type CaseResult = {
  case: LoadCaseName;
  label: string;
  connections: number;
  durationS: number;
  requestsPerSecondMean: number;
  successesPerSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  total: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  serverCpuPercent: number;
  serverCpuMsPerRequest: number;
  benchCpuPercent: number;
  peakRssMb: number;
  durable?: {
    rowsBefore: number;
    rowsAfter: number;
    storedDuringRun: number;
    acknowledgedDuringRun: number;
    storedNotAcknowledged: number;
    missingAcknowledged: number;
    durablePerSecond: number;
    ok: boolean;
    problem?: string;
  };
  target: string;
  rateOk: boolean;
  p99Ok: boolean;
};

function countRows(db: DatabaseSync): number {
  const row = db.prepare("select count(*) as n from contact_submissions").get() as { n: number };
  return Number(row.n);
}

// ---------------------------------------------------------------- the upload case

// One sign-in, by the bench: the password only has to satisfy the server's rules.
const ADMIN = { email: "bench@example.com", password: `bench-${randomBytes(12).toString("hex")}` };

type Spread = { medianMs: number; minMs: number; maxMs: number };
function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { medianMs: round(median), minMs: round(sorted[0] ?? NaN), maxMs: round(sorted.at(-1) ?? NaN) };
}

/** The session cookie (`name=value`) of a fresh sign-in. */
async function signInAsAdmin(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/admin/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
    body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }).toString(),
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!.trim())
    .find((pair) => /^(__Host-)?admin_session=./.test(pair));
  if (response.status !== 302 || !cookie) {
    throw new Error(`POST /admin/sign-in answered ${response.status}${cookie ? "" : " without a session cookie"}`);
  }
  return cookie;
}

type UploadAnswer = {
  status: number;
  ms: number;
  body: { url?: unknown; name?: unknown; width?: unknown; height?: unknown; error?: unknown };
};

/** One multipart POST to /api/admin/images, timed from the request's start to the whole answer. */
async function postImage(baseUrl: string, cookie: string, bytes: Uint8Array<ArrayBuffer>, filename: string): Promise<UploadAnswer> {
  const form = new FormData();
  form.append("file", new Blob([bytes], { type: "image/jpeg" }), filename);
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/admin/images`, {
    method: "POST",
    headers: { origin: baseUrl, cookie, accept: "application/json" },
    body: form,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let body: UploadAnswer["body"];
  try {
    body = JSON.parse(text) as UploadAnswer["body"];
  } catch {
    body = { error: text.slice(0, 200) };
  }
  return { status: response.status, ms, body };
}

/** Waits until a process's RSS has not fallen by more than 2 MB for 10 s (at most `limitMs`). */
type Settled = { fromMb: number; toMb: number; seconds: number; /** VmRSS every 5 s of the wait, MB. */ trace: number[] };
/**
 * Waits until a process's RSS has not fallen by more than 2 MB for 10 s, and at
 * least `minMs` (at most `limitMs`).
 */
async function settleRss(pid: number, limitMs = 90_000, minMs = 0): Promise<Settled> {
  const started = performance.now();
  const rss = () => readProcStatus(pid)?.rssKb ?? 0;
  const from = rss();
  const trace = [mb(from)];
  let low = from;
  let lowSince = performance.now();
  let ticks = 0;
  while (performance.now() - started < limitMs && (performance.now() - lowSince < 10_000 || performance.now() - started < minMs)) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = rss();
    if (++ticks % 5 === 0) trace.push(mb(now));
    if (now < low - 2048) {
      low = now;
      lowSince = performance.now();
    }
  }
  return { fromMb: mb(from), toMb: mb(rss()), seconds: Math.round((performance.now() - started) / 1000), trace };
}

/** Resets a process's VmHWM to its current RSS (Linux ≥ 4.0; our own child, so allowed). */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

type AloneReport = {
  timesMs: number[];
  cpuMsPerRun: number;
  rssAfterImportMb: number;
  vmHwmMb: number;
  vmRssMb: number;
  output: { width: number; height: number; extension: string; files: number; bytes: number } | null;
};

/**
 * bench/sharp-alone.ts in its own process (its RSS is its own), paced: each
 * step() runs processImage once there and resolves when it is done, so its
 * runs can alternate with the server's uploads.
 */
class SharpAlone {
  private readonly proc: ChildProcess;
  private readonly lines: AsyncIterator<string>;
  private readonly closed: Promise<number | null>;
  private readonly output: string[] = [];
  private errors = "";

  constructor(nodeArgs: readonly string[], env: Record<string, string>, image: string, runs: number) {
    const script = path.join(ROOT, "bench", "sharp-alone.ts");
    this.proc = spawn(process.execPath, [...nodeArgs, script, `--image=${image}`, `--runs=${runs}`, "--warmup=1", "--paced"], {
      cwd: ROOT,
      env: { ...process.env, ...env, NODE_ENV: "production" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    helper = this.proc;
    this.proc.stderr?.on("data", (chunk: Buffer) => (this.errors = (this.errors + chunk.toString()).slice(-5000)));
    this.closed = new Promise((resolve) => this.proc.once("close", (code) => resolve(code)));
    this.lines = createInterface({ input: this.proc.stdout! })[Symbol.asyncIterator]();
  }

  private async line(): Promise<string> {
    const next = await this.lines.next();
    // Killed by the SIGINT/SIGTERM handler, which ends this process: nothing to report.
    if (next.done && interrupted) return new Promise<string>(() => {});
    if (next.done) throw new Error(`bench/sharp-alone.ts stopped early (code ${await this.closed}): ${this.errors}`);
    this.output.push(next.value);
    return next.value;
  }

  /** Loaded (the build imported, the image read). */
  async ready(): Promise<void> {
    await this.line();
  }

  async step(): Promise<void> {
    this.proc.stdin?.write("go\n");
    await this.line();
  }

  /** After the last step: the summary. */
  async finish(): Promise<AloneReport> {
    const summary = await this.line();
    const code = await this.closed;
    helper = undefined;
    if (code !== 0) throw new Error(`bench/sharp-alone.ts exited with ${code}: ${this.errors}`);
    try {
      return JSON.parse(summary) as AloneReport;
    } catch {
      throw new Error(`bench/sharp-alone.ts printed no summary: ${this.output.join("\n").slice(-1000)} ${this.errors}`);
    }
  }
}

type UploadResult = {
  case: "upload";
  label: string;
  image: UploadImage;
  uploads: number;
  expected: { width: number; height: number };
  server: Spread & {
    timesMs: number[];
    answers: { width: number; height: number }[];
    cpuMsPerUpload: number;
    /** max(sampled VmRSS, VmHWM since the reset) */
    peakRssMb: number;
    sampledPeakRssMb: number;
    /** VmHWM since the reset at the case's start; null when it could not be reset. */
    vmHwmMb: number | null;
    rssBeforeMb: number;
    /** The idle wait before the case: RSS when the load cases ended, after the wait, and how long it took. */
    settled: Settled;
    /** peakRssMb − rssBeforeMb: what the uploads added to what the server held when the case began. */
    riseMb: number;
    storedFiles: number;
    storedFilesExpected: number;
  };
  /** A 10 MB non-image (415 after the whole body is read): transfer + multipart + session check. */
  requestOverhead: Spread & { status: number };
  sharpAlone: Spread & AloneReport;
  /** server median / alone median: the target. */
  ratio: number;
  /** Server CPU time per upload / alone CPU time per run: less disturbed by other work on the machine. */
  cpuRatio: number;
  target: string;
  ratioOk: boolean;
  rssOk: boolean;
  ok: boolean;
  problem?: string;
};

type UploadContext = {
  baseUrl: string;
  pid: number;
  sampler: RssSampler;
  image: UploadImage;
  dataDir: string;
  aloneNodeArgs: readonly string[];
  aloneEnv: Record<string, string>;
  serverAlive: () => boolean;
  /** The footprint case's wait, when it already ran: not waited for again. */
  settled?: Settled;
};

async function uploadCase(context: UploadContext): Promise<UploadResult | undefined> {
  const { baseUrl, pid, sampler, image } = context;
  const label = "POST /api/admin/images";
  const problems: string[] = [];
  const bytes = readFileSync(image.file);
  // Orientation 6: the stored 6000×4000 turns upright to 4000×6000, then fits 1920.
  const upright = image.orientation >= 5 ? { width: image.height, height: image.width } : { width: image.width, height: image.height };
  const scale = Math.min(1, 1920 / Math.max(upright.width, upright.height));
  const expected = { width: Math.round(upright.width * scale), height: Math.round(upright.height * scale) };

  process.stdout.write(`${label}: signing in… `);
  const cookie = await signInAsAdmin(baseUrl);

  const imagesDir = path.join(context.dataDir, "images");
  const countFiles = () => {
    try {
      return readdirSync(imagesDir).filter((name) => !name.startsWith(".")).length;
    } catch {
      return 0;
    }
  };
  const filesBefore = countFiles();
  // After the load cases V8 keeps its grown heap until the server has been
  // idle a while (its memory reducer then collects it: 250 → 130 MB within
  // a minute, measured). An admin uploads on such a server, not mid-burst:
  // wait (at most 90 s) until RSS has stopped falling for 10 s.
  const settled = context.settled ?? (await settleRss(pid));
  const rssBefore = readProcStatus(pid);
  const hwmReset = resetPeakRss(pid);
  sampler.resetCase();

  const answers: { width: number; height: number }[] = [];
  const times: number[] = [];
  let lastUrl: string | undefined;
  const check = (answer: UploadAnswer, which: string) => {
    const { width, height, url } = answer.body;
    if (answer.status !== 201 || typeof width !== "number" || typeof height !== "number" || typeof url !== "string") {
      problems.push(`${which} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      return false;
    }
    lastUrl = url;
    if (!(height > width)) problems.push(`${which} came back ${width}×${height}: not upright (EXIF orientation ${image.orientation} ignored?)`);
    else if (width !== expected.width || height !== expected.height) problems.push(`${which} came back ${width}×${height}, expected ${expected.width}×${expected.height}`);
    return true;
  };

  // processImage alone, in its own process, takes turns with the server: upload, run, upload, run…
  // so that other work on the machine weighs on both alike. Idle, each waits without using CPU.
  const alone = new SharpAlone(context.aloneNodeArgs, context.aloneEnv, image.file, UPLOADS);
  await alone.ready();
  process.stdout.write("warm-up (1 upload + 1 alone)… ");
  const warm = await postImage(baseUrl, cookie, bytes, "IMG_0001.jpg");
  check(warm, "the warm-up upload");
  await alone.step();
  process.stdout.write(`measuring ${UPLOADS} uploads, each followed by a processImage alone… `);
  let cpuSeconds = 0;
  for (let index = 0; index < UPLOADS && !interrupted && context.serverAlive(); index++) {
    const cpuBefore = readCpuSeconds(pid);
    const answer = await postImage(baseUrl, cookie, bytes, `IMG_${String(index + 2).padStart(4, "0")}.jpg`);
    cpuSeconds += readCpuSeconds(pid) - cpuBefore;
    if (check(answer, `upload ${index + 1}`)) {
      times.push(answer.ms);
      answers.push({ width: Number(answer.body.width), height: Number(answer.body.height) });
    }
    await alone.step();
  }
  sampler.sample();
  const after = readProcStatus(pid);
  if (interrupted) return undefined;
  if (!context.serverAlive()) throw new Error(`The server died during ${label}. Its output:\n${serverLog.slice(-5000)}`);
  const aloneReport = await alone.finish();
  // The request without the image work, after the peak is read: the same 10 MB, random bytes that no sniffer takes for an image.
  const noise = randomBytes(image.bytes);
  noise.fill(0, 0, 1024);
  const overhead: number[] = [];
  let overheadStatus = 0;
  for (let index = 0; index < 3 && !interrupted; index++) {
    const answer = await postImage(baseUrl, cookie, noise, "noise.jpg");
    overheadStatus = answer.status;
    overhead.push(answer.ms);
  }
  if (overheadStatus !== 415) problems.push(`the 10 MB non-image answered ${overheadStatus}, expected 415`);

  const server = spread(times);
  const aloneSpread = spread(aloneReport.timesMs);
  console.log(`medians ${server.medianMs} ms and ${aloneSpread.medianMs} ms`);
  if (aloneReport.output && (aloneReport.output.width !== expected.width || aloneReport.output.height !== expected.height)) {
    problems.push(`processImage alone made ${aloneReport.output.width}×${aloneReport.output.height}, expected ${expected.width}×${expected.height}`);
  }

  // What was stored: 7 files per upload (the main JPEG, AVIF + WebP at 3 widths), no metadata left.
  const storedFiles = countFiles() - filesBefore;
  const storedFilesExpected = (UPLOADS + 1) * 7;
  if (storedFiles !== storedFilesExpected) problems.push(`${storedFiles} files stored for ${UPLOADS + 1} uploads, expected ${storedFilesExpected}`);
  if (lastUrl) {
    const stored = await fetch(new URL(lastUrl, baseUrl));
    const meta = await sharp(Buffer.from(await stored.arrayBuffer())).metadata();
    if (!stored.ok) problems.push(`GET ${lastUrl} answered ${stored.status}`);
    else if (meta.exif || meta.orientation || meta.icc || meta.xmp) problems.push(`the stored image still has metadata (${["exif", "orientation", "icc", "xmp"].filter((key) => meta[key as keyof typeof meta]).join(", ")})`);
  }

  const sampledPeakRssMb = mb(Math.max(sampler.casePeakKb, after?.rssKb ?? 0));
  const vmHwmMb = hwmReset && after ? mb(after.hwmKb) : null;
  const peakRssMb = Math.max(sampledPeakRssMb, vmHwmMb ?? 0);
  const ratio = round(server.medianMs / aloneSpread.medianMs, 2);
  const ok = problems.length === 0 && times.length === UPLOADS;
  return {
    case: "upload",
    label,
    image: { ...image, file: path.relative(ROOT, image.file) },
    uploads: UPLOADS,
    expected,
    server: {
      ...server,
      timesMs: times.map((ms) => round(ms)),
      answers,
      cpuMsPerUpload: round((cpuSeconds * 1000) / Math.max(1, times.length)),
      peakRssMb,
      sampledPeakRssMb,
      vmHwmMb,
      rssBeforeMb: rssBefore ? mb(rssBefore.rssKb) : NaN,
      settled,
      riseMb: rssBefore ? round(peakRssMb - mb(rssBefore.rssKb)) : NaN,
      storedFiles,
      storedFilesExpected,
    },
    requestOverhead: { ...spread(overhead), status: overheadStatus },
    sharpAlone: { ...aloneSpread, ...aloneReport },
    ratio,
    cpuRatio: round((cpuSeconds * 1000) / Math.max(1, times.length) / aloneReport.cpuMsPerRun, 2),
    target: `≤ ${TARGETS.uploadRatio}× alone, RSS ≤ ${TARGETS.uploadPeakRssMb} MB`,
    ratioOk: ratio <= TARGETS.uploadRatio,
    rssOk: peakRssMb <= TARGETS.uploadPeakRssMb,
    ok,
    ...(problems.length ? { problem: problems.join("; ") } : {}),
  };
}

// ---------------------------------------------------------------- static / and footprint

/** GET / as the home case requests it, raw: the body as sent (still compressed), and the headers. */
function fetchRaw(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.setTimeout(10_000, () => request.destroy(new Error(`GET ${url} timed out`)));
  });
}

// Hop-by-hop or per-response: the static server sets its own (a Content-Length instead of chunks).
const NOT_COPIED = new Set(["connection", "keep-alive", "transfer-encoding", "date", "content-length"]);

type StaticServer = { url: string; pid: number; bytes: number; headers: Record<string, string | string[]> };

/** Serves the exact bytes of the app's GET / from bench/static-server.ts (own process). */
async function startStaticServer(baseUrl: string): Promise<StaticServer> {
  const original = await fetchRaw(`${baseUrl}/`, HOME_HEADERS);
  if (original.status !== 200) throw new Error(`GET / answered ${original.status}; static / needs a 200 to copy`);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(original.headers)) {
    if (value !== undefined && !NOT_COPIED.has(name)) headers[name] = value;
  }
  const bodyFile = path.join(RESULTS_DIR, "static-home.body");
  const headersFile = path.join(RESULTS_DIR, "static-home.headers.json");
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(bodyFile, original.body);
  writeFileSync(headersFile, `${JSON.stringify(headers, null, 2)}\n`);

  const proc = spawn(process.execPath, [path.join(ROOT, "bench", "static-server.ts"), bodyFile, headersFile], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  sideServer = proc;
  let errors = "";
  proc.stderr?.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-5000)));
  const first = await createInterface({ input: proc.stdout! })[Symbol.asyncIterator]().next();
  const port = /^listening (\d+)$/.exec(first.done ? "" : first.value)?.[1];
  if (!port || proc.pid === undefined) throw new Error(`bench/static-server.ts did not start: ${errors}`);
  const url = `http://127.0.0.1:${port}`;
  // It must answer exactly what the app did.
  const copy = await fetchRaw(`${url}/`, HOME_HEADERS);
  if (!copy.body.equals(original.body) || copy.headers["content-encoding"] !== original.headers["content-encoding"] || copy.headers["content-type"] !== original.headers["content-type"]) {
    throw new Error("static / does not answer the same bytes and headers as GET /");
  }
  return { url, pid: proc.pid, bytes: original.body.length, headers };
}

/** The app again, on the bench's data, as it runs behind nginx: TRUST_PROXY=loopback and no PUBLIC_URL. */
async function startProxiedServer(serverEntry: string, nodeArgs: readonly string[], env: NodeJS.ProcessEnv): Promise<{ url: string; pid: number }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [...nodeArgs, serverEntry], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), TRUST_PROXY: "loopback", PUBLIC_URL: "", ADMIN_EMAIL: "", ADMIN_PASSWORD: "" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  sideServer = proc;
  let errors = "";
  proc.stderr?.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-5000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null || proc.pid === undefined) throw new Error(`the proxied server exited during start: ${errors}`);
    if (performance.now() > deadline) throw new Error(`the proxied server did not answer /healthz within 30 s: ${errors}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  // It must serve the page for the forwarded origin, as a browser behind the proxy sees it.
  const [request] = SPECS.proxied.requests();
  const page = await fetchRaw(`${url}/`, { ...(request!.headers as Record<string, string>), "accept-encoding": "identity" });
  if (page.status !== 200 || !page.body.toString().includes('href="https://www.example-lettings.co.uk/"')) {
    throw new Error(`GET / via the proxy answered ${page.status} without the forwarded origin in its canonical link`);
  }
  return { url, pid: proc.pid };
}

async function stopSideServer(): Promise<void> {
  const proc = sideServer;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill("SIGTERM");
  const killer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(killer);
  sideServer = undefined;
}

type ColdStart = { ms: number; rssMb: number };

/**
 * One cold start: `node server.js` as npm start runs it, on a fresh empty DATA_DIR
 * (so it migrates and creates the admin), timed from spawn to the first 200 from
 * /healthz. Then stopped and its DATA_DIR removed.
 */
async function coldStart(nodeArgs: readonly string[], env: (port: number, dir: string) => NodeJS.ProcessEnv): Promise<ColdStart> {
  coldDataDir = mkdtempSync(path.join(os.tmpdir(), "pm-bench-cold-"));
  const port = await freePort();
  let output = "";
  const started = performance.now();
  const proc = spawn(process.execPath, [...nodeArgs, path.join(ROOT, "server.js")], {
    cwd: ROOT,
    env: env(port, coldDataDir),
    stdio: ["ignore", "pipe", "pipe"],
  });
  coldChild = proc;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-5000));
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  try {
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`A cold-start server exited (code ${proc.exitCode}). Its output:\n${output}`);
      if (interrupted) return new Promise<ColdStart>(() => {});
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        await response.arrayBuffer();
        if (response.status === 200) break;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 30_000) throw new Error(`A cold-start server did not answer /healthz within 30 s. Its output:\n${output}`);
      await sleep(10);
    }
    const ms = performance.now() - started;
    const status = proc.pid === undefined ? undefined : readProcStatus(proc.pid);
    return { ms: round(ms), rssMb: status ? mb(status.rssKb) : NaN };
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGTERM");
      const killer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    }
    coldChild = undefined;
    rmSync(coldDataDir, { recursive: true, force: true });
    coldDataDir = undefined;
  }
}

type FootprintResult = {
  coldStart: Spread & { runs: ColdStart[]; ok: boolean; maxOk: boolean };
  idleRss: {
    afterStartMb: number;
    /** After the load cases (or, with none, after start) once RSS stopped falling. */
    settled: Settled;
    settledMb: number;
    afterLoadCases: LoadCaseName[];
    ok: boolean;
  };
  target: string;
};

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const serverEntry = path.join(ROOT, "server.js");
  const buildEntry = path.join(ROOT, "build", "server", "index.js");
  try {
    readFileSync(buildEntry);
  } catch {
    console.error(`No production build at ${path.relative(ROOT, buildEntry)}: run \`npm run bench\` (it builds first).`);
    return 1;
  }

  // The upload case's image first: generating it takes a few seconds of both cores.
  let uploadImage: UploadImage | undefined;
  if (runUpload) {
    uploadImage = await ensureUploadImage(RESULTS_DIR, (line) => console.log(`  making the upload test image: ${line}`));
  }

  dataDir = mkdtempSync(path.join(os.tmpdir(), "pm-bench-"));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const profileDir = path.join(RESULTS_DIR, "cpu-prof");
  // Start the server as `npm start` does, with the same Node flags.
  const startScript: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;
  const startFlags = /\bnode\s+(.*?)\s*server\.js/.exec(startScript)?.[1]?.split(/\s+/).filter(Boolean) ?? [];
  // `exec env NAME=value … node …`: the same environment settings as npm start.
  const startEnv = Object.fromEntries(
    (/\benv\s+((?:\w+=\S+\s+)+)node\b/.exec(startScript)?.[1] ?? "")
      .split(/\s+/)
      .filter(Boolean)
      .map((assignment) => [assignment.slice(0, assignment.indexOf("=")), assignment.slice(assignment.indexOf("=") + 1)]),
  );
  const nodeArgs = [
    ...startFlags,
    ...(flags["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    ...flags["node-args"].split(/\s+/).filter(Boolean),
  ];
  if (flags["cpu-prof"]) mkdirSync(profileDir, { recursive: true });

  const loadBefore = os.loadavg();
  const fsType = filesystemOf(dataDir);
  console.log("Benchmark of the production build (autocannon, in this process).");
  console.log(
    `  Note: the load generator shares the machine's ${os.cpus().length} cores with the server, so it competes with it for CPU;`,
  );
  console.log("  numbers are a lower bound for the server alone. Other work on the machine also shows up here.");
  console.log(`  Node ${process.version}, load average ${loadBefore.map((n) => n.toFixed(2)).join(" ")}, commit ${git("rev-parse", "--short", "HEAD") ?? "?"}${git("status", "--porcelain")?.length ? " (+ uncommitted changes)" : ""}`);
  console.log(
    `  DATA_DIR ${dataDir} (${fsType}${fsType === "tmpfs" ? ": fsync is free here, contact and upload numbers are optimistic" : ""})` +
      (loadCases.length ? `, ${DURATION} s per load case after ${WARMUP} s warm-up` : ""),
  );
  if (loadCases.includes("home") || loadCases.includes("projects")) console.log(`  GET requests send Accept-Encoding: ${ACCEPT_ENCODING}`);
  if (uploadImage) {
    const image = uploadImage;
    console.log(
      `  Upload image: ${path.relative(ROOT, image.file)}, ${image.width}×${image.height} JPEG q${image.quality} (noise sigma ${image.sigma.toFixed(2)}), ` +
        `${image.bytes.toLocaleString("en-GB")} bytes = ${(image.bytes / 1048576).toFixed(2)} MiB (cap 10,485,760), EXIF orientation ${image.orientation} + GPS, ` +
        (image.cached ? "cached" : `generated in ${((image.generatedInMs ?? 0) / 1000).toFixed(1)} s`),
    );
  }
  const envText = Object.entries(startEnv).map(([name, value]) => `${name}=${value} `).join("");
  if (nodeArgs.length) console.log(`  server started with: ${envText}node ${nodeArgs.join(" ")} server.js`);
  console.log("");

  // 0. Footprint: cold starts, before the main server runs (nothing else of ours on the machine).
  const coldStarts: ColdStart[] = [];
  if (runFootprint) {
    // npm start's flags and environment only: no --cpu-prof or --node-args experiments.
    const coldEnv = (coldPort: number, dir: string): NodeJS.ProcessEnv => ({
      ...process.env,
      ...startEnv,
      NODE_ENV: "production",
      PORT: String(coldPort),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      DATABASE_URL: "",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    process.stdout.write(`Cold starts (${STARTS}, each on a fresh DATA_DIR): `);
    for (let index = 0; index < STARTS && !interrupted; index++) {
      const run = await coldStart(startFlags, coldEnv);
      coldStarts.push(run);
      process.stdout.write(`${Math.round(run.ms)} ms${index < STARTS - 1 ? ", " : "\n"}`);
    }
    if (interrupted) return 130;
  }

  // 1. Start the server.
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...startEnv,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: "", // always the embedded SQLite database
    // Every request comes from 127.0.0.1: keep per-IP limits out of the measurement.
    CONTACT_RATE_LIMIT: "1000000",
    // The upload case signs in; without it, no admin (and no password hash at start).
    ...(runUpload ? { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } : {}),
  };
  child = spawn(process.execPath, [...nodeArgs, serverEntry], {
    cwd: ROOT,
    env: serverEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const started = child;
  childExited = new Promise((resolve) => started.once("exit", () => resolve()));
  const keepLog = (chunk: Buffer) => {
    serverLog += chunk.toString();
    if (serverLog.length > 200_000) serverLog = serverLog.slice(-100_000);
  };
  started.stdout?.on("data", keepLog);
  started.stderr?.on("data", keepLog);
  const pid = started.pid;
  if (pid === undefined) {
    console.error("Could not start the server.");
    return 1;
  }

  const startedAt = performance.now();
  for (;;) {
    if (started.exitCode !== null || started.signalCode !== null) {
      console.error(`The server exited during start (code ${started.exitCode}, signal ${started.signalCode}). Its output:\n${serverLog}`);
      return 1;
    }
    if (interrupted) return 130;
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - startedAt > 30_000) {
      console.error(`The server did not answer /healthz within 30 s. Its output:\n${serverLog}`);
      return 1;
    }
    await sleep(100);
  }
  const startRss = readProcStatus(pid);
  const mainStartMs = Math.round(performance.now() - startedAt);
  console.log(
    `Server up in ${mainStartMs} ms (pid ${pid}, port ${port}), RSS ${startRss ? mb(startRss.rssKb) : "?"} MB.`,
  );

  // 2. Seed three active projects. The server has migrated; WAL lets this connection write.
  const dbFile = path.join(dataDir, "app.sqlite");
  const db = new DatabaseSync(dbFile);
  db.exec("PRAGMA busy_timeout = 5000");
  const titles = ["Victorian Kitchen Transformation", "Modern Bathroom Refit", "Open-Plan Living Conversion"];
  const insert = db.prepare(
    `insert into renovation_projects
       (id, title, category, description, duration, budget, before_image_url, after_image_url, is_active, display_order, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
  );
  titles.forEach((title, index) => {
    const now = new Date(Date.UTC(2026, 0, 1 + index)).toISOString();
    insert.run(
      `bench-project-${index + 1}`,
      title,
      ["Kitchen Renovation", "Bathroom Renovation", "Full Renovation"][index]!,
      `${title}: stripped back to the walls, rewired, replumbed and finished to a high standard within budget.`,
      `${3 + index} weeks`,
      `£${(15 + index * 5).toLocaleString("en-GB")},000`,
      "/samples/kitchen-before.svg",
      "/samples/kitchen-after.svg",
      index,
      now,
      now,
    );
  });

  // Sanity checks: the cases measure what they claim to.
  const warnings: string[] = [];
  try {
    const projects = (await (await fetch(`${baseUrl}/api/projects`)).json()) as unknown[];
    if (!Array.isArray(projects) || projects.length !== 3) warnings.push(`/api/projects returned ${Array.isArray(projects) ? projects.length : "no"} projects, expected 3`);
    const home = await fetch(`${baseUrl}/`);
    const html = await home.text();
    if (!home.ok) warnings.push(`GET / answered ${home.status}`);
    else if (!titles.every((title) => html.includes(title))) warnings.push("GET / does not contain the seeded projects' titles");
    console.log(`GET / is ${(html.length / 1024).toFixed(1)} KB of HTML (uncompressed).`);
  } catch (error) {
    warnings.push(`sanity check failed: ${String(error)}`);
  }
  for (const warning of warnings) console.warn(`WARNING: ${warning}`);

  // 3. The cases, with RSS sampled throughout.
  const sampler = new RssSampler(pid);
  sampler.start();
  const results: CaseResult[] = [];
  let failed = false;
  let staticRef: StaticServer | undefined;

  for (const name of loadCases) {
    if (interrupted) break;
    const spec = SPECS[name];
    // static / and the app behind a proxy run in processes of their own: their CPU is what counts there.
    let side: { url: string; pid: number } | undefined;
    if (name === "static") {
      await stopSideServer();
      staticRef = await startStaticServer(baseUrl);
      side = staticRef;
      console.log(`static /: ${staticRef.bytes.toLocaleString("en-GB")} bytes (${staticRef.headers["content-encoding"] ?? "identity"}) copied from GET /, served by bench/static-server.ts (pid ${staticRef.pid})`);
    }
    if (name === "proxied") {
      side = await startProxiedServer(serverEntry, nodeArgs, serverEnv);
      console.log(`GET / via proxy: a second server on the same data, TRUST_PROXY=loopback, no PUBLIC_URL (pid ${side.pid}); requests carry nginx's forwarded headers`);
    }
    const url = side?.url ?? baseUrl;
    const measuredPid = side?.pid ?? pid;
    if (WARMUP > 0) {
      process.stdout.write(`${spec.label}: warm-up ${WARMUP} s… `);
      await load(url, spec, WARMUP);
    }
    if (interrupted) break;
    // Let requests still in flight after the warm-up land before counting rows.
    await sleep(300);
    const rowsBefore = name === "contact" ? countRows(db) : 0;
    const acknowledgedBefore = acknowledged.ids.size;
    process.stdout.write(`measuring ${DURATION} s at ${spec.connections} connections… `);
    sampler.resetCase();
    const serverCpuBefore = readCpuSeconds(measuredPid);
    const benchCpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    const result = await load(url, spec, DURATION);
    const wall = (performance.now() - wallBefore) / 1000;
    const serverCpu = readCpuSeconds(measuredPid) - serverCpuBefore;
    const benchCpuUsage = process.cpuUsage(benchCpuBefore);
    const benchCpu = (benchCpuUsage.user + benchCpuUsage.system) / 1e6;
    sampler.sample();
    if (interrupted) break;

    const statusCodes: Record<string, number> = {};
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(stat.count);
    const ok2xx = result["2xx"];
    const duration = result.duration || DURATION;
    const row: CaseResult = {
      case: name,
      label: spec.label,
      connections: spec.connections,
      durationS: round(duration, 2),
      requestsPerSecondMean: round(result.requests.average),
      successesPerSecond: round(ok2xx / duration),
      latencyMs: {
        mean: round(result.latency.average, 2),
        p50: round(result.latency.p50, 2),
        p90: round(result.latency.p90, 2),
        p99: round(result.latency.p99, 2),
        max: round(result.latency.max, 2),
      },
      total: ok2xx + result.non2xx,
      ok2xx,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes,
      serverCpuPercent: round((serverCpu / wall) * 100),
      // Less sensitive to other load on the machine than requests/s.
      serverCpuMsPerRequest: round((serverCpu * 1000) / Math.max(1, ok2xx + result.non2xx), 3),
      benchCpuPercent: round((benchCpu / wall) * 100),
      peakRssMb: side ? mb(readProcStatus(measuredPid)?.hwmKb ?? NaN) : mb(sampler.casePeakKb),
      target: spec.targetLabel,
      rateOk: ok2xx / duration >= spec.targetRps,
      p99Ok: result.latency.p99 <= spec.p99TargetMs,
    };

    if (name === "contact") {
      // Let requests that were in flight when autocannon stopped finish on the server.
      await sleep(500);
      const rowsAfter = countRows(db);
      const storedIds = new Set(
        (db.prepare("select id from contact_submissions").all() as { id: string }[]).map((r) => r.id),
      );
      let missing = 0;
      for (const id of acknowledged.ids) if (!storedIds.has(id)) missing++;
      const acknowledgedDuringRun = acknowledged.ids.size - acknowledgedBefore;
      const storedDuringRun = rowsAfter - rowsBefore;
      const storedNotAcknowledged = storedDuringRun - acknowledgedDuringRun;
      const problems: string[] = [];
      if (missing > 0) problems.push(`${missing} acknowledged enquiries are not in contact_submissions`);
      if (acknowledgedDuringRun !== ok2xx) problems.push(`${ok2xx} 2xx responses but ${acknowledgedDuringRun} distinct ids acknowledged`);
      if (acknowledged.badBodies > 0) problems.push(`${acknowledged.badBodies} 2xx responses without an id`);
      // Only requests in flight at the stop (≤ 1 per connection) may be stored without an acknowledgement.
      if (storedNotAcknowledged < 0 || storedNotAcknowledged > spec.connections)
        problems.push(`${storedDuringRun} rows stored for ${acknowledgedDuringRun} acknowledged enquiries`);
      const durablePerSecond = (acknowledgedDuringRun - Math.max(0, missing)) / duration;
      row.durable = {
        rowsBefore,
        rowsAfter,
        storedDuringRun,
        acknowledgedDuringRun,
        storedNotAcknowledged,
        missingAcknowledged: missing,
        durablePerSecond: round(durablePerSecond),
        ok: problems.length === 0,
        ...(problems.length ? { problem: problems.join("; ") } : {}),
      };
      row.rateOk = durablePerSecond >= spec.targetRps;
      if (problems.length) failed = true;
    }
    if (name === "proxied") {
      const home = results.find((other) => other.case === "home");
      row.rateOk = home !== undefined && row.successesPerSecond >= home.successesPerSecond * TARGETS.proxiedVsHome;
      await stopSideServer();
    }
    results.push(row);
    console.log(`${row.successesPerSecond} 2xx/s, p99 ${row.latencyMs.p99} ms`);
    if (started.exitCode !== null || started.signalCode !== null) {
      console.error(`The server died during ${spec.label}. Its output:\n${serverLog.slice(-5000)}`);
      failed = true;
      break;
    }
  }

  // The cached page is still the truth: a project added by another connection (as an admin on
  // another instance would) shows on the very next GET /, and goes again when it is hidden.
  if (loadCases.includes("home") && !interrupted && started.exitCode === null) {
    const title = "Bench Check Mews, Added After The Load";
    const now = new Date().toISOString();
    db.prepare(
      `insert into renovation_projects (id, title, category, description, duration, budget, before_image_url, after_image_url, is_active, display_order, created_at, updated_at)
       values ('bench-check', ?, 'Full Renovation', 'Added by the bench after the load.', '1 week', '£1,000', '/samples/kitchen-before.svg', '/samples/kitchen-after.svg', 1, 9, ?, ?)`,
    ).run(title, now, now);
    const shown = (await (await fetch(`${baseUrl}/`)).text()).includes(title);
    db.prepare("update renovation_projects set is_active = 0 where id = 'bench-check'").run();
    const hidden = !(await (await fetch(`${baseUrl}/`)).text()).includes(title);
    db.prepare("delete from renovation_projects where id = 'bench-check'").run();
    if (shown && hidden) console.log("GET / after the load: a project added, then hidden, by another connection showed, then went, at once.");
    else {
      warnings.push(`GET / after the load did not follow a change made by another connection (${shown ? "hidden project still shown" : "added project not shown"})`);
      console.warn(`WARNING: ${warnings.at(-1)}`);
      failed = true;
    }
  }

  // The load cases' peak, read before the upload case resets VmHWM.
  const final = readProcStatus(pid);
  const sampledPeakMb = mb(Math.max(sampler.peakKb, final?.rssKb ?? 0));
  const hwmMb = final ? mb(final.hwmKb) : NaN;
  // VmHWM is the kernel's own high-water mark (it also sees peaks between samples).
  const peakRssMb = Math.max(sampledPeakMb, Number.isFinite(hwmMb) ? hwmMb : 0);
  await stopSideServer();

  // Idle RSS: the server between bursts, once V8's memory reducer has given back what the load grew.
  let footprint: FootprintResult | undefined;
  let settled: Settled | undefined;
  if (runFootprint && !interrupted && started.exitCode === null && started.signalCode === null) {
    // V8's memory reducer gives back the heap the load grew only after some idle time
    // (RSS flat for the first 10 s, then falling): idle means at least 60 s here.
    process.stdout.write(`Idle RSS: waiting at least 60 s (at most 120 s) until the server's RSS stops falling… `);
    settled = await settleRss(pid, 120_000, 60_000);
    console.log(`${settled.toMb} MB after ${settled.seconds} s`);
    const coldSpread = spread(coldStarts.map((run) => run.ms));
    const afterStartMb = startRss ? mb(startRss.rssKb) : NaN;
    footprint = {
      coldStart: {
        ...coldSpread,
        runs: coldStarts,
        ok: coldSpread.medianMs <= TARGETS.coldStartMs,
        maxOk: coldSpread.maxMs <= TARGETS.coldStartMs,
      },
      idleRss: {
        afterStartMb,
        settled,
        settledMb: settled.toMb,
        afterLoadCases: results.map((row) => row.case),
        ok: Math.max(afterStartMb, settled.toMb) <= TARGETS.idleRssMb,
      },
      target: `cold start ≤ ${TARGETS.coldStartMs} ms, idle RSS ≤ ${TARGETS.idleRssMb} MB`,
    };
  }

  let upload: UploadResult | undefined;
  // After a load case failed its checks the upload case still runs; not after the server died.
  if (uploadImage && !interrupted && started.exitCode === null && started.signalCode === null) {
    upload = await uploadCase({
      baseUrl,
      pid,
      sampler,
      image: uploadImage,
      dataDir,
      // processImage alone runs as the server does: npm start's Node flags and environment.
      aloneNodeArgs: startFlags,
      aloneEnv: startEnv,
      serverAlive: () => started.exitCode === null && started.signalCode === null,
      ...(settled ? { settled } : {}),
    });
    if (upload && !upload.ok) failed = true;
  }

  sampler.stop();
  if (interrupted) {
    db.close();
    return 130; // no report from a partial run; the signal handler stops the server
  }
  const loadAfter = os.loadavg();
  db.close();

  // 4. Report.
  const pad = (text: string, width: number) => text.padEnd(width);
  const lpad = (text: string, width: number) => text.padStart(width);
  const verdict = (ok: boolean) => (ok ? "pass" : "MISS");
  const rssOk = peakRssMb <= TARGETS.peakRssMb;
  const homeRow = results.find((row) => row.case === "home");
  const staticRow = results.find((row) => row.case === "static");
  const versusStatic =
    homeRow && staticRow && staticRef
      ? {
          bytes: staticRef.bytes,
          contentEncoding: staticRef.headers["content-encoding"] ?? null,
          home2xxPerSecond: homeRow.successesPerSecond,
          static2xxPerSecond: staticRow.successesPerSecond,
          homeP50Ms: homeRow.latencyMs.p50,
          staticP50Ms: staticRow.latencyMs.p50,
          homeP99Ms: homeRow.latencyMs.p99,
          staticP99Ms: staticRow.latencyMs.p99,
          homeCpuMsPerRequest: homeRow.serverCpuMsPerRequest,
          staticCpuMsPerRequest: staticRow.serverCpuMsPerRequest,
          ratio: round(homeRow.successesPerSecond / staticRow.successesPerSecond, 3),
          ratioOk: homeRow.successesPerSecond >= staticRow.successesPerSecond * TARGETS.homeVsStatic,
          p99Ok: homeRow.latencyMs.p99 <= TARGETS.homeP99Ms,
        }
      : undefined;
  if (results.length) {
    console.log("");
    const header = [
      pad("case", 20),
      lpad("conns", 5),
      lpad("req/s mean", 10),
      lpad("2xx/s", 8),
      lpad("p50 ms", 7),
      lpad("p99 ms", 7),
      lpad("non-2xx", 7),
      lpad("err/t-o", 7),
      lpad("srv CPU", 7),
      lpad("ms CPU/req", 10),
      "  " + pad("target", 24),
      pad("rate", 4),
      " p99 (≤100; GET / ≤50)",
    ].join(" ");
    console.log(header);
    console.log("-".repeat(header.length));
    for (const row of results) {
      const rate = row.durable ? row.durable.durablePerSecond : row.successesPerSecond;
      console.log(
        [
          pad(row.label, 20),
          lpad(String(row.connections), 5),
          lpad(row.requestsPerSecondMean.toFixed(1), 10),
          lpad(rate.toFixed(1), 8),
          lpad(row.latencyMs.p50.toFixed(1), 7),
          lpad(row.latencyMs.p99.toFixed(1), 7),
          lpad(String(row.non2xx), 7),
          lpad(`${row.errors}/${row.timeouts}`, 7),
          lpad(`${Math.round(row.serverCpuPercent)}%`, 7),
          lpad(row.serverCpuMsPerRequest.toFixed(2), 10),
          "  " + pad(row.target, 24),
          // static / is the reference, not a target.
          pad(row.case === "static" ? "—" : verdict(row.rateOk), 4),
          " " + (row.case === "static" ? "—" : verdict(row.p99Ok)),
        ].join(" "),
      );
    }
    console.log("");
    console.log(
      `Server peak RSS over these cases: ${peakRssMb} MB (VmRSS sampled every 100 ms: ${sampledPeakMb} MB, VmHWM: ${hwmMb} MB, after start: ${startRss ? mb(startRss.rssKb) : "?"} MB)   target ≤ ${TARGETS.peakRssMb} MB: ${verdict(rssOk)}`,
    );
    console.log(`  per case: ${results.map((row) => `${row.label} ${row.peakRssMb} MB${row.case === "static" ? " (its own process, VmHWM; the app idle)" : ""}`).join(", ")}`);
    console.log("  2xx/s for contact = acknowledged enquiries found in the database / duration.");
    console.log("  srv CPU = server process CPU time / wall time (200% = both cores); ms CPU/req = server CPU time per");
    console.log("  response, the figure least disturbed by other work on the machine.");
    for (const row of results) {
      if (!row.durable) continue;
      const d = row.durable;
      console.log(
        `Contact durability: ${d.acknowledgedDuringRun} acknowledged, ${d.storedDuringRun} rows stored (${d.storedNotAcknowledged} in flight when the load stopped), ${d.missingAcknowledged} acknowledged but missing: ${d.ok ? "OK" : `FAILED: ${d.problem}`}`,
      );
    }
    for (const row of results) {
      const codes = Object.entries(row.statusCodes).filter(([code]) => !code.startsWith("2"));
      if (codes.length) console.log(`${row.label}: non-2xx status codes ${codes.map(([code, n]) => `${code}×${n}`).join(", ")}`);
    }
    if (versusStatic) {
      const v = versusStatic;
      console.log("");
      console.log(
        `GET / against static / (the same ${v.bytes.toLocaleString("en-GB")} bytes from node:http): ${v.home2xxPerSecond} vs ${v.static2xxPerSecond} 2xx/s, ` +
          `p50 ${v.homeP50Ms} vs ${v.staticP50Ms} ms, p99 ${v.homeP99Ms} vs ${v.staticP99Ms} ms, ms CPU/req ${v.homeCpuMsPerRequest} vs ${v.staticCpuMsPerRequest}`,
      );
      console.log(`  ratio app/static ${v.ratio.toFixed(3)} (1/${(1 / v.ratio).toFixed(2)})   target ≥ 1/3: ${verdict(v.ratioOk)}`);
      console.log(`  GET / p99 ${v.homeP99Ms} ms   target ≤ ${TARGETS.homeP99Ms} ms: ${verdict(v.p99Ok)}`);
    }
    const proxiedRow = results.find((row) => row.case === "proxied");
    if (proxiedRow && homeRow) {
      console.log("");
      console.log(
        `GET / behind a proxy (TRUST_PROXY=loopback, forwarded headers, no PUBLIC_URL) against GET / direct: ` +
          `${proxiedRow.successesPerSecond} vs ${homeRow.successesPerSecond} 2xx/s, p50 ${proxiedRow.latencyMs.p50} vs ${homeRow.latencyMs.p50} ms, ` +
          `p99 ${proxiedRow.latencyMs.p99} vs ${homeRow.latencyMs.p99} ms, ms CPU/req ${proxiedRow.serverCpuMsPerRequest} vs ${homeRow.serverCpuMsPerRequest}`,
      );
      console.log(
        `  ratio proxied/direct ${(proxiedRow.successesPerSecond / homeRow.successesPerSecond).toFixed(3)}   target ≥ ${TARGETS.proxiedVsHome}: ${verdict(proxiedRow.rateOk)}`,
      );
    }
  }
  if (footprint) {
    const f = footprint;
    console.log("");
    console.log(
      `Cold start (spawn → first 200 from /healthz, ${f.coldStart.runs.length} fresh DATA_DIRs, migrations + admin creation each): ` +
        `median ${f.coldStart.medianMs} ms, max ${f.coldStart.maxMs} ms, min ${f.coldStart.minMs} ms   target ≤ ${TARGETS.coldStartMs} ms: ` +
        `median ${verdict(f.coldStart.ok)}, max ${verdict(f.coldStart.maxOk)}`,
    );
    console.log(`  runs: ${f.coldStart.runs.map((run) => `${run.ms} ms (${run.rssMb} MB)`).join(", ")}; main server up in ${mainStartMs} ms`);
    console.log(
      `Idle RSS: ${f.idleRss.afterStartMb} MB after start; ${f.idleRss.settledMb} MB ${f.idleRss.afterLoadCases.length ? `after ${f.idleRss.afterLoadCases.join(", ")}` : "with no load (none ran)"} ` +
        `once settled (${f.idleRss.settled.fromMb} MB → ${f.idleRss.settled.toMb} MB in ${f.idleRss.settled.seconds} s; every 5 s: ${f.idleRss.settled.trace.join(", ")})   target ≤ ${TARGETS.idleRssMb} MB: ${verdict(f.idleRss.ok)}`,
    );
  }
  if (upload) {
    const u = upload;
    const row = (name: string, runs: number, spreadOf: Spread, cpu: string, rss: string) =>
      [pad(name, 30), lpad(String(runs), 4), lpad(spreadOf.medianMs.toFixed(1), 10), lpad(spreadOf.minMs.toFixed(1), 9), lpad(spreadOf.maxMs.toFixed(1), 9), lpad(cpu, 11), "  " + rss].join(" ");
    console.log("");
    const header = [pad("upload (24 MP JPEG)", 30), lpad("runs", 4), lpad("median ms", 10), lpad("min ms", 9), lpad("max ms", 9), lpad("CPU ms/run", 11), "  peak RSS"].join(" ");
    console.log(header);
    console.log("-".repeat(header.length + 50));
    const hwm = u.server.vmHwmMb === null ? "VmHWM not reset" : `VmHWM ${u.server.vmHwmMb} MB`;
    console.log(row(u.label, u.server.timesMs.length, u.server, u.server.cpuMsPerUpload.toFixed(0), `${u.server.peakRssMb} MB (sampled ${u.server.sampledPeakRssMb} MB, ${hwm}; ${u.server.rssBeforeMb} MB before, +${u.server.riseMb} MB)`));
    console.log(row("processImage alone (own proc)", u.sharpAlone.timesMs.length, u.sharpAlone, u.sharpAlone.cpuMsPerRun.toFixed(0), `VmHWM ${u.sharpAlone.vmHwmMb} MB (${u.sharpAlone.rssAfterImportMb} MB after importing the build)`));
    console.log(row("  10 MB non-image (415)", 3, u.requestOverhead, "", "transfer + multipart + session check, no image work"));
    console.log("");
    console.log(`Upload time: ${u.ratio.toFixed(2)}× processImage alone   target ≤ ${TARGETS.uploadRatio}×: ${verdict(u.ratioOk)}`);
    console.log(`  (CPU time per image: ${u.cpuRatio.toFixed(2)}×, the figure least disturbed by other work on the machine)`);
    console.log(`Server peak RSS during the upload case: ${u.server.peakRssMb} MB   target ≤ ${TARGETS.uploadPeakRssMb} MB: ${verdict(u.rssOk)}`);
    if (results.length) {
      console.log(
        `  (after the load cases the server held ${u.server.settled.fromMb} MB; idle for ${u.server.settled.seconds} s it went to ${u.server.settled.toMb} MB, ` +
          `and began the case holding ${u.server.rssBeforeMb} MB; \`--only=upload\` measures it from a fresh start)`,
      );
    }
    console.log(
      `  Each answer ${u.server.answers.length === u.server.timesMs.length && u.server.answers.every((a) => a.width === u.expected.width && a.height === u.expected.height) ? `${u.expected.width}×${u.expected.height} (upright)` : JSON.stringify(u.server.answers)}; ` +
        `${u.server.storedFiles} files stored for ${u.uploads + 1} uploads; uploads: ${u.server.timesMs.join(", ")} ms; alone: ${u.sharpAlone.timesMs.join(", ")} ms.`,
    );
    console.log(`Upload case: ${u.ok ? "OK" : `FAILED: ${u.problem ?? `${u.server.timesMs.length} of ${u.uploads} uploads succeeded`}`}`);
  }
  console.log(`Load average before ${loadBefore.map((n) => n.toFixed(2)).join(" ")}, after ${loadAfter.map((n) => n.toFixed(2)).join(" ")}.`);
  const serverErrors = serverLog.split("\n").filter((line) => /error/i.test(line)).length;
  if (serverErrors) console.log(`The server logged ${serverErrors} line(s) mentioning errors (see bench/results/server.log).`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const report = {
    when: new Date().toISOString(),
    commit: git("rev-parse", "HEAD"),
    uncommittedChanges: Boolean(git("status", "--porcelain")?.length),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: { before: loadBefore, after: loadAfter },
    note: "autocannon runs in the same process as this script, on the same cores as the server",
    options: {
      durationS: DURATION,
      warmupS: WARMUP,
      only: flags.only ?? null,
      acceptEncoding: ACCEPT_ENCODING,
      uploads: UPLOADS,
      starts: STARTS,
      cpuProf: flags["cpu-prof"],
      serverNodeArgs: nodeArgs,
    },
    dataDirFilesystem: fsType,
    warnings,
    targets: TARGETS,
    cases: results,
    // The server's peak over the load cases (home, projects, contact) and its start; the upload case has its own in upload.server.
    rss: {
      cases: loadCases,
      afterStartMb: startRss ? mb(startRss.rssKb) : null,
      peakMb: peakRssMb,
      sampledPeakMb,
      vmHwmMb: hwmMb,
      samples: sampler.samples,
      ok: rssOk,
    },
    upload: upload ?? null,
    versusStatic: versusStatic ?? null,
    footprint: footprint ? { ...footprint, mainServerStartMs: mainStartMs } : null,
    ok: !failed,
  };
  writeFileSync(path.join(RESULTS_DIR, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Results written to ${path.relative(ROOT, path.join(RESULTS_DIR, "latest.json"))}.`);

  await stopServer();
  writeFileSync(path.join(RESULTS_DIR, "server.log"), serverLog);
  if (flags["cpu-prof"]) console.log(`CPU profile of the server in ${path.relative(ROOT, profileDir)}/.`);
  return failed ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error("Benchmark failed:", error);
  if (serverLog) console.error(`Server output:\n${serverLog.slice(-5000)}`);
  code = 1;
} finally {
  current?.stop();
  await stopServer();
  removeDataDir();
}
process.exit(interrupted ? 130 : code);
