/**
 * The app as the bench runs it: `server.js` with `npm start`'s Node flags and
 * environment, on a free port of 127.0.0.1, its output kept for the report.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { ROOT } from "./config.ts";
import { freePort, waitForHealthy } from "./measure.ts";
import { adopt, isRunning } from "./processes.ts";

export const SERVER_ENTRY = path.join(ROOT, "server.js");
export const BUILD_ENTRY = path.join(ROOT, "build", "server", "index.js");

/** `npm start`'s Node flags and `env NAME=value` settings, read from package.json. */
export function startCommand(): { flags: string[]; env: Record<string, string> } {
  const script: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;
  const flags = /\bnode\s+(.*?)\s*server\.js/.exec(script)?.[1]?.split(/\s+/).filter(Boolean) ?? [];
  const env = Object.fromEntries(
    (/\benv\s+((?:\w+=\S+\s+)+)node\b/.exec(script)?.[1] ?? "")
      .split(/\s+/)
      .filter(Boolean)
      .map((assignment) => [assignment.slice(0, assignment.indexOf("=")), assignment.slice(assignment.indexOf("=") + 1)]),
  );
  return { flags, env };
}

export type AppServer = {
  proc: ChildProcess;
  pid: number;
  port: number;
  url: string;
  /** The last ~100 kB of its stdout and stderr. */
  log: () => string;
  alive: () => boolean;
  /** Resolves when it has exited. */
  exited: Promise<void>;
  /** From spawn to the first 200 from /healthz. */
  upInMs: number;
};

/** Spawns the app and resolves once /healthz answers 200 (throws with its output if it does not). */
export async function startAppServer(
  nodeArgs: readonly string[],
  env: (port: number) => NodeJS.ProcessEnv,
  { what = "The server", graceMs, healthEveryMs = 100 }: { what?: string; graceMs?: number; healthEveryMs?: number } = {},
): Promise<AppServer> {
  const port = await freePort();
  const spawnedAt = performance.now();
  const proc = adopt(spawn(process.execPath, [...nodeArgs, SERVER_ENTRY], { cwd: ROOT, env: env(port), stdio: ["ignore", "pipe", "pipe"] }), graceMs);
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  let log = "";
  const keep = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  if (proc.pid === undefined) throw new Error(`${what} could not be started.`);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthy(url, proc, what, () => log, { everyMs: healthEveryMs });
  const upInMs = performance.now() - spawnedAt;
  return { proc, pid: proc.pid, port, url, log: () => log, alive: () => isRunning(proc), exited, upInMs };
}

export const SEEDED_TITLES = ["Victorian Kitchen Transformation", "Modern Bathroom Refit", "Open-Plan Living Conversion"];

/** Three active projects, straight into the database the server has migrated (WAL lets a second connection write). */
export function seedProjects(db: DatabaseSync): void {
  const insert = db.prepare(
    `insert into renovation_projects
       (id, title, category, description, duration, budget, before_image_url, after_image_url, is_active, display_order, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
  );
  SEEDED_TITLES.forEach((title, index) => {
    const now = new Date(Date.UTC(2026, 0, 1 + index)).toISOString();
    insert.run(
      `bench-project-${index + 1}`,
      title,
      ["Kitchen Renovation", "Bathroom Renovation", "Full Renovation"][index]!,
      `${title}: stripped back to the walls, rewired, replumbed and finished to a high standard within budget.`,
      `${3 + index} weeks`,
      `£${(15 + index * 5).toLocaleString("en-GB")},000`,
      "/samples/kitchen-before.svg",
      "/samples/kitchen-after.svg",
      index,
      now,
      now,
    );
  });
}

/** The cases measure what they claim to: warnings when the seeded projects are not served. */
export async function sanityWarnings(baseUrl: string): Promise<string[]> {
  const warnings: string[] = [];
  try {
    const projects = (await (await fetch(`${baseUrl}/api/projects`)).json()) as unknown[];
    if (!Array.isArray(projects) || projects.length !== 3)
      warnings.push(`/api/projects returned ${Array.isArray(projects) ? projects.length : "no"} projects, expected 3`);
    const home = await fetch(`${baseUrl}/`);
    const html = await home.text();
    if (!home.ok) warnings.push(`GET / answered ${home.status}`);
    else if (!SEEDED_TITLES.every((title) => html.includes(title))) warnings.push("GET / does not contain the seeded projects' titles");
    console.log(`GET / is ${(html.length / 1024).toFixed(1)} KB of HTML (uncompressed).`);
  } catch (error) {
    warnings.push(`sanity check failed: ${String(error)}`);
  }
  return warnings;
}

/**
 * The cached page is still the truth: a project added by another connection (as an admin
 * on another instance would) shows on the very next GET /, and goes again when it is hidden.
 * Returns a problem, or undefined.
 */
export async function pageFollowsData(baseUrl: string, db: DatabaseSync): Promise<string | undefined> {
  const title = "Bench Check Mews, Added After The Load";
  const now = new Date().toISOString();
  db.prepare(
    `insert into renovation_projects (id, title, category, description, duration, budget, before_image_url, after_image_url, is_active, display_order, created_at, updated_at)
     values ('bench-check', ?, 'Full Renovation', 'Added by the bench after the load.', '1 week', '£1,000', '/samples/kitchen-before.svg', '/samples/kitchen-after.svg', 1, 9, ?, ?)`,
  ).run(title, now, now);
  const shown = (await (await fetch(`${baseUrl}/`)).text()).includes(title);
  db.prepare("update renovation_projects set is_active = 0 where id = 'bench-check'").run();
  const hidden = !(await (await fetch(`${baseUrl}/`)).text()).includes(title);
  db.prepare("delete from renovation_projects where id = 'bench-check'").run();
  if (shown && hidden) return undefined;
  return `GET / after the load did not follow a change made by another connection (${shown ? "hidden project still shown" : "added project not shown"})`;
}
