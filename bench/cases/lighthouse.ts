/**
 * Lighthouse on / (issue 19, point 5): `scripts/lighthouse.ts` (mobile profile, Debian's
 * Chromium, the demo projects and a company's site imported) run three times on the landing
 * page in a process of its own, with its own server; the bench reads the summary it writes.
 * Performance is a simulated timing: it moves with other work on the machine.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { RESULTS_DIR, ROOT, TARGETS } from "../lib/config.ts";
import { adopt } from "../lib/processes.ts";

export type LighthouseRun = {
  performance: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  scriptBytes: number | null;
  documentBytes: number | null;
};

export type LighthouseResult = {
  runs: LighthouseRun[];
  lcpMedianMs: number;
  tbtMedianMs: number;
  scriptBytesMedian: number;
  performance: Array<number | null>;
  ok: { lcp: boolean; tbt: boolean; performance: boolean; script: boolean };
};

const CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Undefined, with the reason printed, when Chromium is missing or Lighthouse fails. */
export async function lighthouseCase(runs: number): Promise<LighthouseResult | undefined> {
  if (!existsSync(CHROMIUM)) {
    console.log(`Lighthouse: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or CHROME_PATH).`);
    return undefined;
  }
  const summary = path.join(RESULTS_DIR, "lighthouse-summary.json");
  rmSync(summary, { force: true });
  process.stdout.write(`Lighthouse on / (mobile, ${runs} runs, scripts/lighthouse.ts)… `);
  const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
    const child = adopt(
      spawn(process.execPath, [path.join(ROOT, "scripts", "lighthouse.ts"), `--runs=${runs}`, "--pages=home", `--summary=${summary}`], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => (text = (text + chunk.toString()).slice(-20_000)));
    child.stderr?.on("data", (chunk: Buffer) => (text = (text + chunk.toString()).slice(-20_000)));
    child.once("exit", (code) => resolve({ code, text }));
  });
  if (!existsSync(summary)) {
    console.log(`failed (exit ${output.code}):\n${output.text.slice(-3000)}`);
    return undefined;
  }
  const home = (JSON.parse(readFileSync(summary, "utf8")) as Record<string, LighthouseRun[]>)["/"] ?? [];
  const numbers = (pick: (run: LighthouseRun) => number | null) => home.map(pick).filter((value): value is number => value !== null);
  const result: LighthouseResult = {
    runs: home,
    lcpMedianMs: Math.round(median(numbers((run) => run.lcpMs))),
    tbtMedianMs: Math.round(median(numbers((run) => run.tbtMs))),
    scriptBytesMedian: median(numbers((run) => run.scriptBytes)),
    performance: home.map((run) => run.performance),
    ok: { lcp: false, tbt: false, performance: false, script: false },
  };
  result.ok = {
    lcp: result.lcpMedianMs <= TARGETS.lcpMs,
    tbt: result.tbtMedianMs <= TARGETS.tbtMs,
    performance: home.length > 0 && home.every((run) => run.performance === 100),
    script: result.scriptBytesMedian <= TARGETS.homeScriptBytes,
  };
  console.log(`LCP ${home.map((run) => Math.round(run.lcpMs ?? NaN)).join(", ")} ms, performance ${result.performance.join(", ")}`);
  return result;
}
