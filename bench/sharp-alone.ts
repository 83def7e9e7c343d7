/**
 * The upload case's baseline: the server's image processing with no server
 * around it. bench/run.ts starts this in its own process (the same Node, Node
 * flags and GLIBC_TUNABLES as `npm start`), so the peak RSS it reports is its
 * own:
 *
 *   node bench/sharp-alone.ts --image=<file.jpg> [--runs=5] [--warmup=1] [--paced]
 *
 * It imports `processImage` from the production build (build/server/index.js,
 * exactly what POST /api/admin/images runs: sniff, decode, auto-orient, resize
 * to fit 1920, re-encode without metadata, WebP + AVIF copies at 480/960/1440),
 * runs it `warmup` times untimed and `runs` times timed, one after another,
 * and prints one line of JSON on stdout:
 *   { timesMs, cpuMsPerRun, rssAfterImportMb, vmHwmMb, vmRssMb, output: { width, height, extension, files, bytes } }
 * Importing the build loads the whole server bundle (Express, React Router…)
 * without starting it; rssAfterImportMb is that floor, before any image.
 *
 * --paced: print {"ready":true} once loaded, then before each run (warm-ups
 * included) wait for a line on stdin and print {"done":…} after it, so that
 * bench/run.ts can alternate these runs with the server's uploads (background
 * load on the machine then weighs on both alike). The summary is the last line.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

type ProcessedFile = { data: Uint8Array; width: number; height: number; extension: string };
type ProcessImage = (bytes: Uint8Array) => Promise<{ main: ProcessedFile; variants: ProcessedFile[] }>;

const { values } = parseArgs({
  options: {
    image: { type: "string" },
    runs: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    paced: { type: "boolean", default: false },
  },
  strict: true,
});
if (!values.image) {
  console.error("--image=<file> is required");
  process.exit(2);
}
const runs = Number(values.runs);
const warmup = Number(values.warmup);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmup) || warmup < 0) {
  console.error("--runs must be a positive whole number and --warmup a non-negative one");
  process.exit(2);
}

function status(): { rssKb: number; hwmKb: number } {
  const text = readFileSync("/proc/self/status", "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
  return { rssKb: field("VmRSS"), hwmKb: field("VmHWM") };
}
const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

const root = path.resolve(import.meta.dirname, "..");
const { processImage } = (await import(pathToFileURL(path.join(root, "build", "server", "index.js")).href)) as {
  processImage: ProcessImage;
};
// The bytes as the server has them after reading the upload: one Buffer in memory.
const bytes = readFileSync(values.image);
const afterImport = status();

const commands = values.paced ? createInterface({ input: process.stdin })[Symbol.asyncIterator]() : undefined;
if (commands) console.log(JSON.stringify({ ready: true }));
/** In --paced mode, the go-ahead for the next run; stdin closing early ends the process. */
async function turn(): Promise<void> {
  if (!commands) return;
  const next = await commands.next();
  if (next.done) process.exit(1);
}

let last: Awaited<ReturnType<ProcessImage>> | undefined;
for (let index = 0; index < warmup; index++) {
  await turn();
  last = await processImage(bytes);
  if (commands) console.log(JSON.stringify({ done: "warm-up" }));
}
const timesMs: number[] = [];
let cpuMicros = 0;
for (let index = 0; index < runs; index++) {
  await turn();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  last = await processImage(bytes);
  const ms = Math.round((performance.now() - started) * 10) / 10;
  const cpu = process.cpuUsage(cpuBefore);
  cpuMicros += cpu.user + cpu.system;
  timesMs.push(ms);
  if (commands) console.log(JSON.stringify({ done: index + 1, ms }));
}
const end = status();
const files = last ? [last.main, ...last.variants] : [];
console.log(
  JSON.stringify({
    timesMs,
    cpuMsPerRun: Math.round(cpuMicros / 1000 / runs),
    rssAfterImportMb: mb(afterImport.rssKb),
    vmHwmMb: mb(end.hwmKb),
    vmRssMb: mb(end.rssKb),
    output: last
      ? {
          width: last.main.width,
          height: last.main.height,
          extension: last.main.extension,
          files: files.length,
          bytes: files.reduce((sum, file) => sum + file.data.length, 0),
        }
      : null,
  }),
);
process.exit(0);
