/**
 * footprint (issue 6, point 7): cold starts of `npm start` on fresh data directories,
 * and the server's idle RSS once V8 has given back what the load grew.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { TARGETS, type LoadCaseName } from "../lib/config.ts";
import { mb, readProcStatus, round, settleRss, spread, type Settled, type Spread } from "../lib/measure.ts";
import { stopProcess, temporaryDirectory } from "../lib/processes.ts";
import { startAppServer } from "../lib/server.ts";

export type ColdStart = { ms: number; rssMb: number };

/**
 * One cold start: `node server.js` as npm start runs it, on a fresh empty DATA_DIR
 * (so it migrates and creates the admin), timed from spawn to the first 200 from
 * /healthz (polled every 10 ms). Then stopped and its DATA_DIR removed.
 * `restart`: the start timed is the second on the DATA_DIR, as after `systemctl
 * restart` (migrated, the admin there); the first is not timed.
 */
export async function coldStart(
  nodeArgs: readonly string[],
  env: (port: number, dir: string) => NodeJS.ProcessEnv,
  { restart = false } = {},
): Promise<ColdStart> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pm-bench-cold-"));
  const cleanup = temporaryDirectory(dir);
  let server: Awaited<ReturnType<typeof startAppServer>> | undefined;
  try {
    if (restart) {
      const first = await startAppServer(nodeArgs, (port) => env(port, dir), { what: "A server before its restart", healthEveryMs: 10 });
      await stopProcess(first.proc, 10_000);
    }
    server = await startAppServer(nodeArgs, (port) => env(port, dir), { what: "A cold-start server", healthEveryMs: 10 });
    const status = readProcStatus(server.pid);
    return { ms: round(server.upInMs), rssMb: status ? mb(status.rssKb) : NaN };
  } finally {
    if (server) await stopProcess(server.proc, 10_000);
    cleanup.release();
  }
}

export type FootprintResult = {
  coldStart: Spread & { runs: ColdStart[]; ok: boolean; maxOk: boolean };
  /** Starts on a DATA_DIR a previous start left (migrated, the admin there): a restart. */
  restart: Spread & { runs: ColdStart[] };
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

/**
 * V8's memory reducer gives back the heap the load grew only after some idle time (RSS
 * flat for the first 10 s, then falling): idle means at least 60 s here, at most 120 s.
 */
export async function idleFootprint(
  pid: number,
  coldStarts: ColdStart[],
  restarts: ColdStart[],
  afterStartMb: number,
  afterLoadCases: LoadCaseName[],
): Promise<FootprintResult> {
  process.stdout.write(`Idle RSS: waiting at least 60 s (at most 120 s) until the server's RSS stops falling… `);
  const settled = await settleRss(pid, 120_000, 60_000);
  console.log(`${settled.toMb} MB after ${settled.seconds} s`);
  const coldSpread = spread(coldStarts.map((run) => run.ms));
  return {
    coldStart: {
      ...coldSpread,
      runs: coldStarts,
      ok: coldSpread.medianMs <= TARGETS.coldStartMs,
      maxOk: coldSpread.maxMs <= TARGETS.coldStartMs,
    },
    restart: { ...spread(restarts.map((run) => run.ms)), runs: restarts },
    idleRss: {
      afterStartMb,
      settled,
      settledMb: settled.toMb,
      afterLoadCases,
      ok: Math.max(afterStartMb, settled.toMb) <= TARGETS.idleRssMb,
    },
    target: `cold start ≤ ${TARGETS.coldStartMs} ms, idle RSS ≤ ${TARGETS.idleRssMb} MB`,
  };
}
