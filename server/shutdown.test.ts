import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleStopSignals, type StopSignalsOptions } from "./shutdown";

/** handleStopSignals on an emitter of our own, with a clock the test moves. */
function stopping(options: { drainMs: number; lastReadinessCheck?: number; close?: () => Promise<void> }) {
  const signals = new EventEmitter();
  const lines: string[] = [];
  const line = (first: unknown, second?: unknown) => void lines.push(String(typeof first === "string" ? first : second));
  let clock = 100_000;
  const events: string[] = [];
  const handlers: StopSignalsOptions = {
    log: { debug: line, info: line, warn: line, error: line, written: async () => {} } as StopSignalsOptions["log"],
    drainMs: options.drainMs,
    lastReadinessCheck: () => options.lastReadinessCheck,
    startDraining: () => void events.push("draining"),
    close: async () => {
      await options.close?.();
      events.push("closed");
    },
    closeAllConnections: () => void events.push("cut"),
    exit: async (code) => {
      events.push(`exit ${code}`);
      return undefined as never;
    },
    signals: signals as unknown as StopSignalsOptions["signals"],
    now: () => clock,
  };
  handleStopSignals(handlers);
  return {
    lines,
    events,
    send(signal: "SIGTERM" | "SIGINT", afterMs = 0) {
      clock += afterMs;
      signals.emit(signal);
    },
  };
}

describe("stop signals", () => {
  afterEach(() => vi.useRealTimers());

  it("drains on SIGTERM only when /readyz was asked within the drain period", async () => {
    vi.useFakeTimers();
    const balanced = stopping({ drainMs: 10_000, lastReadinessCheck: 100_000 - 4_000 });
    balanced.send("SIGTERM");
    expect(balanced.lines[0]).toBe(
      "SIGTERM received: /readyz answers 503; still answering requests for 10000 ms (SHUTDOWN_DRAIN_MS), as /readyz was checked 4000 ms ago",
    );
    await vi.advanceTimersByTimeAsync(9_999);
    expect(balanced.events).toEqual(["draining"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(balanced.events).toEqual(["draining", "closed", "exit 0"]);

    const lone = stopping({ drainMs: 10_000, lastReadinessCheck: 100_000 - 10_001 });
    lone.send("SIGTERM");
    await vi.advanceTimersByTimeAsync(0);
    expect(lone.events).toEqual(["draining", "closed", "exit 0"]);
    expect(lone.lines[0]).toMatch(/no drain: nothing asked \/readyz in the last 10000 ms/);
  });

  it("a repeated SIGTERM changes nothing, however often it comes", async () => {
    vi.useFakeTimers();
    const server = stopping({ drainMs: 5_000, lastReadinessCheck: 100_000 });
    server.send("SIGTERM");
    server.send("SIGTERM", 50);
    server.send("SIGTERM", 1_000);
    server.send("SIGTERM", 1_000);
    expect(server.events).toEqual(["draining"]);
    expect(server.lines.filter((line) => line.startsWith("SIGTERM received again while draining: already stopping"))).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.events).toEqual(["draining", "closed", "exit 0"]);
  });

  it("Ctrl-C under npm arrives twice at once (npm forwards its copy): that is one press; the third press stops at once", async () => {
    // A request still in flight: closing does not end.
    const server = stopping({ drainMs: 0, close: () => new Promise<void>(() => {}) });
    server.send("SIGINT");
    server.send("SIGINT", 3);
    server.send("SIGINT", 600);
    server.send("SIGINT", 4);
    expect(server.events).toEqual(["draining"]);
    expect(server.lines.filter((line) => line.startsWith("SIGINT received again"))).toHaveLength(3);
    expect(server.lines.at(-1)).toMatch(/\(Ctrl-C 1 more time to stop at once\)$/);
    server.send("SIGINT", 600);
    expect(server.events).toEqual(["draining", "cut", "exit 130"]);
    expect(server.lines.at(-1)).toBe("SIGINT received 3 times: stopping at once, without waiting for the requests in flight");
  });
});
