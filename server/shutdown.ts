import type { ServerLog } from "~/platform/observe/log.server";

/**
 * How the server stops on SIGTERM and SIGINT (decisions 032 and 038).
 *
 * The first signal starts the stop; every later one changes nothing but a
 * line in the log. A signal often comes twice: `npm start` forwards the
 * SIGTERM it gets to the server, and systemd (`KillMode=control-group`),
 * `docker stop` and `kill -TERM -- -PGID` signal npm and the server alike.
 * Only a third Ctrl-C at a terminal (distinct SIGINTs, not npm's copy of the
 * same one) stops at once, without waiting for requests in flight.
 *
 * The drain (/readyz at 503 while everything else is still answered, so a
 * balancer takes the instance out before it stops listening) is for a
 * balancer: it happens on SIGTERM when something asked /readyz within the
 * last drain period. A lone instance (`systemctl restart` with no balancer)
 * finishes what is in flight and exits at once.
 */
export type StopSignalsOptions = {
  log: ServerLog;
  /** SHUTDOWN_DRAIN_MS. */
  drainMs: number;
  /** When /readyz was last asked (Date.now()), or undefined if never. */
  lastReadinessCheck(): number | undefined;
  /** /readyz answers 503 from now on, and responses carry Connection: close. */
  startDraining(): void;
  /** Stops listening, finishes in-flight requests and background work, closes the database. */
  close(): Promise<void>;
  /** Closes every connection still open (requests in flight are cut). */
  closeAllConnections(): void;
  /** Writes the log out and ends the process. */
  exit(code: number): Promise<never>;
  /** The process to listen on (the tests give an emitter of their own). */
  signals?: Pick<NodeJS.Process, "on">;
  now?: () => number;
};

/** After the drain, how long in-flight requests may take before their connections are closed. */
export const FORCE_CLOSE_AFTER_MS = 10_000;

/** SIGINTs closer together than this are one Ctrl-C: the terminal's to npm and the server, and npm's forwarded copy. */
const SAME_KEYPRESS_MS = 250;

/** Ctrl-C this many times stops at once. */
const FORCE_AFTER_INTERRUPTS = 3;

export function handleStopSignals(options: StopSignalsOptions): void {
  const { log, drainMs, signals = process, now = Date.now } = options;
  let stopping: "draining" | "closing" | undefined;
  let interrupts = 0;
  let lastInterruptAt = -Infinity;

  const onSignal = (signal: "SIGTERM" | "SIGINT") => {
    const at = now();
    if (signal === "SIGINT") {
      if (at - lastInterruptAt >= SAME_KEYPRESS_MS) interrupts++;
      lastInterruptAt = at;
    }
    if (stopping) {
      if (signal === "SIGINT" && interrupts >= FORCE_AFTER_INTERRUPTS) {
        log.warn(`SIGINT received ${interrupts} times: stopping at once, without waiting for the requests in flight`);
        options.closeAllConnections();
        void options.exit(130);
        return;
      }
      log.info(
        `${signal} received again while ${stopping === "draining" ? "draining" : "finishing in-flight requests"}: already stopping, nothing changes` +
          (signal === "SIGINT"
            ? ` (Ctrl-C ${FORCE_AFTER_INTERRUPTS - interrupts} more time${FORCE_AFTER_INTERRUPTS - interrupts === 1 ? "" : "s"} to stop at once)`
            : ""),
      );
      return;
    }
    const checked = options.lastReadinessCheck();
    const balanced = checked !== undefined && at - checked <= drainMs;
    const drain = signal === "SIGTERM" && drainMs > 0 && balanced;
    stopping = drain ? "draining" : "closing";
    options.startDraining();
    if (drain) {
      log.info(
        `${signal} received: /readyz answers 503; still answering requests for ${drainMs} ms (SHUTDOWN_DRAIN_MS), as /readyz was checked ${at - checked!} ms ago`,
      );
    } else {
      const why =
        signal === "SIGINT"
          ? "SIGINT does not drain"
          : drainMs === 0
            ? "SHUTDOWN_DRAIN_MS is 0"
            : `nothing asked /readyz in the last ${drainMs} ms (SHUTDOWN_DRAIN_MS), so no balancer waits for it`;
      log.info(`${signal} received: finishing in-flight requests, then exiting (no drain: ${why})`);
    }
    void stop(drain).then(
      () => options.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "Error during shutdown");
        return options.exit(1);
      },
    );
  };

  const stop = async (drain: boolean) => {
    if (drain) {
      await new Promise((resolve) => setTimeout(resolve, drainMs));
      stopping = "closing";
    }
    log.info("Closing: finishing in-flight requests and e-mails being sent");
    const force = setTimeout(() => {
      log.error(`Requests still running ${FORCE_CLOSE_AFTER_MS / 1000} s after closing; closing their connections`);
      options.closeAllConnections();
    }, FORCE_CLOSE_AFTER_MS);
    force.unref();
    await options.close();
    clearTimeout(force);
  };

  for (const signal of ["SIGTERM", "SIGINT"] as const) signals.on(signal, () => onSignal(signal));
}
