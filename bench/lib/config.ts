/**
 * What the bench measures and against what: the case names, the targets and the
 * command-line options (`npm run bench -- --help` prints bench/run.ts's header).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const RESULTS_DIR = path.join(ROOT, "bench", "results");

export const CASE_NAMES = ["home", "quiet", "proxied", "static", "nginx", "projects", "contact", "upload", "footprint", "lighthouse", "inbox"] as const;
export type CaseName = (typeof CASE_NAMES)[number];
/** The cases autocannon drives (all but upload, footprint, lighthouse and inbox). */
export type LoadCaseName = Exclude<CaseName, "upload" | "footprint" | "lighthouse" | "inbox">;

export const TARGETS = {
  homeRps: 500,
  projectsRps: 3000,
  contactDurablePerSecond: 2000,
  p99Ms: 100,
  homeP99Ms: 50,
  /** GET / 2xx/s ÷ static / 2xx/s. */
  homeVsStatic: 1 / 3,
  /** GET / 2xx/s ÷ nginx / 2xx/s (issue 19). */
  homeVsNginx: 0.8,
  /** GET / behind a proxy (TRUST_PROXY=loopback) 2xx/s ÷ GET / direct 2xx/s. */
  proxiedVsHome: 0.95,
  coldStartMs: 400,
  idleRssMb: 100,
  peakRssMb: 250,
  /** Upload median / processImage-alone median. */
  uploadRatio: 1.3,
  uploadPeakRssMb: 350,
  /** Lighthouse mobile on / (issue 19): median LCP and TBT of the runs, performance 100 in each. */
  lcpMs: 1000,
  tbtMs: 50,
  /** JavaScript / loads, as Lighthouse weighs it on the wire (bytes, headers included). */
  homeScriptBytes: 80_000,
} as const;

export type Options = {
  durationS: number;
  warmupS: number;
  only: string | undefined;
  cases: CaseName[];
  loadCases: LoadCaseName[];
  runUpload: boolean;
  runFootprint: boolean;
  runLighthouse: boolean;
  lighthouseRuns: number;
  runInbox: boolean;
  /** The inbox case: how many enquiries to seed (plus one to find), and how many timed requests per view. */
  inboxEnquiries: number;
  inboxRuns: number;
  acceptEncoding: string;
  uploads: number;
  starts: number;
  cpuProf: boolean;
  /** Without the request log and the metrics (LOG_LEVEL=warn, no METRICS_TOKEN): what they cost, by difference. */
  quiet: boolean;
  nodeArgs: string[];
};

function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

function seconds(name: string, raw: string, allowZero: boolean): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    refuse(`--${name} must be a ${allowZero ? "non-negative" : "positive"} number of seconds (got ${JSON.stringify(raw)})`);
  }
  return value;
}

function wholeNumber(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) refuse(`--${name} must be a positive whole number (got ${JSON.stringify(raw)})`);
  return value;
}

/** Reads the command line; prints the help (bench/run.ts's header) or a usage error and exits. */
export function readOptions(argv: string[] = process.argv.slice(2)): Options {
  const { values: flags } = parseArgs({
    args: argv,
    options: {
      duration: { type: "string", default: "10" },
      warmup: { type: "string", default: "2" },
      only: { type: "string" },
      encoding: { type: "string", default: "gzip, deflate, br" },
      uploads: { type: "string", default: "5" },
      starts: { type: "string", default: "5" },
      "lighthouse-runs": { type: "string", default: "3" },
      "inbox-enquiries": { type: "string", default: "100000" },
      "inbox-runs": { type: "string", default: "15" },
      "cpu-prof": { type: "boolean", default: false },
      quiet: { type: "boolean", default: false },
      "node-args": { type: "string", default: "" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });

  if (flags.help) {
    const header = readFileSync(path.join(ROOT, "bench", "run.ts"), "utf8").split("*/")[0] ?? "";
    console.log(header.replace(/^\/\*\*?|^ \* ?/gm, ""));
    process.exit(0);
  }

  let cases: CaseName[] = [...CASE_NAMES];
  if (flags.only !== undefined) {
    const asked = flags.only.split(",").map((name) => name.trim());
    const unknown = asked.filter((name) => !(CASE_NAMES as readonly string[]).includes(name));
    if (unknown.length || asked.length === 0) {
      refuse(`--only takes one or more of ${CASE_NAMES.join(", ")}, comma-separated (got ${JSON.stringify(flags.only)})`);
    }
    // static /, nginx / and GET / behind a proxy are only meaningful beside GET /, measured just before them.
    if (["static", "nginx", "proxied", "quiet"].some((name) => asked.includes(name))) asked.push("home");
    cases = CASE_NAMES.filter((name) => asked.includes(name));
  }
  return {
    durationS: seconds("duration", flags.duration, false),
    warmupS: seconds("warmup", flags.warmup, true),
    only: flags.only,
    cases,
    loadCases: cases.filter((name): name is LoadCaseName => name !== "upload" && name !== "footprint" && name !== "lighthouse" && name !== "inbox"),
    runUpload: cases.includes("upload"),
    runFootprint: cases.includes("footprint"),
    runLighthouse: cases.includes("lighthouse"),
    lighthouseRuns: wholeNumber("lighthouse-runs", flags["lighthouse-runs"]),
    runInbox: cases.includes("inbox"),
    inboxEnquiries: wholeNumber("inbox-enquiries", flags["inbox-enquiries"]),
    inboxRuns: wholeNumber("inbox-runs", flags["inbox-runs"]),
    acceptEncoding: flags.encoding,
    uploads: wholeNumber("uploads", flags.uploads),
    starts: wholeNumber("starts", flags.starts),
    cpuProf: flags["cpu-prof"],
    quiet: flags.quiet,
    nodeArgs: flags["node-args"].split(/\s+/).filter(Boolean),
  };
}
