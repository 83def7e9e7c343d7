import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const serverEntry = path.join(repoRoot, "server.js");
const builtServer = path.join(repoRoot, "build/server/index.js");

/** Fails early, with the fix, when the production build is missing. */
export function assertBuilt(): void {
  if (!existsSync(builtServer)) {
    throw new Error(`${builtServer} is missing: run \`npm run build\` before the HTTP tests (npm test does).`);
  }
}

/** A port that was free a moment ago: listen on port 0, read it, close. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * How a test starts the server: `node server.js` as its own child, or `npm
 * start` (as production does, package.json) in a process group of its own,
 * which `setsid npm start` makes and which systemd and `docker stop` signal whole.
 */
export type Launch = "node" | "npm";

export type SpawnedServer = {
  child: ChildProcess;
  launch: Launch;
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Everything the process wrote so far, stdout and stderr. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /**
   * Sends `signal` as an orchestrator would: to the whole process group under
   * `npm start` (npm and the server both get it, and npm passes its copy on),
   * to the server's process otherwise.
   */
  signal(signal: NodeJS.Signals): void;
  /** `signal("SIGTERM")`, then SIGKILL if it has not exited after a while; resolves with the exit (npm's under `npm start`). */
  stop(): Promise<Exit>;
};

const running = new Set<ChildProcess>();

// A test that fails half-way must not leave a server behind.
process.once("exit", () => {
  for (const child of running) killAll(child, "SIGKILL");
});

/** The child and, when it leads a process group of its own (`npm start`), everything in that group. */
function killAll(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined && launches.get(child) === "npm") process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Gone already.
  }
}

const launches = new WeakMap<ChildProcess, Launch>();

/**
 * Starts `node server.js` (the production build) as a child process with only
 * the environment given here (plus PATH and HOME), so nothing leaks in from the
 * test runner: no NODE_ENV=test, no DATABASE_URL for the SQLite variants.
 * With `launch: "npm"`, `npm start` in a process group of its own instead.
 */
export function spawnServer(env: Record<string, string | undefined>, { launch = "node" }: { launch?: Launch } = {}): SpawnedServer {
  const port = Number(env.PORT ?? 0);
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  // No drain on SIGTERM unless a test asks for one: nothing balances traffic to a test's server.
  for (const [name, value] of Object.entries({ NODE_ENV: "production", HOST: "127.0.0.1", SHUTDOWN_DRAIN_MS: "0", ...env })) {
    if (value !== undefined) childEnv[name] = value;
  }
  // npm checks for a newer npm now and then, over the network: not in a test.
  if (launch === "npm") childEnv.npm_config_update_notifier = "false";
  const child =
    launch === "npm"
      ? spawn("npm", ["start"], { cwd: repoRoot, env: childEnv, stdio: ["ignore", "pipe", "pipe"], detached: true })
      : spawn(process.execPath, [serverEntry], { cwd: repoRoot, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  launches.set(child, launch);
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  const signal = (name: NodeJS.Signals) => killAll(child, name);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), 15_000);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    }
    return exited;
  };
  return { child, launch, port, url: `http://127.0.0.1:${port}`, stdout: () => stdout, stderr: () => stderr, exited, signal, stop };
}

/** A line of the server's JSON log (decision 031). */
export type LogLine = Record<string, unknown> & { level: string; msg: string };

/** The complete JSON lines in `output` (a line still being written is left for later). */
export function logLines(output: string): LogLine[] {
  const complete = output.slice(0, output.lastIndexOf("\n") + 1);
  return complete
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Waits until GET /healthz answers 200, or fails with the server's output if it exits first. */
export async function waitUntilHealthy(server: SpawnedServer, timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exit: Exit | undefined;
  void server.exited.then((value) => (exit = value));
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (exit) break;
    try {
      const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (exit) break;
    // Poll: nothing else tells us the server is ready without relying on its log wording.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const why = exit ? `exited (code ${exit.code}, signal ${exit.signal})` : `did not become healthy in ${timeoutMs} ms (${last})`;
  throw new Error(`The server ${why}.\n--- stdout\n${server.stdout()}\n--- stderr\n${server.stderr()}`);
}

/**
 * Starts the built server on a free port (or env.PORT) and waits until it is
 * healthy. If a free port was taken in between (another test file grabbed
 * it), tries another.
 */
export async function startServer(env: Record<string, string | undefined>, options: { launch?: Launch } = {}): Promise<SpawnedServer> {
  assertBuilt();
  if (env.PORT !== undefined) {
    // A port the test chose (an instance restarted where a proxy expects it).
    const server = spawnServer(env, options);
    await waitUntilHealthy(server).catch(async (error: unknown) => {
      await server.stop();
      throw error;
    });
    return server;
  }
  for (let attempt = 1; ; attempt++) {
    const server = spawnServer({ ...env, PORT: String(await freePort()) }, options);
    try {
      await waitUntilHealthy(server);
      return server;
    } catch (error) {
      await server.stop();
      if (attempt < 3 && server.stderr().includes("EADDRINUSE")) continue;
      throw error;
    }
  }
}
