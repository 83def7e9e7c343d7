/**
 * The benchmark of the public site: `npm run bench` (bench/README.md says what each case
 * measures, how, and its target). This file runs the cases in order; bench/lib/ holds what
 * they share, bench/cases/ one module per case, bench/report.ts the tables and latest.json.
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
import { inboxCase, type InboxResult } from "./cases/inbox.ts";
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
  console.log(
    `  Node ${process.version}, load average ${loadBefore.map((n) => n.toFixed(2)).join(" ")}, commit ${git("rev-parse", "--short", "HEAD") ?? "?"}${git("status", "--porcelain")?.length ? " (+ uncommitted changes)" : ""}`,
  );
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
  const envText = Object.entries(start.env)
    .map(([name, value]) => `${name}=${value} `)
    .join("");
  if (nodeArgs.length) console.log(`  server started with: ${envText}node ${nodeArgs.join(" ")} server.js`);
  console.log("");

  // 0. Footprint: cold starts, before the main server runs (nothing else of ours on the machine).
  const coldStarts: ColdStart[] = [];
  const restarts: ColdStart[] = [];
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
    process.stdout.write(`Restarts (${options.starts}, each on a DATA_DIR a start left): `);
    for (let index = 0; index < options.starts && !isInterrupted(); index++) {
      const run = await coldStart(start.flags, coldEnv, { restart: true });
      restarts.push(run);
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

  // The inbox at 100,000 enquiries, with servers of its own (one per database), before the main server runs.
  let inbox: InboxResult[] | undefined;
  if (options.runInbox) {
    inbox = await inboxCase({
      nodeArgs: start.flags,
      env: { ...process.env, ...start.env, NODE_ENV: "production", HOST: "127.0.0.1", ...NO_S3, SHUTDOWN_DRAIN_MS: "0" },
      enquiries: options.inboxEnquiries,
      runs: options.inboxRuns,
    });
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
      console.log(
        `static /: ${staticRef.bytes.toLocaleString("en-GB")} bytes (${staticRef.headers["content-encoding"] ?? "identity"}) copied from GET /, served by bench/static-server.ts (pid ${staticRef.pid})`,
      );
    }
    if (name === "nginx") {
      if (!nginxBinary) {
        console.log("nginx /: skipped, nginx is not installed (apt-get install nginx-light, or NGINX=/path/to/nginx).");
        continue;
      }
      side = nginxRef = await startNginx(nginxBinary, homeCopy!, home);
      console.log(
        `nginx /: the same ${homeCopy!.body.length.toLocaleString("en-GB")} bytes served by ${nginxRef.version} (pid ${nginxRef.pid}, ${nginxRef.workers().length} workers)`,
      );
    }
    if (name === "quiet") {
      side = await startQuietServer(nodeArgs, serverEnv);
      console.log(`GET / without its log line and metrics: a second server on the same data, LOG_LEVEL=warn, no METRICS_TOKEN (pid ${side.pid})`);
    }
    if (name === "proxied") {
      side = await startProxiedServer(nodeArgs, serverEnv, home);
      console.log(
        `GET / via proxy: a second server on the same data, TRUST_PROXY=loopback, no PUBLIC_URL (pid ${side.pid}); requests carry nginx's forwarded headers`,
      );
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
    footprint = await idleFootprint(
      pid,
      coldStarts,
      restarts,
      startRss ? mb(startRss.rssKb) : NaN,
      results.map((row) => row.case),
    );
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
    inbox,
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
