/**
 * The bench's child processes (the server, side servers, cold starts, sharp alone) and
 * its clean-up: whatever happens, Ctrl-C, a throw or a normal end, no child is left
 * running and no temporary data directory is left behind.
 */
import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";

let interrupted = false;
/** True once SIGINT or SIGTERM arrived: every case stops as soon as it can. */
export const isInterrupted = (): boolean => interrupted;

const children = new Set<ChildProcess>();
/** Children given time to stop on an interrupt (the server: it closes its database). */
const graceful = new Map<ChildProcess, number>();
const directories = new Set<string>();
let stopLoad: (() => void) | undefined;

export const isRunning = (proc: ChildProcess): boolean => proc.exitCode === null && proc.signalCode === null;

/**
 * Killed on an interrupt or at exit, unless it has ended by then: at once (SIGKILL), or
 * with `graceMs` it is sent SIGTERM on an interrupt and given that long to stop.
 */
export function adopt<T extends ChildProcess>(proc: T, graceMs?: number): T {
  children.add(proc);
  if (graceMs !== undefined) graceful.set(proc, graceMs);
  proc.once("exit", () => {
    children.delete(proc);
    graceful.delete(proc);
  });
  return proc;
}

/** Removed at exit (and on an interrupt) unless released before. */
export function temporaryDirectory(dir: string): { release: () => void } {
  directories.add(dir);
  return {
    release() {
      rmSync(dir, { recursive: true, force: true });
      directories.delete(dir);
    },
  };
}

/** The load now running (autocannon), stopped on an interrupt. */
export function currentLoad(stop: (() => void) | undefined): void {
  stopLoad = stop;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
export async function stopProcess(proc: ChildProcess, graceMs: number): Promise<void> {
  if (!isRunning(proc)) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill("SIGTERM");
  const killer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(killer);
}

function removeDirectories(): void {
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
  directories.clear();
}

/**
 * Installs the handlers: on SIGINT/SIGTERM the load stops, side processes are killed,
 * the server is stopped gracefully, and the process exits 130; at exit whatever is left
 * is killed and removed.
 */
export function installCleanup(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`\n${signal}: stopping the load and the server…`);
      stopLoad?.();
      for (const proc of children) if (!graceful.has(proc) && isRunning(proc)) proc.kill("SIGKILL");
      void Promise.all([...graceful].map(([proc, graceMs]) => stopProcess(proc, graceMs))).finally(() => {
        removeDirectories();
        process.exit(130);
      });
    });
  }
  // Last resort if something throws past main's finally: never leave a child running.
  process.on("exit", () => {
    for (const proc of children) if (isRunning(proc)) proc.kill("SIGKILL");
    removeDirectories();
  });
}
