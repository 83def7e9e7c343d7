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

export type SpawnedServer = {
  child: ChildProcess;
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Everything the process wrote so far, stdout and stderr. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /** SIGTERM, then SIGKILL if it has not exited after a while; resolves with the exit. */
  stop(): Promise<Exit>;
};

const running = new Set<ChildProcess>();

// A test that fails half-way must not leave a server behind.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * Starts `node server.js` (the production build) as a child process with only
 * the environment given here (plus PATH and HOME), so nothing leaks in from the
 * test runner: no NODE_ENV=test, no DATABASE_URL for the SQLite variants.
 */
export function spawnServer(env: Record<string, string | undefined>): SpawnedServer {
  const port = Number(env.PORT ?? 0);
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  // No drain on SIGTERM unless a test asks for one: nothing balances traffic to a test's server.
  for (const [name, value] of Object.entries({ NODE_ENV: "production", HOST: "127.0.0.1", SHUTDOWN_DRAIN_MS: "0", ...env })) {
    if (value !== undefined) childEnv[name] = value;
  }
  const child = spawn(process.execPath, [serverEntry], { cwd: repoRoot, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
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
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    }
    return exited;
  };
  return { child, port, url: `http://127.0.0.1:${port}`, stdout: () => stdout, stderr: () => stderr, exited, stop };
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
export async function startServer(env: Record<string, string | undefined>): Promise<SpawnedServer> {
  assertBuilt();
  if (env.PORT !== undefined) {
    // A port the test chose (an instance restarted where a proxy expects it).
    const server = spawnServer(env);
    await waitUntilHealthy(server).catch(async (error: unknown) => {
      await server.stop();
      throw error;
    });
    return server;
  }
  for (let attempt = 1; ; attempt++) {
    const server = spawnServer({ ...env, PORT: String(await freePort()) });
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
