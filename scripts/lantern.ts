/**
 * What Lighthouse's simulation (Lantern) put on a page's path to FCP, LCP and TBT, read from one
 * run's own trace and devtools log (decision 079):
 *
 *   npm run lighthouse -- --pages=home --runs=1 --save-assets
 *   npm run lantern -- home-run1
 *   npm run lantern -- home-run1 --document-bytes=14000
 *   npm run lantern -- home-run1 --without='/assets/'
 *
 * `home-run1` is a run's name in lighthouse-reports/ (a path to its files works too). Prints the simulated FCP, LCP and TBT, each graph's requests and main-thread tasks with their
 * simulated start and end, and the long tasks TBT counts. `--document-bytes=N` simulates the same
 * run again with the page's document N bytes on the wire (headers included, as Lighthouse counts
 * it): the simulation is deterministic given the trace, so this says what a smaller document
 * would give without the noise of a second run. `--without=REGEX` simulates it as if the requests
 * whose URL matches had not been made (decision 084: what the page's scripts cost its first paint);
 * the main thread's tasks are kept as they were. Uses the pinned Lighthouse's own modules.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LanternFirstContentfulPaint } from "lighthouse/core/computed/metrics/lantern-first-contentful-paint.js";
import { LanternLargestContentfulPaint } from "lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js";
import { LanternTotalBlockingTime } from "lighthouse/core/computed/metrics/lantern-total-blocking-time.js";

const reportsDir = fileURLToPath(new URL("../lighthouse-reports", import.meta.url));

type DevtoolsEvent = { method: string; params: Record<string, unknown> & { requestId?: string } };
type SimulatedNode = {
  type: string;
  duration?: number;
  request?: { url: string; resourceType?: string; priority: string; transferSize: number };
  childEvents?: { name: string }[];
};
type Estimate = { timeInMs: number; nodeTimings: Map<SimulatedNode, { startTime: number; endTime: number; duration: number }> };
type MetricResult = { timing: number; optimisticEstimate: Estimate; pessimisticEstimate: Estimate };
type Computed = { request(data: unknown, context: unknown): Promise<MetricResult> };

const USAGE = "Usage: npm run lantern -- <page>-run<N> [--document-bytes=N] [--without=REGEX]   (from `npm run lighthouse -- --save-assets`)";

type Options = { base: string; documentBytes: number | undefined; without: RegExp | undefined };

function parseArgs(argv: string[]): Options {
  let base: string | undefined;
  let documentBytes: number | undefined;
  let without: RegExp | undefined;
  for (const arg of argv) {
    const bytes = /^--document-bytes=(\d+)$/.exec(arg);
    const urls = /^--without=(.+)$/.exec(arg);
    if (bytes) documentBytes = Number(bytes[1]);
    else if (urls) without = new RegExp(urls[1]!);
    else if (!arg.startsWith("-") && base === undefined) {
      const run = arg.replace(/\.report\.json$/, "");
      base = run.includes("/") ? run : path.join(reportsDir, run);
    } else {
      console.error(`Unknown option ${arg}. ${USAGE}`);
      process.exit(2);
    }
  }
  if (base === undefined) {
    console.error(USAGE);
    process.exit(2);
  }
  return { base, documentBytes, without };
}

/** The devtools log with the main document's bytes on the wire set to `bytes`. */
function withDocumentBytes(log: DevtoolsEvent[], bytes: number): DevtoolsEvent[] {
  const document = log.find((event) => event.method === "Network.requestWillBeSent" && event.params.type === "Document");
  if (!document) throw new Error("No document request in the devtools log.");
  return log.map((event) => {
    if (event.params.requestId !== document.params.requestId) return event;
    if (event.method === "Network.loadingFinished") return { ...event, params: { ...event.params, encodedDataLength: bytes } };
    if (event.method === "Network.dataReceived") return { ...event, params: { ...event.params, encodedDataLength: 0 } };
    return event;
  });
}

/** The devtools log without the requests whose URL matches `urls` (the document is always kept). */
function withoutRequests(log: DevtoolsEvent[], urls: RegExp): DevtoolsEvent[] {
  const dropped = new Set<string>();
  for (const event of log) {
    if (event.method !== "Network.requestWillBeSent" || event.params.type === "Document") continue;
    const url = (event.params.request as { url?: string } | undefined)?.url ?? "";
    if (urls.test(url) && event.params.requestId !== undefined) dropped.add(event.params.requestId);
  }
  if (dropped.size === 0) console.log(`No request's URL matches ${urls}.`);
  return log.filter((event) => event.params.requestId === undefined || !dropped.has(event.params.requestId));
}

function labelOf(node: SimulatedNode): string {
  if (node.request) {
    const { resourceType, priority, url, transferSize } = node.request;
    return `${resourceType ?? "?"} ${priority} ${url.length > 60 ? `…${url.slice(-59)}` : url} (${transferSize} B)`;
  }
  const events = (node.childEvents ?? []).slice(0, 4).map((event) => event.name);
  return `main thread, ${Math.round((node.duration ?? 0) / 1000)} ms observed: ${events.join(", ")}`;
}

function printGraph(name: string, estimate: Estimate): void {
  console.log(`  ${name}: ${Math.round(estimate.timeInMs)} ms`);
  const rows = [...estimate.nodeTimings.entries()].sort((a, b) => a[1].startTime - b[1].startTime);
  for (const [node, timing] of rows) console.log(`    ${Math.round(timing.startTime)}–${Math.round(timing.endTime)} ${labelOf(node)}`);
}

async function main(): Promise<void> {
  const { base, documentBytes, without } = parseArgs(process.argv.slice(2));
  const report = JSON.parse(await readFile(`${base}.report.json`, "utf8")) as {
    configSettings: unknown;
    requestedUrl: string;
    finalDisplayedUrl: string;
  };
  const trace: unknown = JSON.parse(await readFile(`${base}-0.trace.json`, "utf8"));
  let devtoolsLog = JSON.parse(await readFile(`${base}-0.devtoolslog.json`, "utf8")) as DevtoolsEvent[];
  if (documentBytes !== undefined) devtoolsLog = withDocumentBytes(devtoolsLog, documentBytes);
  if (without !== undefined) devtoolsLog = withoutRequests(devtoolsLog, without);

  const settings = report.configSettings;
  const data = {
    trace,
    devtoolsLog,
    settings,
    gatherContext: { gatherMode: "navigation" },
    URL: { requestedUrl: report.requestedUrl, mainDocumentUrl: report.finalDisplayedUrl, finalDisplayedUrl: report.finalDisplayedUrl },
    SourceMaps: [],
    simulator: null,
  };
  const context = { computedCache: new Map(), settings };
  const metrics: [string, Computed][] = [
    ["FCP", LanternFirstContentfulPaint as unknown as Computed],
    ["LCP", LanternLargestContentfulPaint as unknown as Computed],
  ];
  for (const [name, metric] of metrics) {
    const result = await metric.request(data, context);
    console.log(`${name} ${Math.round(result.timing)} ms (the mean of two graphs)`);
    printGraph("optimistic", result.optimisticEstimate);
    printGraph("pessimistic", result.pessimisticEstimate);
  }
  const tbt = await (LanternTotalBlockingTime as unknown as Computed).request(data, context);
  console.log(`TBT ${Math.round(tbt.timing)} ms; the pessimistic graph's tasks over 50 ms:`);
  for (const [node, timing] of [...tbt.pessimisticEstimate.nodeTimings.entries()].sort((a, b) => a[1].startTime - b[1].startTime)) {
    if (node.type === "cpu" && timing.duration > 50) console.log(`    ${Math.round(timing.startTime)}–${Math.round(timing.endTime)} ${labelOf(node)}`);
  }
}

await main();
