/**
 * Reading a process from the outside (RSS, CPU time from /proc), small statistics, and
 * the plumbing every case shares: a free port, waiting for /healthz, a raw GET.
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync, statfsSync, writeFileSync } from "node:fs";
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { createServer } from "node:net";
import { ROOT } from "./config.ts";
import { isInterrupted, isRunning } from "./processes.ts";

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;
export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export function freePort(): Promise<number> {
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

export type ProcStatus = { rssKb: number; hwmKb: number };
export function readProcStatus(pid: number): ProcStatus | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
    return { rssKb: field("VmRSS"), hwmKb: field("VmHWM") };
  } catch {
    return undefined;
  }
}

/** utime + stime of a process in seconds (from /proc/<pid>/stat; clock ticks are 100 Hz on Linux). */
export function readCpuSeconds(pid: number, thread?: number): number {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Resets a process's VmHWM to its current RSS (Linux ≥ 4.0; our own child, so allowed). */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

export function git(...args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

export function filesystemOf(dir: string): string {
  try {
    const type = statfsSync(dir).type;
    // biome-ignore lint/complexity/useSimpleNumberKeys: the magic numbers of statfs(2), written in hex as it lists them.
    const known: Record<number, string> = { 0x01021994: "tmpfs", 0xef53: "ext4", 0x58465342: "xfs", 0x9123683e: "btrfs", 0x794c7630: "overlayfs" };
    return known[type] ?? `0x${type.toString(16)}`;
  } catch {
    return "unknown";
  }
}

export type Spread = { medianMs: number; minMs: number; maxMs: number };
export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { medianMs: round(median), minMs: round(sorted[0] ?? NaN), maxMs: round(sorted.at(-1) ?? NaN) };
}

/** VmRSS of one process every 100 ms: the peak overall and since the last resetCase(). */
export class RssSampler {
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

export type Settled = { fromMb: number; toMb: number; seconds: number /** VmRSS every 5 s of the wait, MB. */; trace: number[] };
/**
 * Waits until a process's RSS has not fallen by more than 2 MB for 10 s, and at
 * least `minMs` (at most `limitMs`).
 */
export async function settleRss(pid: number, limitMs = 90_000, minMs = 0): Promise<Settled> {
  const started = performance.now();
  const rss = () => readProcStatus(pid)?.rssKb ?? 0;
  const from = rss();
  const trace = [mb(from)];
  let low = from;
  let lowSince = performance.now();
  let ticks = 0;
  while (performance.now() - started < limitMs && (performance.now() - lowSince < 10_000 || performance.now() - started < minMs)) {
    await sleep(1000);
    const now = rss();
    if (++ticks % 5 === 0) trace.push(mb(now));
    if (now < low - 2048) {
      low = now;
      lowSince = performance.now();
    }
  }
  return { fromMb: mb(from), toMb: mb(rss()), seconds: Math.round((performance.now() - started) / 1000), trace };
}

/**
 * Polls `url`/healthz every `everyMs` until it answers 200. Throws, with the process's
 * output, when it exits first or takes longer than `timeoutMs`; never resolves after an
 * interrupt (the signal handler ends the bench).
 */
export async function waitForHealthy(
  url: string,
  proc: ChildProcess,
  what: string,
  output: () => string,
  { everyMs = 100, timeoutMs = 30_000 } = {},
): Promise<void> {
  const started = performance.now();
  for (;;) {
    if (!isRunning(proc)) throw new Error(`${what} exited during start (code ${proc.exitCode}, signal ${proc.signalCode}). Its output:\n${output()}`);
    if (isInterrupted()) return new Promise<void>(() => {});
    try {
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${what} did not answer /healthz within ${timeoutMs / 1000} s. Its output:\n${output()}`);
    await sleep(everyMs);
  }
}

/** A GET, raw: the body as sent (still compressed), and the headers. */
export function fetchRaw(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
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
