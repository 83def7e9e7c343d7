/**
 * The bench's report: a table per kind of case on stdout, everything in
 * bench/results/latest.json (git-ignored).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SyncedCommits } from "./cases/disk.ts";
import type { FootprintResult } from "./cases/footprint.ts";
import type { LighthouseResult } from "./cases/lighthouse.ts";
import { INBOX_TARGETS, type InboxResult } from "./cases/inbox.ts";
import type { CaseResult } from "./cases/load.ts";
import type { NginxServer } from "./cases/nginx.ts";
import type { HomeCopy, StaticServer } from "./cases/static.ts";
import type { UploadResult } from "./cases/upload.ts";
import { RESULTS_DIR, ROOT, TARGETS, type Options } from "./lib/config.ts";
import { git, round, type Spread } from "./lib/measure.ts";

export type ReportInput = {
  options: Options;
  serverNodeArgs: string[];
  dataDirFilesystem: string;
  warnings: string[];
  results: CaseResult[];
  staticRef: StaticServer | undefined;
  nginxRef: NginxServer | undefined;
  /** GET / as copied for static / and nginx /. */
  homeCopy: HomeCopy | undefined;
  /** The disk's synced SQLite commits per second, measured after the contact case. */
  syncedCommits: SyncedCommits | undefined;
  lighthouse: LighthouseResult | undefined;
  /** The inbox at 100,000 enquiries, per database. */
  inbox: InboxResult[] | undefined;
  rss: { afterStartMb: number | null; peakMb: number; sampledPeakMb: number; vmHwmMb: number; samples: number };
  footprint: FootprintResult | undefined;
  mainStartMs: number;
  upload: UploadResult | undefined;
  loadBefore: number[];
  loadAfter: number[];
  serverLog: string;
  failed: boolean;
};

/** Prints the tables and writes latest.json. */
export function report(input: ReportInput): void {
  const { options, results, footprint, upload, loadBefore, loadAfter, mainStartMs } = input;
  const { peakMb: peakRssMb, sampledPeakMb, vmHwmMb: hwmMb } = input.rss;
  const pad = (text: string, width: number) => text.padEnd(width);
  const lpad = (text: string, width: number) => text.padStart(width);
  const verdict = (ok: boolean) => (ok ? "pass" : "MISS");
  const rssOk = peakRssMb <= TARGETS.peakRssMb;
  const homeRow = results.find((row) => row.case === "home");
  const copy = input.homeCopy;
  const versusStatic =
    homeRow && copy
      ? against(
          homeRow,
          results.find((row) => row.case === "static"),
          copy,
          TARGETS.homeVsStatic,
        )
      : undefined;
  const nginxComparison =
    homeRow && copy
      ? against(
          homeRow,
          results.find((row) => row.case === "nginx"),
          copy,
          TARGETS.homeVsNginx,
        )
      : undefined;
  const versusNginx = nginxComparison && input.nginxRef ? { ...nginxComparison, nginx: input.nginxRef.version } : undefined;
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
          // static / and nginx / are references, not targets.
          pad(isReference(row) ? "—" : verdict(row.rateOk), 4),
          " " + (isReference(row) ? "—" : verdict(row.p99Ok)),
        ].join(" "),
      );
    }
    console.log("");
    console.log(
      `Server peak RSS over these cases: ${peakRssMb} MB (VmRSS sampled every 100 ms: ${sampledPeakMb} MB, VmHWM: ${hwmMb} MB, after start: ${input.rss.afterStartMb ?? "?"} MB)   target ≤ ${TARGETS.peakRssMb} MB: ${verdict(rssOk)}`,
    );
    console.log(
      `  per case: ${results.map((row) => `${row.label} ${row.peakRssMb} MB${isReference(row) ? " (its own process, VmHWM; the app idle)" : ""}`).join(", ")}`,
    );
    console.log("  2xx/s for contact = acknowledged enquiries found in the database / duration.");
    console.log("  srv CPU = server process CPU time / wall time (200% = both cores); ms CPU/req = server CPU time per");
    console.log("  response, the figure least disturbed by other work on the machine.");
    for (const row of results) {
      if (!row.durable) continue;
      const d = row.durable;
      console.log(
        `Contact durability: ${d.acknowledgedDuringRun} acknowledged, ${d.storedDuringRun} rows stored (${d.storedNotAcknowledged} in flight when the load stopped), ${d.missingAcknowledged} acknowledged but missing: ${d.ok ? "OK" : `FAILED: ${d.problem}`}`,
      );
      if (input.syncedCommits) {
        console.log(
          `  ${d.durablePerSecond} durable enquiries/s beside the disk's ${input.syncedCommits.perSecond} synced SQLite commits/s (one row each, WAL, synchronous=FULL): ` +
            `${(d.durablePerSecond / input.syncedCommits.perSecond).toFixed(2)} enquiries per commit the disk could make   target ≥ ${TARGETS.contactDurablePerSecond}/s: ${verdict(row.rateOk)}\n` +
            `  server CPU per enquiry ${row.serverCpuMsPerRequest} ms, of which the main thread (the event loop every request waits on) ${row.serverMainThreadCpuMsPerRequest} ms`,
        );
      }
    }
    for (const row of results) {
      const codes = Object.entries(row.statusCodes).filter(([code]) => !code.startsWith("2"));
      if (codes.length) console.log(`${row.label}: non-2xx status codes ${codes.map(([code, n]) => `${code}×${n}`).join(", ")}`);
    }
    for (const [v, what, target] of [
      [versusNginx, `nginx / (the same bytes from ${versusNginx?.nginx ?? "nginx"})`, TARGETS.homeVsNginx.toFixed(2)],
      [versusStatic, "static / (the same bytes from node:http)", "1/3"],
    ] as const) {
      if (!v) continue;
      console.log("");
      console.log(
        `GET / against ${what}, ${v.bytes.toLocaleString("en-GB")} bytes ${v.contentEncoding ?? "identity"}: ${v.home2xxPerSecond} vs ${v.reference2xxPerSecond} 2xx/s, ` +
          `p50 ${v.homeP50Ms} vs ${v.referenceP50Ms} ms, p99 ${v.homeP99Ms} vs ${v.referenceP99Ms} ms, ms CPU/req ${v.homeCpuMsPerRequest} vs ${v.referenceCpuMsPerRequest}`,
      );
      console.log(`  ratio ${v.ratio.toFixed(3)} (1/${(1 / v.ratio).toFixed(2)})   target ≥ ${target}: ${verdict(v.ratioOk)}`);
    }
    if (homeRow) console.log(`  GET / p99 ${homeRow.latencyMs.p99} ms   target ≤ ${TARGETS.homeP99Ms} ms: ${verdict(homeRow.p99Ok)}`);
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
      `Restart (spawn → first 200 from /healthz on a DATA_DIR a start left, as systemctl restart): median ${f.restart.medianMs} ms, max ${f.restart.maxMs} ms, min ${f.restart.minMs} ms; runs: ${f.restart.runs.map((run) => `${run.ms} ms`).join(", ")}`,
    );
    console.log(
      `Idle RSS: ${f.idleRss.afterStartMb} MB after start; ${f.idleRss.settledMb} MB ${f.idleRss.afterLoadCases.length ? `after ${f.idleRss.afterLoadCases.join(", ")}` : "with no load (none ran)"} ` +
        `once settled (${f.idleRss.settled.fromMb} MB → ${f.idleRss.settled.toMb} MB in ${f.idleRss.settled.seconds} s; every 5 s: ${f.idleRss.settled.trace.join(", ")})   target ≤ ${TARGETS.idleRssMb} MB: ${verdict(f.idleRss.ok)}`,
    );
  }
  if (upload) {
    const u = upload;
    const row = (name: string, runs: number, spreadOf: Spread, cpu: string, rss: string) =>
      [
        pad(name, 30),
        lpad(String(runs), 4),
        lpad(spreadOf.medianMs.toFixed(1), 10),
        lpad(spreadOf.minMs.toFixed(1), 9),
        lpad(spreadOf.maxMs.toFixed(1), 9),
        lpad(cpu, 11),
        "  " + rss,
      ].join(" ");
    console.log("");
    const header = [
      pad("upload (24 MP JPEG)", 30),
      lpad("runs", 4),
      lpad("median ms", 10),
      lpad("min ms", 9),
      lpad("max ms", 9),
      lpad("CPU ms/run", 11),
      "  peak RSS",
    ].join(" ");
    console.log(header);
    console.log("-".repeat(header.length + 50));
    const hwm = u.server.vmHwmMb === null ? "VmHWM not reset" : `VmHWM ${u.server.vmHwmMb} MB`;
    console.log(
      row(
        u.label,
        u.server.timesMs.length,
        u.server,
        u.server.cpuMsPerUpload.toFixed(0),
        `${u.server.peakRssMb} MB (sampled ${u.server.sampledPeakRssMb} MB, ${hwm}; ${u.server.rssBeforeMb} MB before, +${u.server.riseMb} MB)`,
      ),
    );
    console.log(
      row(
        "processImage alone (own proc)",
        u.sharpAlone.timesMs.length,
        u.sharpAlone,
        u.sharpAlone.cpuMsPerRun.toFixed(0),
        `VmHWM ${u.sharpAlone.vmHwmMb} MB (${u.sharpAlone.rssAfterImportMb} MB after importing the build)`,
      ),
    );
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
  figuresTable(input, versusNginx?.ratio);
  console.log(`Load average before ${loadBefore.map((n) => n.toFixed(2)).join(" ")}, after ${loadAfter.map((n) => n.toFixed(2)).join(" ")}.`);
  const serverErrors = input.serverLog.split("\n").filter((line) => /error/i.test(line)).length;
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
      durationS: options.durationS,
      warmupS: options.warmupS,
      only: options.only ?? null,
      acceptEncoding: options.acceptEncoding,
      uploads: options.uploads,
      starts: options.starts,
      cpuProf: options.cpuProf,
      serverNodeArgs: input.serverNodeArgs,
    },
    dataDirFilesystem: input.dataDirFilesystem,
    warnings: input.warnings,
    targets: TARGETS,
    cases: results,
    // The server's peak over the load cases (home, projects, contact) and its start; the upload case has its own in upload.server.
    rss: {
      cases: options.loadCases,
      afterStartMb: input.rss.afterStartMb,
      peakMb: peakRssMb,
      sampledPeakMb,
      vmHwmMb: hwmMb,
      samples: input.rss.samples,
      ok: rssOk,
    },
    upload: upload ?? null,
    versusStatic: versusStatic ?? null,
    versusNginx: versusNginx ?? null,
    syncedCommits: input.syncedCommits ?? null,
    lighthouse: input.lighthouse ?? null,
    inbox: input.inbox ? { targets: INBOX_TARGETS, backends: input.inbox } : null,
    footprint: footprint ? { ...footprint, mainServerStartMs: mainStartMs } : null,
    ok: !input.failed,
  };
  if (input.inbox) printInbox(input.inbox);
  writeFileSync(path.join(RESULTS_DIR, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Results written to ${path.relative(ROOT, path.join(RESULTS_DIR, "latest.json"))}.`);
}

/** GET / beside a reference serving its bytes (static /, nginx /): throughput, latency and CPU side by side. */
function against(homeRow: CaseResult, referenceRow: CaseResult | undefined, copy: HomeCopy, target: number) {
  if (!referenceRow) return undefined;
  const ratio = round(homeRow.successesPerSecond / referenceRow.successesPerSecond, 3);
  const encoding = copy.headers["content-encoding"];
  return {
    bytes: copy.body.length,
    contentEncoding: typeof encoding === "string" ? encoding : null,
    home2xxPerSecond: homeRow.successesPerSecond,
    reference2xxPerSecond: referenceRow.successesPerSecond,
    homeP50Ms: homeRow.latencyMs.p50,
    referenceP50Ms: referenceRow.latencyMs.p50,
    homeP99Ms: homeRow.latencyMs.p99,
    referenceP99Ms: referenceRow.latencyMs.p99,
    homeCpuMsPerRequest: homeRow.serverCpuMsPerRequest,
    referenceCpuMsPerRequest: referenceRow.serverCpuMsPerRequest,
    ratio,
    ratioOk: ratio >= target,
  };
}
const isReference = (row: CaseResult) => row.case === "static" || row.case === "nginx" || row.case === "quiet";

/** Issue 19's table, one line per figure, from what this run measured ("—" for a case that did not run). */
function figuresTable(input: ReportInput, homeVsNginx: number | undefined): void {
  const { results, footprint, lighthouse } = input;
  const row = (name: string) => results.find((one) => one.case === name);
  const home = row("home");
  const proxied = row("proxied");
  const contact = row("contact")?.durable;
  const mark = (ok: boolean | undefined) => (ok === undefined ? "" : ok ? "  pass" : "  MISS");
  const lines: Array<[string, string, string, boolean | undefined]> = [
    [
      "GET / against nginx serving the same bytes, 50 conns",
      homeVsNginx === undefined
        ? "—"
        : `${homeVsNginx.toFixed(3)} (${home?.successesPerSecond} vs ${row("nginx")?.successesPerSecond} 2xx/s), p99 ${home?.latencyMs.p99} ms`,
      `≥ ${TARGETS.homeVsNginx}`,
      homeVsNginx === undefined ? undefined : homeVsNginx >= TARGETS.homeVsNginx,
    ],
    [
      "GET /: its log line and metrics, server CPU per request",
      home && row("quiet")
        ? `${round((home.serverCpuMsPerRequest - row("quiet")!.serverCpuMsPerRequest) * 1000)} µs (${home.serverCpuMsPerRequest} vs ${row("quiet")!.serverCpuMsPerRequest} ms without)`
        : "—",
      "shown",
      undefined,
    ],
    [
      "GET / with TRUST_PROXY=loopback, against without",
      proxied && home ? `${(proxied.successesPerSecond / home.successesPerSecond).toFixed(3)}` : "—",
      `≥ ${TARGETS.proxiedVsHome}`,
      proxied && home ? proxied.rateOk : undefined,
    ],
    [
      "POST /api/contact, durable, 20 conns (limits raised)",
      contact ? `${contact.durablePerSecond}/s${input.syncedCommits ? ` (disk: ${input.syncedCommits.perSecond} synced commits/s)` : ""}` : "—",
      `≥ ${TARGETS.contactDurablePerSecond}/s`,
      contact ? contact.durablePerSecond >= TARGETS.contactDurablePerSecond : undefined,
    ],
    [
      "Lighthouse mobile LCP (median) / TBT (median)",
      lighthouse ? `${lighthouse.lcpMedianMs} ms / ${lighthouse.tbtMedianMs} ms (performance ${lighthouse.performance.join(", ")})` : "—",
      `≤ ${TARGETS.lcpMs} / ≤ ${TARGETS.tbtMs} ms, 100 each run`,
      lighthouse ? lighthouse.ok.lcp && lighthouse.ok.tbt && lighthouse.ok.performance : undefined,
    ],
    [
      "JS on / (Lighthouse, on the wire)",
      lighthouse ? `${lighthouse.scriptBytesMedian.toLocaleString("en-GB")} bytes` : "—",
      `≤ ${TARGETS.homeScriptBytes.toLocaleString("en-GB")}`,
      lighthouse?.ok.script,
    ],
    [
      "cold start (spawn to /healthz 200), median",
      footprint ? `${footprint.coldStart.medianMs} ms` : "—",
      `≤ ${TARGETS.coldStartMs} ms`,
      footprint?.coldStart.ok,
    ],
    [
      "idle RSS of the server: after start; after the load",
      footprint ? `${footprint.idleRss.afterStartMb} MB; ${footprint.idleRss.settledMb} MB` : "—",
      `≤ ${TARGETS.idleRssMb} MB`,
      footprint?.idleRss.ok,
    ],
  ];
  console.log("");
  console.log("Issue 19's figures (one run; other work on the machine moves them):");
  for (const [figure, value, target, ok] of lines) console.log(`  ${figure.padEnd(54)} ${value.padEnd(58)} target ${target}${mark(ok)}`);
}

/** The inbox at 100,000 enquiries: each view's median against 50 ms, the CSV against 1 s (issue 22). */
function printInbox(backends: InboxResult[]): void {
  console.log("");
  console.log("Inbox at 100,000 enquiries (GET /api/admin/enquiries, sequential, median of the timed runs):");
  for (const backend of backends) {
    console.log(`  ${backend.backend} (${backend.enquiries.toLocaleString("en-GB")} enquiries, seeded in ${(backend.seedMs / 1000).toFixed(1)} s)`);
    for (const view of backend.views) {
      const ok = view.medianMs <= INBOX_TARGETS.viewMedianMs;
      console.log(`    ${view.name.padEnd(34)} ${String(view.medianMs).padStart(7)} ms  ${ok ? "pass" : "MISS"} (≤ ${INBOX_TARGETS.viewMedianMs} ms)`);
    }
    const csvOk = backend.csv.medianMs <= INBOX_TARGETS.csvMs;
    console.log(
      `    ${"CSV of All".padEnd(34)} ${String(backend.csv.medianMs).padStart(7)} ms  ${csvOk ? "pass" : "MISS"} (≤ ${INBOX_TARGETS.csvMs} ms; ${(backend.csv.bytes / 1048576).toFixed(1)} MiB; compressed for a browser: ${backend.csvCompressedMs} ms; server RSS at its peak during the CSV: ${backend.csvRss.peakMb} MB, ${backend.csvRss.beforeMb} MB before)`,
    );
  }
}
