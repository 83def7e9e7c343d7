import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Memory given back once a burst is over (decision 071). After a load V8 keeps
 * what the burst grew: the young generation's pages (16 MB at
 * `--max-semi-space-size=8`) and the old space's emptied pages stay in its
 * page pool, and its memory reducer, which would give them back, judges the
 * allocation rate from the last collections — made during the burst — so with
 * no collection after it the server is taken to be busy for as long as it
 * stays idle (`--trace-memory-reducer`: "high alloc" every 8 s). So the server
 * looks every few seconds: when its RSS has grown well past what it was after
 * start (or after the last release) and the event loop has been idle since the
 * last look, it asks V8 for one memory-reducing collection, which releases the
 * pooled pages. One collection per burst: the level after it is the new mark.
 */
export const IDLE_MEMORY = {
  /** How often the server looks. */
  everyMs: 2_000,
  /** Idle: the event loop busy less than this share of the time since the last look. */
  idleUtilization: 0.05,
  /** Growth of RSS over the mark that makes a collection worth its pause. */
  growthBytes: 12 * 1024 * 1024,
} as const;

export type IdleMemoryRelease = {
  /** Stops looking (at shutdown). */
  stop(): void;
};

export type Released = { rssBefore: number; rssAfter: number; ms: number };

export type Probe = {
  rss: () => number;
  /** The event loop's utilisation since the previous call. */
  utilization: () => number;
  collect: () => void;
};

/**
 * Looks every `everyMs` (an unref'd timer: it never keeps the process alive). The first look
 * is made at once, so the mark is the RSS the start left: a burst in the first `everyMs`
 * (a server restarted under load) is given back too, not taken as the mark.
 */
export function releaseMemoryWhenIdle(onRelease: (released: Released) => void, probe: Probe = processProbe()): IdleMemoryRelease {
  const watch = idleMemoryWatch(probe, onRelease);
  watch();
  const timer = setInterval(watch, IDLE_MEMORY.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** One look per call; the first sets the mark. */
export function idleMemoryWatch(probe: Probe, onRelease: (released: Released) => void): () => void {
  let mark: number | undefined;
  return () => {
    const rss = probe.rss();
    const idle = probe.utilization() < IDLE_MEMORY.idleUtilization;
    if (mark === undefined || rss < mark) {
      mark = rss;
      return;
    }
    if (!idle || rss - mark < IDLE_MEMORY.growthBytes) return;
    const started = performance.now();
    probe.collect();
    const ms = performance.now() - started;
    mark = probe.rss();
    onRelease({ rssBefore: rss, rssAfter: mark, ms });
  };
}

function processProbe(): Probe {
  let last = performance.eventLoopUtilization();
  let reduce: (() => void) | undefined;
  return {
    rss: () => process.memoryUsage.rss(),
    utilization() {
      const now = performance.eventLoopUtilization();
      const since = performance.eventLoopUtilization(now, last);
      last = now;
      return since.utilization;
    },
    // Made at the first release: a server that never has a burst never sets a V8 flag.
    collect() {
      reduce ??= memoryReducingCollection();
      reduce();
    },
  };
}

type Gc = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

/**
 * V8's `gc()` taken from a fresh context with `--expose-gc` set for that moment
 * only (as Jest does for its leak check), so no global `gc` is left in ours.
 * "last-resort" is V8's CollectAllAvailableGarbage: full collections that
 * shrink the spaces until nothing more is freed, then the page pool released.
 */
export function memoryReducingCollection(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as Gc;
  setFlagsFromString("--no-expose-gc");
  return () => gc({ type: "major", execution: "sync", flavor: "last-resort" });
}
