/**
 * A task run now and then in the background (retention, pruning): first after
 * `firstAfterMs`, then every `everyMs`, on timers that never keep the process
 * alive. The task reports its own failures; the next run comes regardless.
 */
export type Repeating = { stop(): void };

export function startRepeating(task: () => Promise<void>, { firstAfterMs, everyMs }: { firstAfterMs: number; everyMs: number }): Repeating {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => void task().finally(() => schedule(everyMs)), delay);
    timer.unref();
  };
  schedule(firstAfterMs);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
