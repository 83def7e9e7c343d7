/**
 * The load cases autocannon drives: GET /, GET / behind a proxy, static /, GET
 * /api/projects and POST /api/contact (whose every acknowledged enquiry must be in the
 * database afterwards).
 */
import type { DatabaseSync } from "node:sqlite";
import autocannon, { type RequestSpec, type Result } from "autocannon";
import { TARGETS, type LoadCaseName } from "../lib/config.ts";
import { mb, readCpuSeconds, readProcStatus, round, sleep, type RssSampler } from "../lib/measure.ts";
import { currentLoad } from "../lib/processes.ts";

export type CaseSpec = {
  name: LoadCaseName;
  label: string;
  connections: number;
  targetRps: number;
  targetLabel: string;
  p99TargetMs: number;
  requests: () => RequestSpec[];
};

type Acknowledged = { ids: Set<string>; badBodies: number };

/** What a browser's GET / sends; static / is requested with the same headers. */
export function homeHeaders(acceptEncoding: string): Record<string, string> {
  return {
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "accept-encoding": acceptEncoding,
    "user-agent": "Mozilla/5.0 (X11; Linux x86_64) bench",
  };
}

/** What nginx in front sends (proxy_set_header Host $host, X-Forwarded-For, X-Forwarded-Proto). */
export const PROXY_HEADERS = { host: "www.example-lettings.co.uk", "x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https" };

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

const contactCounter = { next: 1 };
const acknowledged: Acknowledged = { ids: new Set(), badBodies: 0 };

export function loadSpecs(acceptEncoding: string): Record<LoadCaseName, CaseSpec> {
  const home = homeHeaders(acceptEncoding);
  return {
    home: {
      name: "home",
      label: "GET /",
      connections: 50,
      targetRps: TARGETS.homeRps,
      targetLabel: `≥ ${TARGETS.homeRps} req/s`,
      p99TargetMs: TARGETS.homeP99Ms,
      requests: () => [{ method: "GET", path: "/", headers: home }],
    },
    quiet: {
      name: "quiet",
      label: "GET / no log/metrics",
      connections: 50,
      targetRps: 0,
      targetLabel: "reference",
      p99TargetMs: Infinity,
      requests: () => [{ method: "GET", path: "/", headers: home }],
    },
    proxied: {
      name: "proxied",
      label: "GET / via proxy",
      connections: 50,
      targetRps: 0,
      targetLabel: `≥ ${TARGETS.proxiedVsHome} × GET /`,
      p99TargetMs: TARGETS.homeP99Ms,
      requests: () => [{ method: "GET", path: "/", headers: { ...home, ...PROXY_HEADERS } }],
    },
    static: {
      name: "static",
      label: "static / (node:http)",
      connections: 50,
      targetRps: 0,
      targetLabel: "reference",
      p99TargetMs: Infinity,
      requests: () => [{ method: "GET", path: "/", headers: home }],
    },
    nginx: {
      name: "nginx",
      label: "nginx / (same bytes)",
      connections: 50,
      targetRps: 0,
      targetLabel: "reference",
      p99TargetMs: Infinity,
      requests: () => [{ method: "GET", path: "/", headers: home }],
    },
    projects: {
      name: "projects",
      label: "GET /api/projects",
      connections: 50,
      targetRps: TARGETS.projectsRps,
      targetLabel: `≥ ${TARGETS.projectsRps.toLocaleString("en-GB")} req/s`,
      p99TargetMs: TARGETS.p99Ms,
      requests: () => [{ method: "GET", path: "/api/projects", headers: { accept: "application/json", "accept-encoding": acceptEncoding } }],
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
}

async function load(url: string, spec: CaseSpec, seconds: number): Promise<Result> {
  const instance = autocannon({ url, connections: spec.connections, duration: seconds, timeout: 10, requests: spec.requests() });
  currentLoad(() => instance.stop());
  try {
    return await instance;
  } finally {
    currentLoad(undefined);
  }
}

export type CaseResult = {
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
  /** The server's main thread alone (its event loop): not the threads of its own that libuv, V8's collector and compiler run on. */
  serverMainThreadCpuMsPerRequest: number;
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

export type LoadRun = {
  spec: CaseSpec;
  url: string;
  /** The process whose CPU counts: the app, or a case's own process (static /, the proxied app). */
  pid: number;
  /** True when `pid` is a case's own process: its peak is its VmHWM, not the app's samples. */
  ownProcess: boolean;
  /** More processes whose CPU counts with `pid`'s (nginx's workers beside its master). */
  morePids?: () => number[];
  sampler: RssSampler;
  db: DatabaseSync;
  warmupS: number;
  durationS: number;
};

/** Warm-up, then the measured run; undefined when interrupted. */
export async function measureLoadCase(run: LoadRun, interrupted: () => boolean): Promise<CaseResult | undefined> {
  const { spec, url, pid, sampler, db } = run;
  const pids = () => [pid, ...(run.morePids?.() ?? [])];
  const cpuSeconds = () => pids().reduce((sum, one) => sum + readCpuSeconds(one), 0);
  if (run.warmupS > 0) {
    process.stdout.write(`${spec.label}: warm-up ${run.warmupS} s… `);
    await load(url, spec, run.warmupS);
  }
  if (interrupted()) return undefined;
  // Let requests still in flight after the warm-up land before counting rows.
  await sleep(300);
  const rowsBefore = spec.name === "contact" ? countRows(db) : 0;
  const acknowledgedBefore = acknowledged.ids.size;
  process.stdout.write(`measuring ${run.durationS} s at ${spec.connections} connections… `);
  sampler.resetCase();
  const serverCpuBefore = cpuSeconds();
  const mainThreadCpuBefore = readCpuSeconds(pid, pid);
  const benchCpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const result = await load(url, spec, run.durationS);
  const wall = (performance.now() - wallBefore) / 1000;
  const serverCpu = cpuSeconds() - serverCpuBefore;
  const mainThreadCpu = readCpuSeconds(pid, pid) - mainThreadCpuBefore;
  const benchCpuUsage = process.cpuUsage(benchCpuBefore);
  const benchCpu = (benchCpuUsage.user + benchCpuUsage.system) / 1e6;
  sampler.sample();
  if (interrupted()) return undefined;

  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(stat.count);
  const ok2xx = result["2xx"];
  const duration = result.duration || run.durationS;
  const row: CaseResult = {
    case: spec.name,
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
    serverMainThreadCpuMsPerRequest: round((mainThreadCpu * 1000) / Math.max(1, ok2xx + result.non2xx), 3),
    benchCpuPercent: round((benchCpu / wall) * 100),
    peakRssMb: run.ownProcess ? mb(Math.max(...pids().map((one) => readProcStatus(one)?.hwmKb ?? NaN))) : mb(sampler.casePeakKb),
    target: spec.targetLabel,
    rateOk: ok2xx / duration >= spec.targetRps,
    p99Ok: result.latency.p99 <= spec.p99TargetMs,
  };
  if (spec.name === "contact") {
    // Let requests that were in flight when autocannon stopped finish on the server.
    await sleep(500);
    row.durable = durability(db, spec, ok2xx, duration, rowsBefore, acknowledgedBefore);
    row.rateOk = row.durable.durablePerSecond >= spec.targetRps;
  }
  return row;
}

/** Every acknowledged enquiry must be a row; rows never acknowledged only for requests in flight at the stop. */
function durability(
  db: DatabaseSync,
  spec: CaseSpec,
  ok2xx: number,
  duration: number,
  rowsBefore: number,
  acknowledgedBefore: number,
): NonNullable<CaseResult["durable"]> {
  const rowsAfter = countRows(db);
  const storedIds = new Set((db.prepare("select id from contact_submissions").all() as { id: string }[]).map((r) => r.id));
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
  return {
    rowsBefore,
    rowsAfter,
    storedDuringRun,
    acknowledgedDuringRun,
    storedNotAcknowledged,
    missingAcknowledged: missing,
    durablePerSecond: round((acknowledgedDuringRun - Math.max(0, missing)) / duration),
    ok: problems.length === 0,
    ...(problems.length ? { problem: problems.join("; ") } : {}),
  };
}
