import { spawn, type ChildProcess } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { childProcessEnv } from "./env.server";

/**
 * PostgreSQL's own client programs (pg_dump, pg_restore, psql), for backups.
 * A pg_dump older than the server refuses to dump it, and one newer writes
 * settings an older server does not know, so the one of the server's major
 * version is taken when it is installed, else the oldest newer one. Debian
 * keeps each version in /usr/lib/postgresql/<major>/bin; PATH is looked at too.
 */
export type PgTool = "pg_dump" | "pg_restore" | "psql";

export class PgToolError extends Error {
  override name = "PgToolError";
}

type Found = { file: string; major: number };

async function versionOf(file: string): Promise<number | undefined> {
  try {
    const { code, stdout } = await run(file, ["--version"], {});
    const major = /\(PostgreSQL\) (\d+)/.exec(stdout)?.[1];
    return code === 0 && major ? Number(major) : undefined;
  } catch {
    return undefined;
  }
}

async function candidates(tool: PgTool): Promise<Found[]> {
  const files: string[] = [tool];
  try {
    for (const version of await readdir("/usr/lib/postgresql")) files.push(path.join("/usr/lib/postgresql", version, "bin", tool));
  } catch {
    // Not Debian's layout: PATH only.
  }
  const found: Found[] = [];
  for (const file of files) {
    const major = await versionOf(file);
    if (major !== undefined) found.push({ file, major });
  }
  return found;
}

/** The program to use with a server of `serverMajor` (undefined: the newest installed, which reads every older archive). */
export async function findPgTool(tool: PgTool, serverMajor?: number): Promise<string> {
  const found = await candidates(tool);
  if (found.length === 0) {
    throw new PgToolError(`${tool} was not found: install PostgreSQL's client programs (Debian: apt-get install postgresql-client).`);
  }
  if (serverMajor === undefined) return found.sort((a, b) => b.major - a.major)[0]!.file;
  const usable = found.filter((candidate) => candidate.major >= serverMajor).sort((a, b) => a.major - b.major);
  if (usable.length === 0) {
    const newest = Math.max(...found.map((candidate) => candidate.major));
    throw new PgToolError(
      `${tool} ${newest} is older than the database server (PostgreSQL ${serverMajor}): install the client programs of version ${serverMajor} (Debian: postgresql-client-${serverMajor}).`,
    );
  }
  return usable[0]!.file;
}

/** libpq's --dbname and environment for a URL: the password goes in PGPASSWORD, never on the command line. */
export function connectionFor(url: string): { dbname: string; env: Record<string, string | undefined> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: childProcessEnv(password ? { PGPASSWORD: password } : {}) };
}

export type RunResult = { code: number | null; stdout: string; stderr: string };

/**
 * Runs a program to its end. `started` gets the child to feed its stdin (or
 * read its stdout, with collectStdout false); without it stdin is closed at once.
 */
export function run(
  file: string,
  args: string[],
  options: { env?: Record<string, string | undefined>; started?: (child: ChildProcess) => void; collectStdout?: boolean },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    if (options.collectStdout !== false) child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-20_000)));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    if (options.started) options.started(child);
    else child.stdin.end();
  });
}
