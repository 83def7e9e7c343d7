/**
 * Benchmark of the public site (issue 2, point 8; issue 6, points 6 and 7).
 *
 *   npm run bench                       build, then measure every case: Lighthouse on /, the load
 *                                       cases, static / and nginx / (10 s each), the upload case,
 *                                       the footprint; it ends with issue 19's table of figures
 *   npm run bench -- --duration=5       seconds per measured load run (default 10)
 *   npm run bench -- --only=contact     some cases, comma-separated: home | quiet | proxied | static |
 *                                       nginx | projects | contact | upload | footprint | lighthouse;
 *                                       `quiet`, `static`, `nginx` and `proxied` run with GET /,
 *                                       `footprint` the cold starts and idle RSS
 *                                       (e.g. --only=home,projects,contact,footprint for the idle
 *                                       RSS after load without the upload case)
 *   npm run bench -- --warmup=2         seconds of warm-up before each load case (default 2)
 *   npm run bench -- --uploads=5        timed uploads in the upload case (default 5, after 1 warm-up)
 *   npm run bench -- --starts=5         fresh cold starts in the footprint case (default 5)
 *   npm run bench -- --lighthouse-runs=3  Lighthouse runs on / (default 3; the median is reported)
 *   npm run bench -- --encoding=identity  Accept-Encoding for the GET cases
 *                                       (default "gzip, deflate, br", as a browser sends)
 *   npm run bench -- --cpu-prof         also write a V8 CPU profile of the server to
 *                                       bench/results/cpu-prof/ (open in Chrome DevTools)
 *   npm run bench -- --quiet            the server without its line per request and its metrics
 *                                       (LOG_LEVEL=warn, no METRICS_TOKEN): run it beside a plain
 *                                       run to see what logging and metrics cost (decision 031)
 *   npm run bench -- --node-args="--trace-gc --max-semi-space-size=8"
 *                                       extra Node options for the server (experiments);
 *                                       its output is saved in bench/results/server.log
 *
 * What it does: starts the production build (`server.js`, NODE_ENV=production) as a
 * child on a free port with a temporary DATA_DIR (SQLite), seeds three active
 * renovation projects straight into the database file (WAL lets a second
 * connection write), then drives it with autocannon:
 *   GET /              50 connections   target ≥ 500 req/s, and ≥ 0.8 × nginx serving its bytes
 *   GET /api/projects  50 connections   target ≥ 3,000 req/s
 *   POST /api/contact  20 connections   target ≥ 2,000 durable enquiries/s (issue 19), printed beside
 *                                       the disk's own rate of synced SQLite commits (cases/disk.ts)
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
 * least 0.95 × GET /'s (issue 19; the page cache serves it too).
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
 * GET / no log/metrics (issue 19, point 5): a second server on the same data without its line
 * per request and its metrics (LOG_LEVEL=warn, no METRICS_TOKEN), driven like GET / right after
 * it: the difference in server CPU per request is what the line and the metrics cost.
 *
 * nginx / (issue 19, point 5): the same bytes and headers served by Debian's nginx from a
 * file (bench/cases/nginx.ts: `apt-get install nginx-light`, or NGINX=/path; skipped with a note
 * when absent), driven like GET /. Target: GET / 2xx/s ≥ 0.8 × nginx /'s.
 *
 * Lighthouse (issue 19, point 5): scripts/lighthouse.ts on / alone, --lighthouse-runs times,
 * with a server of its own, before the main server starts: the median LCP (≤ 1,000 ms) and
 * TBT (≤ 50 ms), the performance score of every run (100 each), and the JavaScript / loads as
 * Lighthouse weighs it on the wire (≤ 80,000 bytes). Skipped when Chromium is missing.
 *
 * footprint (issue 6, point 7): before the main server starts, --starts fresh
 * servers one after the other, each as npm start runs it (same flags and
 * environment; ADMIN_EMAIL/ADMIN_PASSWORD set, so each start also creates the
 * admin) on a fresh empty DATA_DIR (so each start runs the migrations): cold
 * start = spawn to the first 200 from /healthz (polled every 10 ms), target
 * ≤ 400 ms (issue 19), reported as median and max. Idle RSS = the main server's VmRSS right
 * after its start and, after the load cases that ran, once idle: the upload
 * case's wait (RSS has stopped falling for 10 s), but at least 60 s and at most
 * 120 s, since RSS stays flat for the first seconds after a burst before V8's
 * memory reducer gives the heap back; the upload case then reuses that wait.
 * Target ≤ 100 MB (issue 19), after start and once settled.
 *
 * Only 2xx responses count as successes. After the contact run every enquiry
 * that was acknowledged (2xx with its id) is looked up in contact_submissions:
 * a missing one, or a 2xx count that differs from the acknowledged ids, fails
 * the run. Rows stored but never acknowledged are expected only for requests in
 * flight when the load generator stopped (at most one per connection).
 *
 * The child logs a JSON line per request to its stdout, which the bench reads (and keeps
 * the last 100 kB of), and counts its metrics (METRICS_TOKEN set): GET / is measured with
 * the cost of both (decision 031).
 *
 * The child gets CONTACT_RATE_LIMIT = CONTACT_SITE_LIMIT = 1000000 (the most they take):
 * every request comes from 127.0.0.1, and a per-IP or site-wide limit (100 an hour by
 * default) would turn the contact case into a measurement of 429s. (Only the upload case signs in, once, so LOGIN_RATE_LIMIT
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
 * Layout: this file runs the cases in order; bench/lib/ holds what they share (options
 * and targets, the child processes and their clean-up, /proc readings, the app server),
 * bench/cases/ one module per case (load.ts for the autocannon cases, static.ts,
 * proxied.ts, upload.ts, footprint.ts), bench/report.ts the tables and latest.json.
 *
 * Runs directly on Node 24 (type stripping): only erasable TypeScript syntax, and
 * nothing imported from app/ (no ~/ aliases at run time).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { coldStart, idleFootprint, type ColdStart, type FootprintResult } from "./cases/footprint.ts";
import { homeHeaders, loadSpecs, measureLoadCase, type CaseResult } from "./cases/load.ts";
import { startProxiedServer } from "./cases/proxied.ts";
import { startQuietServer } from "./cases/quiet.ts";
import { syncedCommitRate, type SyncedCommits } from "./cases/disk.ts";
import { lighthouseCase, type LighthouseResult } from "./cases/lighthouse.ts";
import { findNginx, startNginx, type NginxServer } from "./cases/nginx.ts";
import { copyHome, startStaticServer, type HomeCopy, type StaticServer } from "./cases/static.ts";
import { ADMIN, uploadCase, type UploadResult } from "./cases/upload.ts";
import { RESULTS_DIR, ROOT, TARGETS, readOptions } from "./lib/config.ts";
import { filesystemOf, git, mb, readProcStatus, RssSampler, type Settled } from "./lib/measure.ts";
import { installCleanup, isInterrupted, stopProcess, temporaryDirectory } from "./lib/processes.ts";
import { BUILD_ENTRY, pageFollowsData, sanityWarnings, seedProjects, startAppServer, startCommand, type AppServer } from "./lib/server.ts";
import { report } from "./report.ts";
import { ensureUploadImage, type UploadImage } from "./upload-image.ts";

const options = readOptions();
/** The S3 settings CI may export, blanked: the bench measures images on disk. */
const NO_S3 = Object.fromEntries(
  ["S3_BUCKET", "S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE", "PUBLIC_IMAGES_URL"].map((name) => [name, ""]),
);
installCleanup();

let server: AppServer | undefined;

async function main(): Promise<number> {
  try {
    readFileSync(BUILD_ENTRY);
  } catch {
    console.error(`No production build at ${path.relative(ROOT, BUILD_ENTRY)}: run \`npm run bench\` (it builds first).`);
    return 1;
  }
  const { loadCases } = options;

  // The upload case's image first: generating it takes a few seconds of both cores.
  let uploadImage: UploadImage | undefined;
  if (options.runUpload) {
    uploadImage = await ensureUploadImage(RESULTS_DIR, (line) => console.log(`  making the upload test image: ${line}`));
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pm-bench-"));
  temporaryDirectory(dataDir);
  const profileDir = path.join(RESULTS_DIR, "cpu-prof");
  // The server runs as `npm start` runs it, with the same Node flags and environment.
  const start = startCommand();
  const nodeArgs = [...start.flags, ...(options.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), ...options.nodeArgs];
  if (options.cpuProf) mkdirSync(profileDir, { recursive: true });

  const loadBefore = os.loadavg();
  const fsType = filesystemOf(dataDir);
  console.log("Benchmark of the production build (autocannon, in this process).");
  console.log(`  Note: the load generator shares the machine's ${os.cpus().length} cores with the server, so it competes with it for CPU;`);
  console.log("  numbers are a lower bound for the server alone. Other work on the machine also shows up here.");
  console.log(`  Node ${process.version}, load average ${loadBefore.map((n) => n.toFixed(2)).join(" ")}, commit ${git("rev-parse", "--short", "HEAD") ?? "?"}${git("status", "--porcelain")?.length ? " (+ uncommitted changes)" : ""}`);
  console.log(
    `  DATA_DIR ${dataDir} (${fsType}${fsType === "tmpfs" ? ": fsync is free here, contact and upload numbers are optimistic" : ""})` +
      (loadCases.length ? `, ${options.durationS} s per load case after ${options.warmupS} s warm-up` : ""),
  );
  if (loadCases.includes("home") || loadCases.includes("projects")) console.log(`  GET requests send Accept-Encoding: ${options.acceptEncoding}`);
  console.log(
    options.quiet
      ? "  Server without its request log and metrics (--quiet: LOG_LEVEL=warn, no METRICS_TOKEN)"
      : "  Server with a JSON log line per request (LOG_LEVEL=info) and its metrics counted (METRICS_TOKEN set); --quiet for neither",
  );
  if (uploadImage) {
    const image = uploadImage;
    console.log(
      `  Upload image: ${path.relative(ROOT, image.file)}, ${image.width}×${image.height} JPEG q${image.quality} (noise sigma ${image.sigma.toFixed(2)}), ` +
        `${image.bytes.toLocaleString("en-GB")} bytes = ${(image.bytes / 1048576).toFixed(2)} MiB (cap 10,485,760), EXIF orientation ${image.orientation} + GPS, ` +
        (image.cached ? "cached" : `generated in ${((image.generatedInMs ?? 0) / 1000).toFixed(1)} s`),
    );
  }
  const envText = Object.entries(start.env).map(([name, value]) => `${name}=${value} `).join("");
  if (nodeArgs.length) console.log(`  server started with: ${envText}node ${nodeArgs.join(" ")} server.js`);
  console.log("");

  // 0. Footprint: cold starts, before the main server runs (nothing else of ours on the machine).
  const coldStarts: ColdStart[] = [];
  if (options.runFootprint) {
    // npm start's flags and environment only: no --cpu-prof or --node-args experiments.
    const coldEnv = (coldPort: number, dir: string): NodeJS.ProcessEnv => ({
      ...process.env,
      ...start.env,
      NODE_ENV: "production",
      PORT: String(coldPort),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      DATABASE_URL: "",
      ...NO_S3,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    process.stdout.write(`Cold starts (${options.starts}, each on a fresh DATA_DIR): `);
    for (let index = 0; index < options.starts && !isInterrupted(); index++) {
      const run = await coldStart(start.flags, coldEnv);
      coldStarts.push(run);
      process.stdout.write(`${Math.round(run.ms)} ms${index < options.starts - 1 ? ", " : "\n"}`);
    }
    if (isInterrupted()) return 130;
  }

  // Lighthouse, with a server of its own, before the main server runs (nothing else of ours on the machine).
  let lighthouse: LighthouseResult | undefined;
  if (options.runLighthouse) {
    lighthouse = await lighthouseCase(options.lighthouseRuns);
    if (isInterrupted()) return 130;
  }

  // 1. Start the server.
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...start.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: "", // always the embedded SQLite database
    ...NO_S3, // and images on disk
    SHUTDOWN_DRAIN_MS: "0", // no balancer in front: SIGTERM stops at once
    // Every request comes from 127.0.0.1: keep the per-IP and site-wide limits out of the measurement.
    CONTACT_RATE_LIMIT: "1000000",
    CONTACT_SITE_LIMIT: "1000000",
    // As in production with monitoring (decision 031): a JSON log line per request (LOG_LEVEL info,
    // the default) and the metrics counted, so the figures include what both cost.
    ...(options.quiet ? { LOG_LEVEL: "warn", METRICS_TOKEN: "" } : { LOG_LEVEL: "info", METRICS_TOKEN: "bench-metrics-token-0123456789" }),
    // The upload case signs in; without it, no admin (and no password hash at start).
    ...(options.runUpload ? { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } : {}),
  };
  server = await startAppServer(nodeArgs, (port) => ({ ...serverEnv, PORT: String(port) }), { graceMs: 15_000 });
  const { pid, url: baseUrl } = server;
  const startRss = readProcStatus(pid);
  const mainStartMs = Math.round(server.upInMs);
  console.log(`Server up in ${mainStartMs} ms (pid ${pid}, port ${server.port}), RSS ${startRss ? mb(startRss.rssKb) : "?"} MB.`);

  // 2. Seed three active projects. The server has migrated; WAL lets this connection write.
  const db = new DatabaseSync(path.join(dataDir, "app.sqlite"));
  db.exec("PRAGMA busy_timeout = 5000");
  seedProjects(db);
  const warnings = await sanityWarnings(baseUrl);
  for (const warning of warnings) console.warn(`WARNING: ${warning}`);

  // 3. The cases, with RSS sampled throughout.
  const sampler = new RssSampler(pid);
  sampler.start();
  const specs = loadSpecs(options.acceptEncoding);
  const home = homeHeaders(options.acceptEncoding);
  const results: CaseResult[] = [];
  let failed = false;
  let staticRef: StaticServer | undefined;
  let nginxRef: NginxServer | undefined;
  let homeCopy: HomeCopy | undefined;
  let syncedCommits: SyncedCommits | undefined;
  const nginxBinary = findNginx();

  for (const name of loadCases) {
    if (isInterrupted()) break;
    // static /, nginx / and the app behind a proxy run in processes of their own: their CPU is what counts there.
    let side: { url: string; pid: number; proc: AppServer["proc"]; workers?: () => number[] } | undefined;
    if (name === "static" || name === "nginx") homeCopy ??= await copyHome(baseUrl, home);
    if (name === "static") {
      side = staticRef = await startStaticServer(homeCopy!, home);
      console.log(`static /: ${staticRef.bytes.toLocaleString("en-GB")} bytes (${staticRef.headers["content-encoding"] ?? "identity"}) copied from GET /, served by bench/static-server.ts (pid ${staticRef.pid})`);
    }
    if (name === "nginx") {
      if (!nginxBinary) {
        console.log("nginx /: skipped, nginx is not installed (apt-get install nginx-light, or NGINX=/path/to/nginx).");
        continue;
      }
      side = nginxRef = await startNginx(nginxBinary, homeCopy!, home);
      console.log(`nginx /: the same ${homeCopy!.body.length.toLocaleString("en-GB")} bytes served by ${nginxRef.version} (pid ${nginxRef.pid}, ${nginxRef.workers().length} workers)`);
    }
    if (name === "quiet") {
      side = await startQuietServer(nodeArgs, serverEnv);
      console.log(`GET / without its log line and metrics: a second server on the same data, LOG_LEVEL=warn, no METRICS_TOKEN (pid ${side.pid})`);
    }
    if (name === "proxied") {
      side = await startProxiedServer(nodeArgs, serverEnv, home);
      console.log(`GET / via proxy: a second server on the same data, TRUST_PROXY=loopback, no PUBLIC_URL (pid ${side.pid}); requests carry nginx's forwarded headers`);
    }
    const row = await measureLoadCase(
      {
        spec: specs[name],
        url: side?.url ?? baseUrl,
        pid: side?.pid ?? pid,
        ownProcess: side !== undefined,
        ...(side?.workers ? { morePids: side.workers } : {}),
        sampler,
        db,
        warmupS: options.warmupS,
        durationS: options.durationS,
      },
      isInterrupted,
    );
    if (side) await stopProcess(side.proc, 5_000);
    if (!row) break;
    if (row.durable && !row.durable.ok) failed = true;
    if (name === "contact") {
      // On the same disk, right after: what one fsync per commit allows here.
      syncedCommits = syncedCommitRate(dataDir);
      console.log(`  the disk's synced SQLite commits (one row each, WAL, synchronous=FULL): ${syncedCommits.perSecond}/s`);
    }
    if (name === "proxied") {
      const direct = results.find((other) => other.case === "home");
      row.rateOk = direct !== undefined && row.successesPerSecond >= direct.successesPerSecond * TARGETS.proxiedVsHome;
    }
    results.push(row);
    console.log(`${row.successesPerSecond} 2xx/s, p99 ${row.latencyMs.p99} ms`);
    if (!server.alive()) {
      console.error(`The server died during ${row.label}. Its output:\n${server.log().slice(-5000)}`);
      failed = true;
      break;
    }
  }

  // The cached page is still the truth after the load.
  if (loadCases.includes("home") && !isInterrupted() && server.alive()) {
    const problem = await pageFollowsData(baseUrl, db);
    if (!problem) console.log("GET / after the load: a project added, then hidden, by another connection showed, then went, at once.");
    else {
      warnings.push(problem);
      console.warn(`WARNING: ${problem}`);
      failed = true;
    }
  }

  // The load cases' peak, read before the upload case resets VmHWM.
  const final = readProcStatus(pid);
  const sampledPeakMb = mb(Math.max(sampler.peakKb, final?.rssKb ?? 0));
  const hwmMb = final ? mb(final.hwmKb) : NaN;
  // VmHWM is the kernel's own high-water mark (it also sees peaks between samples).
  const peakRssMb = Math.max(sampledPeakMb, Number.isFinite(hwmMb) ? hwmMb : 0);

  // Idle RSS: the server between bursts, once V8's memory reducer has given back what the load grew.
  let footprint: FootprintResult | undefined;
  let settled: Settled | undefined;
  if (options.runFootprint && !isInterrupted() && server.alive()) {
    footprint = await idleFootprint(pid, coldStarts, startRss ? mb(startRss.rssKb) : NaN, results.map((row) => row.case));
    settled = footprint.idleRss.settled;
  }

  let upload: UploadResult | undefined;
  // After a load case failed its checks the upload case still runs; not after the server died.
  if (uploadImage && !isInterrupted() && server.alive()) {
    upload = await uploadCase({
      baseUrl,
      pid,
      sampler,
      image: uploadImage,
      dataDir,
      uploads: options.uploads,
      serverLog: server.log,
      // processImage alone runs as the server does: npm start's Node flags and environment.
      aloneNodeArgs: start.flags,
      aloneEnv: start.env,
      serverAlive: server.alive,
      ...(settled ? { settled } : {}),
    });
    if (upload && !upload.ok) failed = true;
  }

  sampler.stop();
  db.close();
  if (isInterrupted()) return 130; // no report from a partial run; the signal handler stops the server

  // 4. Report.
  report({
    options,
    serverNodeArgs: nodeArgs,
    dataDirFilesystem: fsType,
    warnings,
    results,
    staticRef,
    nginxRef,
    homeCopy,
    syncedCommits,
    lighthouse,
    rss: { afterStartMb: startRss ? mb(startRss.rssKb) : null, peakMb: peakRssMb, sampledPeakMb, vmHwmMb: hwmMb, samples: sampler.samples },
    footprint,
    mainStartMs,
    upload,
    loadBefore,
    loadAfter: os.loadavg(),
    serverLog: server.log(),
    failed,
  });

  await stopProcess(server.proc, 15_000);
  writeFileSync(path.join(RESULTS_DIR, "server.log"), server.log());
  if (options.cpuProf) console.log(`CPU profile of the server in ${path.relative(ROOT, profileDir)}/.`);
  return failed ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error("Benchmark failed:", error);
  if (server) console.error(`Server output:\n${server.log().slice(-5000)}`);
  code = 1;
} finally {
  if (server) await stopProcess(server.proc, 15_000);
}
process.exit(isInterrupted() ? 130 : code);
